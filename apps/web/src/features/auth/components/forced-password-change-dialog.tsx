import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { AlertCircle, KeyRound } from 'lucide-react';
import { changePasswordFormSchema, PASSWORD_MIN_LENGTH, PASSWORDS_DO_NOT_MATCH } from '@sendwell/contract/auth';
import type { z } from 'zod';

import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { getApiErrorMessage } from '@/lib/api';
import { toast } from '@/lib/use-toast';
import { useChangePassword } from '../api/use-auth-mutations';

type FormValues = z.input<typeof changePasswordFormSchema>;

/** Time the 'Password Changed' toast stays readable before the page reloads. */
const RELOAD_DELAY_MS = 1500;

/**
 * The modal shown while the session is on a temporary password (spec §2, §4). It cannot be closed:
 * no close button, Escape and outside clicks are ignored. Success reloads the page.
 */
export function ForcedPasswordChangeDialog({ open, onSuccess }: { open: boolean; onSuccess?: () => void }) {
  const changePassword = useChangePassword();
  const form = useForm<FormValues>({
    resolver: zodResolver(changePasswordFormSchema),
    defaultValues: { newPassword: '', confirmPassword: '' },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async ({ newPassword }) => {
    try {
      await changePassword.mutateAsync({ newPassword });
    } catch (err) {
      form.setError('root.server', { message: getApiErrorMessage(err) ?? 'Failed to change password' });
      return;
    }
    toast({
      title: 'Password Changed',
      description: 'Your new password has been set. You can now use it to log in.',
    });
    form.reset({ newPassword: '', confirmPassword: '' });
    onSuccess?.();
    // The cached session now says no change is required, so the dialog closes at once; the reload
    // follows after a moment so the toast can be read.
    setTimeout(() => window.location.reload(), RELOAD_DELAY_MS);
  });

  // One inline message at a time, in the order the user has to fix them.
  // A confirmation that differs is reported as a mismatch even when it is also too short.
  const confirmError =
    errors.confirmPassword && form.getValues('confirmPassword') !== form.getValues('newPassword')
      ? PASSWORDS_DO_NOT_MATCH
      : errors.confirmPassword?.message;
  const inlineError = errors.newPassword?.message ?? confirmError ?? errors.root?.server?.message;
  const pending = changePassword.isPending || form.formState.isSubmitting;

  return (
    <Dialog open={open}>
      <DialogContent
        showCloseButton={false}
        onEscapeKeyDown={(event) => event.preventDefault()}
        onPointerDownOutside={(event) => event.preventDefault()}
        onInteractOutside={(event) => event.preventDefault()}
        className="sm:max-w-md"
      >
        <DialogHeader>
          <div className="bg-primary/10 mx-auto mb-1 flex size-11 items-center justify-center rounded-full sm:mx-0">
            <KeyRound className="size-5" aria-hidden="true" />
          </div>
          <DialogTitle>Password Change Required</DialogTitle>
          <DialogDescription>
            You are signed in with a temporary password that expires in 1 hour. Please set a permanent password now to
            keep using your account.
          </DialogDescription>
        </DialogHeader>

        <form onSubmit={onSubmit} noValidate className="space-y-4">
          {inlineError && (
            <Alert variant="destructive">
              <AlertCircle aria-hidden="true" />
              <AlertDescription>{inlineError}</AlertDescription>
            </Alert>
          )}
          <div className="space-y-2">
            <Label htmlFor="forced-new-password">New password</Label>
            <Input
              id="forced-new-password"
              type="password"
              autoComplete="new-password"
              required
              minLength={PASSWORD_MIN_LENGTH}
              aria-invalid={errors.newPassword ? true : undefined}
              {...form.register('newPassword')}
            />
          </div>
          <div className="space-y-2">
            <Label htmlFor="forced-confirm-password">Confirm password</Label>
            <Input
              id="forced-confirm-password"
              type="password"
              autoComplete="new-password"
              required
              minLength={PASSWORD_MIN_LENGTH}
              aria-invalid={errors.confirmPassword ? true : undefined}
              {...form.register('confirmPassword')}
            />
          </div>
          <p className="text-muted-foreground text-sm">
            Once your new password is set, the temporary password stops working.
          </p>
          <DialogFooter>
            <Button type="submit" disabled={pending} className="w-full sm:w-auto">
              {pending ? 'Changing...' : 'Set New Password'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
