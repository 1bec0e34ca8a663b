import * as React from 'react';
import { Eye, Inbox, LineChart as LineChartIcon, MousePointerClick, Send } from 'lucide-react';
import type { CampaignDetail } from '@sendwell/contract/campaigns';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Progress } from '@/components/ui/progress';
import { Skeleton } from '@/components/ui/skeleton';
import { formatNumber, formatPercent } from '@/lib/format';
import { cn } from '@/lib/utils';
import { useCampaignReport } from '../api/use-campaigns';
import { useContactLists, useSegments } from '../api/use-editor-data';
import {
  CLICK_RATE_BENCHMARK,
  clickRateLabel,
  livePollInterval,
  OPEN_RATE_BENCHMARK,
  openRateLabel,
  percentOf,
} from '../campaign-stats';
import { BenchmarkCaption } from './campaign-stat-cards';
import { formatDateTime } from './campaign-table';
import { ActivityCard } from './report-activity-card';
import { EmailContentCard } from './report-email-card';
import { BouncesByReasonCard } from './report-bounces-card';
import { TopLinksCard } from './report-top-links-card';
import { BenchmarkBar, Detail, EmptyPanel, Metric, Row } from './report-widgets';

// recharts is large; it loads with the chart, only when there is something to draw.
const ReportChart = React.lazy(() => import('./report-chart'));

/**
 * The campaign report: sent, delivered, bounced, unique opens and clicks, unsubscribes, the rates
 * against the spec §9 benchmarks, opens and clicks over time and the most-clicked links (GET
 * /api/campaigns/:id/report), plus who it went to and the email itself (GET /api/campaigns/:id).
 */
export function CampaignReport({
  campaign,
  accountTimeZone,
}: {
  campaign: CampaignDetail;
  /** The account's time zone: times show in it unless the campaign chose its own (the zone is named beside them). */
  accountTimeZone: string;
}) {
  const zone = campaign.timeZone ?? accountTimeZone;
  const lists = useContactLists(true);
  const segments = useSegments(true);
  const going = campaign.status === 'sending' || campaign.status === 'paused';
  // Still sending, but the domain's warming limit holds the rest until pausedUntil.
  const held = campaign.status === 'sending' && campaign.pausedUntil !== null;
  // Progress while it sends, then opens and clicks as they arrive, without a reload.
  const report = useCampaignReport(campaign.id, true, { poll: livePollInterval([campaign]) });
  const r = report.data;
  const listNames = campaign.listIds.map(
    (id) => lists.data?.find((list) => list.id === id)?.name ?? (lists.isLoading ? '…' : 'A deleted list'),
  );
  const segmentNames = campaign.segmentIds.map(
    (id) =>
      segments.data?.find((segment) => segment.id === id)?.name ?? (segments.isLoading ? '…' : 'A deleted segment'),
  );
  // The report counts rates over delivered mail; without it, the list's figures (over sent mail) are shown.
  const opens = r?.uniqueOpens ?? campaign.totalOpens;
  const clicks = r?.uniqueClicks ?? campaign.totalClicks;
  const openRate = r?.openRate ?? campaign.openRate;
  const clickRate = r?.clickRate ?? campaign.clickRate;
  // Apple Mail Privacy Protection's and other pre-fetchers' opens: beside the rate, never in it.
  const machineOpens = r?.machineOpens ?? campaign.machineOpens;
  const machineOpenRate = r?.machineOpenRate ?? campaign.machineOpenRate;
  const sent = r?.sent ?? campaign.totalSent;
  const recipients = r?.recipients ?? campaign.totalRecipients;
  const rateBase = r ? 'of delivered' : 'of sent';

  return (
    <div className="space-y-6">
      <Card>
        <CardContent>
          <dl className="grid gap-4 text-sm sm:grid-cols-2 lg:grid-cols-4">
            <Detail label="Sent">
              {campaign.sentAt
                ? formatDateTime(campaign.sentAt, zone)
                : campaign.status === 'scheduled' && campaign.scheduledAt
                  ? `Scheduled ${formatDateTime(campaign.scheduledAt, zone)}`
                  : campaign.status === 'canceled'
                    ? 'Canceled before it finished'
                    : going
                      ? 'Not finished yet'
                      : 'Not sent yet'}
            </Detail>
            <Detail label="From">
              {campaign.fromName ? `${campaign.fromName} <${campaign.fromEmail}>` : campaign.fromEmail}
            </Detail>
            <Detail label="Reply-to">{campaign.replyTo ?? 'Same as sender'}</Detail>
            <Detail label="Audience">
              {listNames.length + segmentNames.length > 0
                ? [...listNames, ...segmentNames.map((name) => `${name} (segment)`)].join(', ')
                : 'No lists or segments'}
            </Detail>
          </dl>
        </CardContent>
      </Card>

      {going && (
        <Card>
          <CardContent className="space-y-2">
            <div className="flex items-center justify-between text-sm">
              <p className="font-medium" role="status">
                {campaign.status === 'paused' ? 'Paused' : held ? 'Waiting for the warming limit' : 'Sending now'}
              </p>
              <p className="text-muted-foreground tabular-nums">
                {formatNumber(campaign.totalSent)} of {formatNumber(campaign.totalRecipients)} sent
              </p>
            </div>
            <Progress value={percentOf(campaign.totalSent, campaign.totalRecipients)} aria-label="Sending progress" />
            {campaign.status === 'paused' && (
              <p className="text-muted-foreground text-xs">
                Nothing more goes out until you resume it; recipients who have it already will not get it twice.
              </p>
            )}
            {held && campaign.pausedUntil && (
              <p className="text-muted-foreground text-xs">
                Sending resumes {formatDateTime(campaign.pausedUntil, zone)} (the domain reached its daily warming
                limit).
              </p>
            )}
          </CardContent>
        </Card>
      )}

      <div className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
        <Metric
          title="Sent"
          icon={Send}
          value={formatNumber(sent)}
          caption={
            recipients > 0
              ? `of ${formatNumber(recipients)} ${recipients === 1 ? 'recipient' : 'recipients'}`
              : campaign.status === 'scheduled' && campaign.audienceNow !== null
                ? `Will reach ${formatNumber(campaign.audienceNow)} ${campaign.audienceNow === 1 ? 'recipient' : 'recipients'} as its lists stand now`
                : 'Nothing sent yet'
          }
        />
        <Metric
          title="Delivered"
          icon={Inbox}
          value={r ? formatNumber(r.delivered) : '—'}
          caption={
            r
              ? `${formatNumber(r.bounced)} bounced · ${formatNumber(r.failed)} failed`
              : report.isLoading
                ? 'Loading…'
                : 'Not available'
          }
        />
        <Metric
          title="Unique Opens"
          icon={Eye}
          value={formatNumber(opens)}
          caption={
            <span className="flex flex-wrap items-center gap-1.5">
              <span className="text-foreground font-medium">
                {formatPercent(openRate)} {rateBase}
              </span>
              <BenchmarkCaption label={openRateLabel(openRate)} benchmark={OPEN_RATE_BENCHMARK} />
              <span className="basis-full" data-testid="open-rate-basis">
                Human and click-implied opens · {formatNumber(machineOpens)} machine ({formatPercent(machineOpenRate)})
                not counted
              </span>
            </span>
          }
        />
        <Metric
          title="Unique Clicks"
          icon={MousePointerClick}
          value={formatNumber(clicks)}
          caption={
            <span className="flex flex-wrap items-center gap-1.5">
              <span className="text-foreground font-medium">
                {formatPercent(clickRate)} {rateBase}
              </span>
              <BenchmarkCaption label={clickRateLabel(clickRate)} benchmark={CLICK_RATE_BENCHMARK} />
              <span className="basis-full" data-testid="click-rate-basis">
                Human clicks{r ? ` · ${formatNumber(r.botClicks)} by link scanners not counted` : ''}
              </span>
            </span>
          }
        />
      </div>

      {report.isError && (
        <Card>
          <CardContent className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
            <p className="text-muted-foreground text-sm">
              Delivery details (bounces, unsubscribes, opens over time and top links) could not be loaded. The figures
              above come from the campaign itself.
            </p>
            <Button variant="outline" size="sm" onClick={() => void report.refetch()}>
              Retry
            </Button>
          </CardContent>
        </Card>
      )}

      <div className="grid grid-cols-[minmax(0,1fr)] items-start gap-6 xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        {r && (
          <Card>
            <CardHeader>
              <CardTitle>
                <h2>Opens and clicks over time</h2>
              </CardTitle>
              <CardDescription>
                Human opens and clicks per hour since sending started (machine opens and scanner clicks left out).
              </CardDescription>
            </CardHeader>
            <CardContent>
              {r.timeline.length === 0 ? (
                <EmptyPanel
                  icon={LineChartIcon}
                  text="No opens or clicks yet. They appear here as recipients read the email."
                />
              ) : (
                <React.Suspense fallback={<Skeleton className="h-64 w-full" />}>
                  <ReportChart timeline={r.timeline} />
                </React.Suspense>
              )}
            </CardContent>
          </Card>
        )}
        <Card className={cn(!r && 'xl:col-span-2')}>
          <CardHeader>
            <CardTitle>
              <h2>Against the industry</h2>
            </CardTitle>
            <CardDescription>
              Human and click-implied opens and human clicks {rateBase} emails, next to typical results.
            </CardDescription>
          </CardHeader>
          <CardContent className="space-y-6">
            <BenchmarkBar label="Open rate" rate={openRate} benchmark={OPEN_RATE_BENCHMARK} />
            <BenchmarkBar label="Click rate" rate={clickRate} benchmark={CLICK_RATE_BENCHMARK} />
            <dl className="divide-y border-t text-sm">
              {/* A click is an open, so this never exceeds 100%. */}
              <Row
                label="Click-to-open rate"
                value={opens > 0 ? formatPercent(r?.clickToOpenRate ?? percentOf(clicks, opens)) : '—'}
              />
              <Row label="Machine opens (not counted)" value={formatNumber(machineOpens)} />
              {r && <Row label="Scanner clicks (not counted)" value={formatNumber(r.botClicks)} />}
              {r && <Row label="Unsubscribes" value={formatNumber(r.unsubscribes)} />}
              {r && <Row label="Spam complaints" value={formatNumber(r.complaints)} />}
              {r && <Row label="Bounce rate" value={r.sent > 0 ? formatPercent(percentOf(r.bounced, r.sent)) : '—'} />}
            </dl>
          </CardContent>
        </Card>
      </div>

      {r && r.sent > 0 && <ActivityCard campaignId={campaign.id} />}

      <div className="grid grid-cols-[minmax(0,1fr)] items-start gap-6 xl:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        {r && (
          <div className="min-w-0 space-y-6">
            <TopLinksCard links={r.topLinks} />
            <BouncesByReasonCard bounces={r.bouncesByReason} />
          </div>
        )}
        <div className={cn(!r && 'xl:col-span-2')}>
          <EmailContentCard campaign={campaign} />
        </div>
      </div>
    </div>
  );
}
