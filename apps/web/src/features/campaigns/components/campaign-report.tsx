import * as React from 'react';
import {
  Eye,
  Inbox,
  LineChart as LineChartIcon,
  Link2,
  Monitor,
  MousePointerClick,
  Send,
  Smartphone,
  type LucideIcon,
} from 'lucide-react';
import type { CampaignDetail } from '@sendwell/contract/campaigns';

import { Button } from '@/components/ui/button';
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Progress } from '@/components/ui/progress';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { ToggleGroup, ToggleGroupItem } from '@/components/ui/toggle-group';
import { formatNumber, formatPercent } from '@/lib/format';
import { cn } from '@/lib/utils';
import { useCampaignReport } from '../api/use-campaigns';
import { useContactLists, useSegments } from '../api/use-editor-data';
import { CLICK_RATE_BENCHMARK, clickRateLabel, OPEN_RATE_BENCHMARK, openRateLabel, percentOf } from '../campaign-stats';
import { BenchmarkCaption } from './campaign-stat-cards';
import { formatDateTime } from './campaign-table';
import { EmailFrame, PREVIEW_WIDTHS, type PreviewMode } from './email-frame';

// recharts is large; it loads with the chart, only when there is something to draw.
const ReportChart = React.lazy(() => import('./report-chart'));

/**
 * The campaign report: sent, delivered, bounced, unique opens and clicks, unsubscribes, the rates
 * against the spec §9 benchmarks, opens and clicks over time and the most-clicked links (GET
 * /api/campaigns/:id/report), plus who it went to and the email itself (GET /api/campaigns/:id).
 */
export function CampaignReport({ campaign }: { campaign: CampaignDetail }) {
  const lists = useContactLists(true);
  const segments = useSegments(true);
  const going = campaign.status === 'sending' || campaign.status === 'paused';
  const report = useCampaignReport(campaign.id, true, { poll: campaign.status === 'sending' });
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
                ? formatDateTime(campaign.sentAt)
                : campaign.status === 'scheduled' && campaign.scheduledAt
                  ? `Scheduled ${formatDateTime(campaign.scheduledAt)}`
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
              <p className="font-medium">{campaign.status === 'paused' ? 'Paused' : 'Sending now'}</p>
              <p className="text-muted-foreground tabular-nums">
                {formatNumber(campaign.totalSent)} of {formatNumber(campaign.totalRecipients)} sent
              </p>
            </div>
            <Progress value={percentOf(campaign.totalSent, campaign.totalRecipients)} aria-label="Sending progress" />
            {campaign.status === 'paused' && campaign.pausedUntil && (
              <p className="text-muted-foreground text-xs">
                Sending resumes {formatDateTime(campaign.pausedUntil)} (the domain reached its daily warming limit).
              </p>
            )}
          </CardContent>
        </Card>
      )}

      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <Metric
          title="Sent"
          icon={Send}
          value={formatNumber(sent)}
          caption={
            recipients > 0
              ? `of ${formatNumber(recipients)} ${recipients === 1 ? 'recipient' : 'recipients'}`
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

      <div className="grid items-start gap-6 xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        {r && (
          <Card>
            <CardHeader>
              <CardTitle>
                <h2>Opens and clicks over time</h2>
              </CardTitle>
              <CardDescription>Every open and click, counted per hour since sending started.</CardDescription>
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
            <CardDescription>Unique opens and clicks {rateBase} emails, next to typical results.</CardDescription>
          </CardHeader>
          <CardContent className="space-y-6">
            <BenchmarkBar label="Open rate" rate={openRate} benchmark={OPEN_RATE_BENCHMARK} />
            <BenchmarkBar label="Click rate" rate={clickRate} benchmark={CLICK_RATE_BENCHMARK} />
            <dl className="divide-y border-t text-sm">
              <Row label="Click-to-open rate" value={opens > 0 ? formatPercent(percentOf(clicks, opens)) : '—'} />
              {r && <Row label="Unsubscribes" value={formatNumber(r.unsubscribes)} />}
              {r && <Row label="Spam complaints" value={formatNumber(r.complaints)} />}
              {r && <Row label="Bounce rate" value={r.sent > 0 ? formatPercent(percentOf(r.bounced, r.sent)) : '—'} />}
            </dl>
          </CardContent>
        </Card>
      </div>

      <div className="grid items-start gap-6 xl:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        {r && (
          <Card>
            <CardHeader>
              <CardTitle>
                <h2>Most-clicked links</h2>
              </CardTitle>
              <CardDescription>Clicks on each link in the email.</CardDescription>
            </CardHeader>
            <CardContent>
              {r.topLinks.length === 0 ? (
                <EmptyPanel icon={Link2} text="No clicks yet." />
              ) : (
                <Table aria-label="Most-clicked links">
                  <TableHeader>
                    <TableRow>
                      <TableHead>Link</TableHead>
                      <TableHead className="text-right">Clicks</TableHead>
                      <TableHead className="text-right">Unique</TableHead>
                    </TableRow>
                  </TableHeader>
                  <TableBody>
                    {r.topLinks.map((link) => (
                      <TableRow key={link.url}>
                        <TableCell className="max-w-64 truncate" title={link.url}>
                          {link.url}
                        </TableCell>
                        <TableCell className="text-right tabular-nums">{formatNumber(link.clicks)}</TableCell>
                        <TableCell className="text-right tabular-nums">{formatNumber(link.uniqueClicks)}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              )}
            </CardContent>
          </Card>
        )}
        <div className={cn(!r && 'xl:col-span-2')}>
          <EmailContentCard campaign={campaign} />
        </div>
      </div>
    </div>
  );
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex items-baseline justify-between py-2.5">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="font-semibold tabular-nums">{value}</dd>
    </div>
  );
}

function EmptyPanel({ icon: Icon, text }: { icon: LucideIcon; text: string }) {
  return (
    <div className="text-muted-foreground flex flex-col items-center gap-2 rounded-lg border border-dashed px-4 py-10 text-center text-sm">
      <Icon className="size-5" aria-hidden="true" />
      <p>{text}</p>
    </div>
  );
}

function Detail({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0 space-y-1">
      <dt className="text-muted-foreground text-xs font-medium tracking-wide uppercase">{label}</dt>
      <dd className="break-words">{children}</dd>
    </div>
  );
}

function Metric({
  title,
  icon: Icon,
  value,
  caption,
}: {
  title: string;
  icon: LucideIcon;
  value: string;
  caption: React.ReactNode;
}) {
  return (
    <Card className="gap-3">
      <CardHeader className="flex flex-row items-center justify-between">
        <CardTitle className="text-muted-foreground text-sm font-medium">
          <h2>{title}</h2>
        </CardTitle>
        <Icon className="text-muted-foreground size-4" aria-hidden="true" />
      </CardHeader>
      <CardContent className="space-y-1">
        <p className="text-2xl font-bold tracking-tight tabular-nums sm:text-3xl">{value}</p>
        <div className="text-muted-foreground text-xs">{caption}</div>
      </CardContent>
    </Card>
  );
}

/** The campaign's rate as a bar, with the benchmark marked on the same scale. */
function BenchmarkBar({ label, rate, benchmark }: { label: string; rate: number; benchmark: number }) {
  const scale = Math.max(benchmark * 2, rate * 1.15, 1);
  const above = rate > benchmark;
  return (
    <div className="space-y-2">
      <div className="flex items-baseline justify-between text-sm">
        <span className="font-medium">{label}</span>
        <span className="tabular-nums">
          <span className="font-semibold">{formatPercent(rate)}</span>
          <span className="text-muted-foreground"> vs {formatPercent(benchmark, 0)} industry avg</span>
        </span>
      </div>
      <div
        className="bg-muted relative h-3 rounded-full"
        role="img"
        aria-label={`${label} ${formatPercent(rate)}, ${above ? 'above' : rate === benchmark ? 'at' : 'below'} the industry average of ${formatPercent(benchmark, 0)}`}
      >
        <div
          className={cn('h-full rounded-full', above ? 'bg-emerald-500' : 'bg-amber-500')}
          style={{ width: `${Math.min(100, (rate / scale) * 100)}%` }}
        />
        <div
          className="bg-foreground absolute -top-1 h-5 w-0.5 rounded"
          style={{ left: `${(benchmark / scale) * 100}%` }}
        />
      </div>
    </div>
  );
}

/** The email as the server stored it, in the same sandboxed frame as the editor's preview. */
function EmailContentCard({ campaign }: { campaign: CampaignDetail }) {
  const [mode, setMode] = React.useState<PreviewMode>('desktop');
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Email</h2>
        </CardTitle>
        <CardDescription className="break-words">Subject: {campaign.subject}</CardDescription>
        <CardAction>
          <ToggleGroup
            type="single"
            variant="outline"
            size="sm"
            value={mode}
            onValueChange={(next) => next && setMode(next as PreviewMode)}
            aria-label="Preview width"
          >
            <ToggleGroupItem value="desktop" aria-label="Desktop preview">
              <Monitor aria-hidden="true" />
            </ToggleGroupItem>
            <ToggleGroupItem value="mobile" aria-label="Mobile preview">
              <Smartphone aria-hidden="true" />
            </ToggleGroupItem>
          </ToggleGroup>
        </CardAction>
      </CardHeader>
      <CardContent>
        <div className="bg-muted/60 relative h-[560px] overflow-hidden rounded-lg border">
          {campaign.content.html ? (
            <EmailFrame
              html={campaign.content.html}
              width={PREVIEW_WIDTHS[mode]}
              title={`Campaign email (${mode})`}
              mode={mode}
            />
          ) : (
            <p className="text-muted-foreground p-6 text-sm">This campaign has no content.</p>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
