import { useForm, type FieldPath } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'wouter';
import { ArrowLeft } from 'lucide-react';
import { signupBodySchema, type SignupBody } from '@sendwell/contract/auth';
import { browserTimeZone } from '@/lib/time-zone';
import type { purchasablePlanIds } from '@sendwell/contract/billing';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { getApiErrorFields } from '@/lib/api';
import { toastError } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';
import { useSignup } from '../api/use-auth-mutations';
import { FieldError } from './field-error';

export interface SelectedPlan {
  id: (typeof purchasablePlanIds)[number];
  name: string;
  price: number;
}

type FieldName = 'firstName' | 'lastName' | 'email' | 'company' | 'password' | 'confirmPassword';

const FIELD_NAMES: readonly FieldName[] = ['firstName', 'lastName', 'email', 'company', 'password', 'confirmPassword'];

/**
 * Step 2 of sign-up, 'Create Your Account'. Validates with the contract's signup schema; a password
 * mismatch is a 'Password Mismatch' toast and nothing is sent. Calls onSignedUp once the account exists.
 */
export function SignupForm({
  plan,
  onBack,
  onSignedUp,
  busy = false,
}: {
  plan: SelectedPlan;
  /** Returns to step 1 (the plan choice). */
  onBack: () => void;
  onSignedUp: () => void;
  /** True while the page hands over to checkout, so the button stays disabled. */
  busy?: boolean;
}) {
  const signup = useSignup();
  const form = useForm({
    resolver: zodResolver(signupBodySchema),
    defaultValues: {
      firstName: '',
      lastName: '',
      email: '',
      company: '',
      password: '',
      confirmPassword: '',
      plan: plan.id,
      planPrice: plan.price,
    } satisfies SignupBody,
  });
  const { errors } = form.formState;

  const warnIfMismatch = (): boolean => {
    const { password, confirmPassword } = form.getValues();
    if (password !== confirmPassword) {
      toast({ title: 'Password Mismatch', description: 'Passwords do not match', variant: 'destructive' });
      return true;
    }
    return false;
  };

  const onSubmit = form.handleSubmit(
    async (body) => {
      if (warnIfMismatch()) return;
      try {
        // The browser's time zone becomes the account's default for schedules (changeable in Settings).
        await signup.mutateAsync({ ...body, plan: plan.id, planPrice: plan.price, timeZone: browserTimeZone() });
      } catch (err) {
        const fields = getApiErrorFields(err);
        for (const name of FIELD_NAMES) {
          const message = fields[name];
          if (message) form.setError(name as FieldPath<SignupBody>, { message });
        }
        toastError(err, 'Unable to create account', { title: 'Signup Failed' });
        return;
      }
      toast({ title: 'Account Created Successfully', description: 'Redirecting to secure payment...' });
      onSignedUp();
    },
    () => {
      warnIfMismatch();
    },
  );

  const pending = signup.isPending || form.formState.isSubmitting || busy;

  const field = (
    name: FieldName,
    label: string,
    props: { type?: string; autoComplete?: string; required?: boolean; placeholder?: string } = {},
  ) => {
    const id = `signup-${name}`;
    const error = errors[name]?.message;
    return (
      <div className="space-y-2">
        <Label htmlFor={id}>{label}</Label>
        <Input
          id={id}
          type={props.type ?? 'text'}
          autoComplete={props.autoComplete}
          placeholder={props.placeholder}
          required={props.required ?? true}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          {...form.register(name)}
        />
        <FieldError id={`${id}-error`} message={error} />
      </div>
    );
  };

  return (
    <Card className="shadow-lg">
      <CardHeader className="space-y-1">
        <button
          type="button"
          onClick={onBack}
          className="text-muted-foreground hover:text-foreground focus-visible:ring-ring/50 mb-2 inline-flex w-fit items-center gap-1 rounded-sm text-sm underline-offset-4 outline-none hover:underline focus-visible:ring-[3px]"
        >
          <ArrowLeft className="size-4" aria-hidden="true" />
          Back to plans
        </button>
        <h1 className="text-2xl font-bold tracking-tight">Create Your Account</h1>
        <CardDescription>
          You chose the <span className="text-foreground font-medium">{plan.name}</span> plan.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          <div className="grid gap-4 sm:grid-cols-2">
            {field('firstName', 'First name', { autoComplete: 'given-name' })}
            {field('lastName', 'Last name', { autoComplete: 'family-name' })}
          </div>
          {field('email', 'Email', { type: 'email', autoComplete: 'email', placeholder: 'you@company.com' })}
          {field('company', 'Company (optional)', { autoComplete: 'organization', required: false })}
          {field('password', 'Password', { type: 'password', autoComplete: 'new-password' })}
          {field('confirmPassword', 'Confirm password', { type: 'password', autoComplete: 'new-password' })}
          <Button type="submit" className="w-full" disabled={pending}>
            {pending ? 'Creating Account...' : 'Start 14-Day Free Trial'}
          </Button>
        </form>
      </CardContent>
      <CardFooter className="justify-center">
        <p className="text-muted-foreground text-sm">
          Already have an account?{' '}
          <Link href="/login" className="text-foreground font-medium underline underline-offset-4">
            Sign in
          </Link>
        </p>
      </CardFooter>
    </Card>
  );
}
