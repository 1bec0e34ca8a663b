import { Link } from 'wouter';
import { CalendarClock, FileText, Mail, Plus, Send } from 'lucide-react';
import type { CampaignListItem } from '@sendwell/contract/campaigns';

import { Button } from '@/components/ui/button';
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatNumber, formatPercent } from '@/lib/format';
import { cn } from '@/lib/utils';
import { CampaignStatusBadge } from './campaign-status-badge';

/** At most this many campaigns on the dashboard (spec §9). */
const RECENT_CAMPAIGNS_LIMIT = 5;
/** Skeleton rows while loading (spec §9). */
const SKELETON_ROWS = 3;

/** Link that opens the new-campaign editor on the campaigns page. */
export const NEW_CAMPAIGN_HREF = '/campaigns?new=1';

/** The text under a campaign's name (spec §2 Dashboard). */
function campaignSummary(campaign: CampaignListItem): string {
  if (campaign.status === 'sent') return `Sent to ${formatNumber(campaign.totalSent)} subscribers`;
  if (campaign.status === 'scheduled') return 'Scheduled for delivery';
  return 'Draft campaign';
}

/** Recent Campaigns card: the first five campaigns, skeleton rows while loading, or the empty state. */
export function RecentCampaigns({
  campaigns,
  isLoading,
}: {
  campaigns: readonly CampaignListItem[] | undefined;
  isLoading: boolean;
}) {
  const recent = (campaigns ?? []).slice(0, RECENT_CAMPAIGNS_LIMIT);

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="text-lg">Recent Campaigns</h2>
        </CardTitle>
        <CardDescription>Your latest email campaigns</CardDescription>
        {recent.length > 0 && (
          <CardAction>
            <Button asChild variant="outline" size="sm">
              <Link href="/campaigns">View all</Link>
            </Button>
          </CardAction>
        )}
      </CardHeader>
      <CardContent>
        {isLoading ? (
          <ul className="space-y-3" aria-busy="true" aria-label="Loading campaigns">
            {Array.from({ length: SKELETON_ROWS }, (_, i) => (
              <li key={i} className="flex items-center gap-4 rounded-lg border p-4">
                <Skeleton className="size-10 rounded-lg" />
                <div className="flex-1 space-y-2">
                  <Skeleton className="h-4 w-1/3" />
                  <Skeleton className="h-3 w-1/2" />
                </div>
                <Skeleton className="h-5 w-16" />
              </li>
            ))}
          </ul>
        ) : recent.length === 0 ? (
          <div className="flex flex-col items-center gap-3 py-10 text-center">
            <span className="bg-muted flex size-12 items-center justify-center rounded-full">
              <Mail className="size-6" aria-hidden="true" />
            </span>
            <h3 className="text-lg font-semibold">No campaigns yet</h3>
            <p className="text-muted-foreground max-w-sm text-sm">
              Create your first email campaign to get started with Sendwell
            </p>
            <Button asChild className="mt-2">
              <Link href={NEW_CAMPAIGN_HREF}>
                <Plus aria-hidden="true" />
                Create Campaign
              </Link>
            </Button>
          </div>
        ) : (
          <ul className="space-y-3">
            {recent.map((campaign) => (
              <CampaignRow key={campaign.id} campaign={campaign} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function CampaignRow({ campaign }: { campaign: CampaignListItem }) {
  const sent = campaign.status === 'sent';
  const scheduled = campaign.status === 'scheduled';
  const Icon = sent ? Send : scheduled ? CalendarClock : FileText;
  return (
    <li className="hover:bg-muted/50 flex flex-col gap-3 rounded-lg border p-4 transition-colors sm:flex-row sm:items-center">
      <div className="flex min-w-0 flex-1 items-center gap-4">
        <span
          className={cn(
            'flex size-10 shrink-0 items-center justify-center rounded-lg',
            sent
              ? 'bg-emerald-100 text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300'
              : 'bg-muted text-muted-foreground',
          )}
        >
          <Icon className="size-5" aria-hidden="true" />
        </span>
        <div className="min-w-0">
          <p className="truncate font-medium">{campaign.name}</p>
          <p className={cn('text-sm', sent ? 'text-foreground/80' : 'text-muted-foreground')}>
            {campaignSummary(campaign)}
          </p>
        </div>
      </div>
      <div className="flex items-center gap-4 sm:justify-end">
        {sent && (
          <dl className="flex gap-4 text-sm">
            <div>
              <dt className="text-muted-foreground text-xs">Open rate</dt>
              <dd className="font-semibold">{formatPercent(campaign.openRate)}</dd>
            </div>
            <div>
              <dt className="text-muted-foreground text-xs">Click rate</dt>
              <dd className="font-semibold">{formatPercent(campaign.clickRate)}</dd>
            </div>
          </dl>
        )}
        <CampaignStatusBadge status={campaign.status} />
      </div>
    </li>
  );
}
