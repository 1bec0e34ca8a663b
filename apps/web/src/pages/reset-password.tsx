import { useSearch } from 'wouter';

import { AuthPageLayout } from '@/features/auth/components/auth-page-layout';
import { ResetPasswordForm } from '@/features/auth/components/reset-password-form';

/** /reset-password?token=… (the link the Forgot password mail carries) */
export default function ResetPasswordPage() {
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  return (
    <AuthPageLayout>
      <ResetPasswordForm token={token} />
    </AuthPageLayout>
  );
}
