import { AuthPageLayout } from '@/features/auth/components/auth-page-layout';
import { ForgotPasswordForm } from '@/features/auth/components/forgot-password-form';

/** /forgot-password */
export default function ForgotPasswordPage() {
  return (
    <AuthPageLayout>
      <ForgotPasswordForm />
    </AuthPageLayout>
  );
}
