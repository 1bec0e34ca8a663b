import { Link, useRoute } from 'wouter';
import { ArrowLeft, FileQuestion } from 'lucide-react';

import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { useAuth } from '@/features/auth/api/use-auth';
import { useCampaign } from '@/features/campaigns/api/use-campaigns';
import { CampaignReport } from '@/features/campaigns/components/campaign-report';
import { CampaignStatusBadge } from '@/features/campaigns/components/campaign-status-badge';
import {
  CancelCampaignDialog,
  SendControlButtons,
  useSendControls,
} from '@/features/campaigns/components/send-controls';
import { getApiErrorStatus } from '@/lib/api';

/**
 * /campaigns/:id/report: View Report from the campaigns list, with Pause / Resume / Cancel while it
 * goes out. Refreshes every 3 s while the campaign is sending; a control's answer shows at once.
 */
export default function CampaignReportPage() {
  const [, params] = useRoute('/campaigns/:id/report');
  const id = Number(params?.id);
  const validId = Number.isInteger(id) && id > 0 ? id : null;
  const { user, isAuthenticated } = useAuth();
  const campaign = useCampaign(validId, isAuthenticated, { pollWhileSending: true });
  const notFound = validId === null || getApiErrorStatus(campaign.error) === 404;
  const controls = useSendControls();

  return (
    <div className="space-y-6">
      <Button variant="ghost" size="sm" asChild className="-ml-2">
        <Link href="/campaigns">
          <ArrowLeft aria-hidden="true" />
          All campaigns
        </Link>
      </Button>
      {notFound ? (
        <EmptyState icon={FileQuestion} title="Campaign not found">
          This campaign does not exist or belongs to another account.
        </EmptyState>
      ) : campaign.isError ? (
        <p className="text-destructive text-sm" role="alert">
          Could not load this report. Please refresh the page.
        </p>
      ) : !campaign.data ? (
        <div className="space-y-6" aria-busy="true" aria-label="Loading the report">
          <Skeleton className="h-9 w-1/3" />
          <Skeleton className="h-24 w-full" />
          <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
            {Array.from({ length: 4 }, (_, i) => (
              <Skeleton key={i} className="h-32" />
            ))}
          </div>
        </div>
      ) : (
        <>
          <PageHeader
            title={campaign.data.name}
            description={<span className="break-words">Campaign report · {campaign.data.subject}</span>}
            actions={
              <div className="flex flex-wrap items-center gap-3">
                <CampaignStatusBadge status={campaign.data.status} />
                <SendControlButtons campaign={campaign.data} controls={controls} />
              </div>
            }
          />
          <CampaignReport campaign={campaign.data} accountTimeZone={user?.timeZone ?? 'UTC'} />
          <CancelCampaignDialog controls={controls} />
        </>
      )}
    </div>
  );
}
