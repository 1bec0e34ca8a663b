import * as React from 'react';
import { Crown } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toastError } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';
import { useSetupUnlimited } from '../api/use-setup-unlimited';

/**
 * 'Activate Unlimited Plan': the account's own credentials, never prefilled. The button stays
 * disabled until both fields have a value.
 */
export function UnlimitedSetupCard({ onActivated }: { onActivated: () => void }) {
  const setup = useSetupUnlimited();
  const [email, setEmail] = React.useState('');
  const [password, setPassword] = React.useState('');
  const canSubmit = email.trim() !== '' && password !== '' && !setup.isPending;

  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!canSubmit) return;
    try {
      const result = await setup.mutateAsync({ email, password });
      if (!result.success) {
        toast({
          title: 'Activation Failed',
          description: result.message || 'Invalid credentials',
          variant: 'destructive',
        });
        return;
      }
      toast({
        title: 'Unlimited Plan Activated!',
        description: result.message || 'Your account now has unlimited access.',
      });
      onActivated();
    } catch (error) {
      // Refusals (4xx) come back as a result above; what reaches here is a network failure or a 5xx.
      toastError(error, 'Failed to activate unlimited plan. Please try again.', { serverMessage: 'never' });
    }
  };

  return (
    <Card className="shadow-lg">
      <CardHeader className="text-center">
        <span className="mx-auto flex size-12 items-center justify-center rounded-full bg-violet-100 text-violet-700 dark:bg-violet-950 dark:text-violet-300">
          <Crown className="size-6" aria-hidden="true" />
        </span>
        <h1 className="mt-2 text-2xl font-bold tracking-tight">Activate Unlimited Plan</h1>
        <CardDescription>Sign in with the account that has been granted unlimited access.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} className="space-y-4">
          <div className="space-y-2">
            <Label htmlFor="unlimited-email">Email</Label>
            <Input
              id="unlimited-email"
              type="email"
              autoComplete="email"
              required
              value={email}
              onChange={(event) => setEmail(event.target.value)}
            />
          </div>
          <div className="space-y-2">
            <Label htmlFor="unlimited-password">Password</Label>
            <Input
              id="unlimited-password"
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
          </div>
          <Button type="submit" className="w-full" disabled={!canSubmit}>
            {setup.isPending ? 'Activating...' : 'Activate Unlimited Plan'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
