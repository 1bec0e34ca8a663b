import { Settings } from 'lucide-react';

import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';

/** /settings: a placeholder until account settings exist (spec §2). */
export default function SettingsPage() {
  return (
    <div className="space-y-6">
      <PageHeader title="Settings" description="Manage your account settings." />
      <EmptyState icon={Settings} title="Coming soon">
        Account settings are coming soon. You can already edit your profile and password from the avatar menu.
      </EmptyState>
    </div>
  );
}
