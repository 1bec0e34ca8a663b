import * as React from 'react';
import { useLocation } from 'wouter';
import { useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, Globe, Mail, Upload, Workflow } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader } from '@/components/ui/card';
import { AuthPageLayout } from '@/features/auth/components/auth-page-layout';

/** Seconds before the automatic redirect to / (spec §9). */
const REDIRECT_SECONDS = 5;

const NEXT_STEPS = [
  { icon: Globe, text: 'Set up your custom domain' },
  { icon: Upload, text: 'Import your contacts' },
  { icon: Mail, text: 'Create your first campaign' },
  { icon: Workflow, text: 'Explore automation features' },
];

/** /checkout/success: thanks, next steps, and a redirect to the dashboard after 5 seconds. */
export default function CheckoutSuccessPage() {
  const [, setLocation] = useLocation();
  const queryClient = useQueryClient();
  const [secondsLeft, setSecondsLeft] = React.useState(REDIRECT_SECONDS);

  const goToDashboard = React.useCallback(() => {
    // The subscription just changed: read the session again on the dashboard.
    void queryClient.invalidateQueries({ queryKey: ['/api/auth/user'] });
    setLocation('/');
  }, [queryClient, setLocation]);

  React.useEffect(() => {
    const interval = setInterval(() => setSecondsLeft((s) => Math.max(0, s - 1)), 1000);
    const timeout = setTimeout(goToDashboard, REDIRECT_SECONDS * 1000);
    return () => {
      clearInterval(interval);
      clearTimeout(timeout);
    };
  }, [goToDashboard]);

  return (
    <AuthPageLayout>
      <Card className="shadow-lg">
        <CardHeader className="items-center text-center">
          <span className="mx-auto flex size-14 items-center justify-center rounded-full bg-emerald-100 text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300">
            <CheckCircle2 className="size-8" aria-hidden="true" />
          </span>
          <h1 className="mt-2 text-2xl font-bold tracking-tight">Payment Successful!</h1>
          <CardDescription>Welcome to Sendwell. Your subscription is now active.</CardDescription>
        </CardHeader>
        <CardContent className="space-y-3">
          <h2 className="font-semibold">Next steps</h2>
          <ul className="space-y-2">
            {NEXT_STEPS.map(({ icon: Icon, text }) => (
              <li key={text} className="flex items-center gap-3 rounded-lg border p-3 text-sm">
                <Icon className="size-4 shrink-0" aria-hidden="true" />
                {text}
              </li>
            ))}
          </ul>
        </CardContent>
        <CardFooter className="flex-col gap-3">
          <Button className="w-full" onClick={goToDashboard}>
            Go to Dashboard
          </Button>
          <p className="text-muted-foreground text-sm">
            Redirecting to your dashboard in {secondsLeft} second{secondsLeft === 1 ? '' : 's'}...
          </p>
        </CardFooter>
      </Card>
    </AuthPageLayout>
  );
}
