import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { updateProfileBodySchema, type CurrentUser, type UpdateProfileBody } from '@sendwell/contract/auth';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { getApiErrorFields } from '@/lib/api';
import { toastError } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';
import { useUpdateProfile } from '../api/use-auth-mutations';
import { FieldError } from './field-error';

type ProfileField = 'firstName' | 'lastName' | 'company' | 'postalAddress';
const PROFILE_FIELDS: readonly ProfileField[] = ['firstName', 'lastName', 'company', 'postalAddress'];

/** Profile details: names, company and the postal address printed in campaign footers. */
export function ProfileForm({ user }: { user: CurrentUser }) {
  const updateProfile = useUpdateProfile();
  const form = useForm({
    resolver: zodResolver(updateProfileBodySchema),
    defaultValues: {
      firstName: user.firstName,
      lastName: user.lastName,
      company: user.company,
      postalAddress: user.postalAddress,
    } satisfies UpdateProfileBody,
  });
  const { errors, isDirty } = form.formState;

  const onSubmit = form.handleSubmit(async (body) => {
    try {
      const updated = await updateProfile.mutateAsync(body);
      form.reset({
        firstName: updated.firstName,
        lastName: updated.lastName,
        company: updated.company,
        postalAddress: updated.postalAddress,
      });
      toast({ title: 'Profile Updated', description: 'Your profile has been saved.' });
    } catch (err) {
      const fields = getApiErrorFields(err);
      for (const name of PROFILE_FIELDS) {
        const message = fields[name];
        if (message) form.setError(name, { message });
      }
      toastError(err, 'Failed to update profile');
    }
  });

  const pending = updateProfile.isPending || form.formState.isSubmitting;

  const textField = (
    name: Exclude<ProfileField, 'postalAddress'>,
    label: string,
    autoComplete: string,
    required: boolean,
  ) => {
    const id = `profile-${name}`;
    const error = errors[name]?.message;
    return (
      <div className="space-y-2">
        <Label htmlFor={id}>{label}</Label>
        <Input
          id={id}
          autoComplete={autoComplete}
          required={required}
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
          <h2 className="text-lg">Profile details</h2>
        </CardTitle>
        <CardDescription>Signed in as {user.email}</CardDescription>
      </CardHeader>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-6">
        <CardContent className="space-y-4">
          <div className="grid gap-4 sm:grid-cols-2">
            {textField('firstName', 'First name', 'given-name', true)}
            {textField('lastName', 'Last name', 'family-name', true)}
          </div>
          {textField('company', 'Company', 'organization', false)}
          <div className="space-y-2">
            <Label htmlFor="profile-postalAddress">Postal address</Label>
            <Textarea
              id="profile-postalAddress"
              rows={3}
              autoComplete="street-address"
              aria-invalid={errors.postalAddress ? true : undefined}
              aria-describedby={
                errors.postalAddress
                  ? 'profile-postalAddress-help profile-postalAddress-error'
                  : 'profile-postalAddress-help'
              }
              {...form.register('postalAddress')}
            />
            <p id="profile-postalAddress-help" className="text-muted-foreground text-sm">
              Printed in the footer of every campaign you send, as anti-spam laws (such as CAN-SPAM) require a valid
              physical address in commercial email.
            </p>
            <FieldError id="profile-postalAddress-error" message={errors.postalAddress?.message} />
          </div>
        </CardContent>
        <CardFooter className="justify-end">
          <Button type="submit" disabled={pending || !isDirty}>
            {pending ? 'Saving...' : 'Save Changes'}
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}
