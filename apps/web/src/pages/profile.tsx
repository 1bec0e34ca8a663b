import { PageHeader } from '@/components/page-header';
import { useAuth } from '@/features/auth/api/use-auth';
import { ChangePasswordCard } from '@/features/auth/components/change-password-card';
import { ProfileForm } from '@/features/auth/components/profile-form';

/** /profile: profile details and password change. */
export default function ProfilePage() {
  const { user } = useAuth();
  if (!user) return null;
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <PageHeader title="Profile" description="Manage your personal details and password." />
      <ProfileForm user={user} />
      <ChangePasswordCard />
    </div>
  );
}
