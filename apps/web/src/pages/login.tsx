import { AuthPageLayout } from '@/features/auth/components/auth-page-layout';
import { LoginForm } from '@/features/auth/components/login-form';

/** /login */
export default function LoginPage() {
  return (
    <AuthPageLayout>
      <LoginForm />
    </AuthPageLayout>
  );
}
