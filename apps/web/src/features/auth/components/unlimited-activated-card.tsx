import { CheckCircle2, Sparkles } from 'lucide-react';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader } from '@/components/ui/card';

const BENEFITS = [
  'Unlimited subscribers',
  'Unlimited emails per month',
  'Unlimited custom domains',
  'Advanced automation and A/B testing',
  'Advanced analytics and API access',
  'Priority support and white-label options',
];

/** Shown once the unlimited plan is active. */
export function UnlimitedActivatedCard() {
  return (
    <Card className="shadow-lg">
      <CardHeader className="text-center">
        <span className="mx-auto flex size-14 items-center justify-center rounded-full bg-emerald-100 text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300">
          <CheckCircle2 className="size-8" aria-hidden="true" />
        </span>
        <h1 className="mt-2 text-2xl font-bold tracking-tight">Unlimited Plan Activated!</h1>
        <div className="flex justify-center">
          <Badge className="bg-violet-700 text-white">
            <Sparkles aria-hidden="true" />
            Unlimited Pro
          </Badge>
        </div>
        <CardDescription>Your account now has unlimited access to every feature.</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="space-y-2">
          {BENEFITS.map((benefit) => (
            <li key={benefit} className="flex items-center gap-2 text-sm">
              <CheckCircle2 className="size-4 shrink-0 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
              {benefit}
            </li>
          ))}
        </ul>
      </CardContent>
      <CardFooter>
        <Button asChild className="w-full">
          {/* A full navigation, so the dashboard reads the upgraded session. */}
          <a href="/">Go to Dashboard</a>
        </Button>
      </CardFooter>
    </Card>
  );
}
