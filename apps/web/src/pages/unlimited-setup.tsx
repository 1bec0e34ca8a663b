import * as React from 'react';

import { AuthPageLayout } from '@/features/auth/components/auth-page-layout';
import { UnlimitedActivatedCard } from '@/features/auth/components/unlimited-activated-card';
import { UnlimitedSetupCard } from '@/features/auth/components/unlimited-setup-card';

/** /unlimited-setup: the activation form, then the success card. */
export default function UnlimitedSetupPage() {
  const [activated, setActivated] = React.useState(false);
  return (
    <AuthPageLayout>
      {activated ? <UnlimitedActivatedCard /> : <UnlimitedSetupCard onActivated={() => setActivated(true)} />}
    </AuthPageLayout>
  );
}
