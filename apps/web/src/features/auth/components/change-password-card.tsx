import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { AlertCircle } from 'lucide-react';
import { z } from 'zod';
import { changePasswordFormSchema, PASSWORD_MIN_LENGTH } from '@sendwell/contract/auth';

import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { getApiErrorMessage } from '@/lib/api';
import { toast } from '@/lib/use-toast';
import { useChangePassword } from '../api/use-auth-mutations';
import { FieldError } from './field-error';

/** The contract's new-password form plus the current password, which a normal change must prove. */
const changePasswordWithCurrentSchema = changePasswordFormSchema.safeExtend({
  currentPassword: z.string().min(1, 'Current password is required'),
});
type FormValues = z.input<typeof changePasswordWithCurrentSchema>;

type FieldName = keyof FormValues;

/** Change Password card of the profile page. */
export function ChangePasswordCard() {
  const changePassword = useChangePassword();
  const form = useForm<FormValues>({
    resolver: zodResolver(changePasswordWithCurrentSchema),
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async ({ currentPassword, newPassword }) => {
    try {
      await changePassword.mutateAsync({ currentPassword, newPassword });
    } catch (err) {
      form.setError('root.server', { message: getApiErrorMessage(err) ?? 'Failed to change password' });
      return;
    }
    form.reset();
    toast({
      title: 'Password Changed',
      description: 'Your new password has been set. You can now use it to log in.',
    });
  });

  const pending = changePassword.isPending || form.formState.isSubmitting;

  const field = (name: FieldName, label: string, autoComplete: string) => {
    const id = `change-${name}`;
    const error = errors[name]?.message;
    return (
      <div className="space-y-2">
        <Label htmlFor={id}>{label}</Label>
        <Input
          id={id}
          type="password"
          autoComplete={autoComplete}
          required
          minLength={name === 'currentPassword' ? undefined : PASSWORD_MIN_LENGTH}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          {...form.register(name)}
        />
        <FieldError id={`${id}-error`} message={error} />
      </div>
    );
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="text-lg">Change Password</h2>
        </CardTitle>
        <CardDescription>Use at least {PASSWORD_MIN_LENGTH} characters.</CardDescription>
      </CardHeader>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-6">
        <CardContent className="space-y-4">
          {errors.root?.server?.message && (
            <Alert variant="destructive">
              <AlertCircle aria-hidden="true" />
              <AlertDescription>{errors.root.server.message}</AlertDescription>
            </Alert>
          )}
          {field('currentPassword', 'Current password', 'current-password')}
          {field('newPassword', 'New password', 'new-password')}
          {field('confirmPassword', 'Confirm password', 'new-password')}
        </CardContent>
        <CardFooter className="justify-end">
          <Button type="submit" disabled={pending}>
            {pending ? 'Changing...' : 'Change Password'}
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}
