import * as React from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'wouter';
import { MailCheck } from 'lucide-react';
import { forgotPasswordBodySchema, type ForgotPasswordBody } from '@sendwell/contract/auth';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toastError } from '@/lib/toast-error';
import { useForgotPassword } from '../api/use-auth-mutations';
import { FieldError } from './field-error';

/** /forgot-password: asks for the address; the answer is the same whether or not it has an account. */
export function ForgotPasswordForm() {
  const request = useForgotPassword();
  const [answer, setAnswer] = React.useState<string | null>(null);
  const form = useForm({
    resolver: zodResolver(forgotPasswordBodySchema),
    defaultValues: { email: '' } satisfies ForgotPasswordBody,
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async (body) => {
    try {
      setAnswer((await request.mutateAsync(body)).message);
    } catch (error) {
      toastError(error, 'Could not send the link. Please try again.');
    }
  });

  return (
    <Card className="shadow-lg">
      <CardHeader className="text-center">
        <h1 className="text-2xl font-bold tracking-tight">Forgot your password?</h1>
        <CardDescription>We will email you a link to choose a new one.</CardDescription>
      </CardHeader>
      <CardContent>
        {answer ? (
          <div role="status" className="flex items-start gap-3 rounded-md border p-4 text-sm">
            <MailCheck className="mt-0.5 size-5 shrink-0 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
            <p>{answer}</p>
          </div>
        ) : (
          <form onSubmit={onSubmit} noValidate className="space-y-4">
            <div className="space-y-2">
              <Label htmlFor="forgot-email">Email</Label>
              <Input
                id="forgot-email"
                type="email"
                autoComplete="email"
                placeholder="you@company.com"
                required
                aria-invalid={errors.email ? true : undefined}
                aria-describedby={errors.email ? 'forgot-email-error' : undefined}
                {...form.register('email')}
              />
              <FieldError id="forgot-email-error" message={errors.email?.message} />
            </div>
            <Button type="submit" className="w-full" disabled={request.isPending}>
              {request.isPending ? 'Sending...' : 'Email me a link'}
            </Button>
          </form>
        )}
      </CardContent>
      <CardFooter className="justify-center">
        <Link href="/login" className="text-foreground text-sm font-medium underline underline-offset-4">
          Back to sign in
        </Link>
      </CardFooter>
    </Card>
  );
}
