import * as React from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'wouter';
import { CircleCheck } from 'lucide-react';
import { resetPasswordBodySchema, type ResetPasswordBody } from '@sendwell/contract/auth';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { getApiErrorMessage, getApiErrorStatus } from '@/lib/api';
import { toastError } from '@/lib/toast-error';
import { useResetPassword } from '../api/use-auth-mutations';
import { FieldError } from './field-error';

/** /reset-password?token=…: the mailed link's page, where the new password is chosen. */
export function ResetPasswordForm({ token }: { token: string }) {
  const reset = useResetPassword();
  const [done, setDone] = React.useState(false);
  const [linkError, setLinkError] = React.useState<string | null>(
    token ? null : 'This link is incomplete. Ask for a new one on the Forgot password page.',
  );
  const form = useForm({
    resolver: zodResolver(resetPasswordBodySchema),
    defaultValues: { token, password: '', confirmPassword: '' } satisfies ResetPasswordBody,
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async (body) => {
    try {
      await reset.mutateAsync(body);
      setDone(true);
    } catch (error) {
      // A refused link is said on the page, with the way to a new one; other failures as a toast.
      if (getApiErrorStatus(error) === 400 && /link/i.test(getApiErrorMessage(error) ?? '')) {
        setLinkError(getApiErrorMessage(error) ?? null);
      } else {
        toastError(error, 'Could not set the password. Please try again.');
      }
    }
  });

  return (
    <Card className="shadow-lg">
      <CardHeader className="text-center">
        <h1 className="text-2xl font-bold tracking-tight">{done ? 'Password changed' : 'Choose a new password'}</h1>
        <CardDescription>
          {done ? 'You were signed out everywhere else.' : 'It replaces your old one and signs you out everywhere.'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {done ? (
          <div role="status" className="space-y-4">
            <p className="flex items-center gap-2 text-sm">
              <CircleCheck className="size-5 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
              Your new password is set. Sign in with it.
            </p>
            <Button asChild className="w-full">
              <Link href="/login">Sign in</Link>
            </Button>
          </div>
        ) : linkError ? (
          <div role="alert" className="space-y-4">
            <p className="text-destructive text-sm">{linkError}</p>
            <Button asChild variant="outline" className="w-full">
              <Link href="/forgot-password">Ask for a new link</Link>
            </Button>
          </div>
        ) : (
          <form onSubmit={onSubmit} noValidate className="space-y-4">
            <div className="space-y-2">
              <Label htmlFor="reset-password">New password</Label>
              <Input
                id="reset-password"
                type="password"
                autoComplete="new-password"
                required
                aria-invalid={errors.password ? true : undefined}
                aria-describedby={errors.password ? 'reset-password-error' : undefined}
                {...form.register('password')}
              />
              <FieldError id="reset-password-error" message={errors.password?.message} />
            </div>
            <div className="space-y-2">
              <Label htmlFor="reset-confirm">Confirm new password</Label>
              <Input
                id="reset-confirm"
                type="password"
                autoComplete="new-password"
                required
                aria-invalid={errors.confirmPassword ? true : undefined}
                aria-describedby={errors.confirmPassword ? 'reset-confirm-error' : undefined}
                {...form.register('confirmPassword')}
              />
              <FieldError id="reset-confirm-error" message={errors.confirmPassword?.message} />
            </div>
            <Button type="submit" className="w-full" disabled={reset.isPending}>
              {reset.isPending ? 'Saving...' : 'Set new password'}
            </Button>
          </form>
        )}
      </CardContent>
      {!done && (
        <CardFooter className="justify-center">
          <Link href="/login" className="text-foreground text-sm font-medium underline underline-offset-4">
            Back to sign in
          </Link>
        </CardFooter>
      )}
    </Card>
  );
}
