import * as React from 'react';
import { Link } from 'wouter';
import { Plus } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { PageHeader } from '@/components/page-header';
import { useStats } from '@/features/analytics/api/use-stats';
import { RecordPurchaseDialog } from '@/features/analytics/components/record-purchase-dialog';
import { StatCards } from '@/features/analytics/components/stat-cards';
import { useAuth } from '@/features/auth/api/use-auth';
import { useCampaigns } from '@/features/campaigns/api/use-campaigns';
import { livePollInterval } from '@/features/campaigns/campaign-stats';
import { NEW_CAMPAIGN_HREF, RecentCampaigns } from '@/features/campaigns/components/recent-campaigns';
import { useSenderOverviewForSetup } from '@/features/getting-started/api/use-verified-domains';
import { GettingStarted } from '@/features/getting-started/components/getting-started';
import { setupSteps } from '@/features/getting-started/getting-started-steps';

/**
 * / when signed in: greeting, the getting-started checklist while a new account has steps left,
 * stat cards (recording purchases from the Revenue card) and recent campaigns.
 */
export default function DashboardPage() {
  const { isAuthenticated, user } = useAuth();
  const senders = useSenderOverviewForSetup(isAuthenticated);
  const campaigns = useCampaigns(isAuthenticated);
  // The cards re-read with the list (while a campaign sends or its opens still arrive), so both agree.
  const stats = useStats(isAuthenticated, { refetchInterval: livePollInterval(campaigns.data) });
  const [recordingPurchase, setRecordingPurchase] = React.useState(false);
  // A purchase can be credited only to a campaign that has sent mail (the server checks it too).
  const creditable = React.useMemo(
    () => (campaigns.data ?? []).filter((c) => c.totalSent > 0).map(({ id, name }) => ({ id, name })),
    [campaigns.data],
  );

  const steps = setupSteps({
    verifiedDomains: senders.data?.verifiedDomains.length,
    activeContacts: stats.data?.totalSubscribers,
    postalAddress: user?.postalAddress,
    sentCampaigns: campaigns.data?.filter((c) => c.status === 'sent' || c.status === 'sending').length,
  });

  return (
    <div className="space-y-6">
      <PageHeader
        title="Dashboard"
        description="Welcome back! Here's your campaign overview."
        actions={
          <Button asChild>
            <Link href={NEW_CAMPAIGN_HREF}>
              <Plus aria-hidden="true" />
              New Campaign
            </Link>
          </Button>
        }
      />
      <GettingStarted steps={steps} />
      <StatCards stats={stats.data} isLoading={stats.isLoading} onRecordPurchase={() => setRecordingPurchase(true)} />
      <RecordPurchaseDialog open={recordingPurchase} onOpenChange={setRecordingPurchase} campaigns={creditable} />
      {stats.isError && (
        <p className="text-destructive text-sm" role="alert">
          Could not load your statistics. Please refresh the page.
        </p>
      )}
      <RecentCampaigns campaigns={campaigns.data} isLoading={campaigns.isLoading} />
    </div>
  );
}
