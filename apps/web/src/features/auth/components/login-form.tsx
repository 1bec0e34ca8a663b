import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'wouter';
import { loginBodySchema, type LoginBody } from '@sendwell/contract/auth';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toastError } from '@/lib/toast-error';
import { returnPathAfterSignIn } from '@/lib/unauthorized';
import { toast } from '@/lib/use-toast';
import { useLogin } from '../api/use-auth-mutations';
import { FieldError } from './field-error';

/** 'Welcome Back' sign-in card (spec §2 Login); success is a full navigation to /. */
export function LoginForm() {
  const login = useLogin();
  const form = useForm({
    resolver: zodResolver(loginBodySchema),
    defaultValues: { email: '', password: '' } satisfies LoginBody,
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async (body) => {
    try {
      await login.mutateAsync(body);
    } catch (err) {
      toastError(err, 'Invalid credentials', { title: 'Login Failed' });
      return;
    }
    toast({ title: 'Login Successful', description: 'Taking you to your dashboard...' });
    // On to the link that asked for the sign-in, or back to the page the session ended on (a full navigation).
    window.location.href = returnPathAfterSignIn();
  });

  const pending = login.isPending || form.formState.isSubmitting;

  return (
    <Card className="shadow-lg">
      <CardHeader className="text-center">
        <h1 className="text-2xl font-bold tracking-tight">Welcome Back</h1>
        <CardDescription>Sign in to your Sendwell account</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          <div className="space-y-2">
            <Label htmlFor="login-email">Email</Label>
            <Input
              id="login-email"
              type="email"
              autoComplete="email"
              placeholder="you@company.com"
              required
              aria-invalid={errors.email ? true : undefined}
              aria-describedby={errors.email ? 'login-email-error' : undefined}
              {...form.register('email')}
            />
            <FieldError id="login-email-error" message={errors.email?.message} />
          </div>
          <div className="space-y-2">
            <div className="flex items-center justify-between gap-2">
              <Label htmlFor="login-password">Password</Label>
              <Link
                href="/forgot-password"
                className="text-muted-foreground text-sm underline-offset-4 hover:underline"
              >
                Forgot password?
              </Link>
            </div>
            <Input
              id="login-password"
              type="password"
              autoComplete="current-password"
              required
              aria-invalid={errors.password ? true : undefined}
              aria-describedby={errors.password ? 'login-password-error' : undefined}
              {...form.register('password')}
            />
            <FieldError id="login-password-error" message={errors.password?.message} />
          </div>
          <Button type="submit" className="w-full" disabled={pending}>
            {pending ? 'Signing in...' : 'Sign In'}
          </Button>
        </form>
      </CardContent>
      <CardFooter className="justify-center">
        <p className="text-muted-foreground text-sm">
          Don't have an account?{' '}
          <Link href="/signup" className="text-foreground font-medium underline underline-offset-4">
            Sign up for free trial
          </Link>
        </p>
      </CardFooter>
    </Card>
  );
}
