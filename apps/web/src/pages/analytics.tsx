import * as React from 'react';
import { Link } from 'wouter';
import { BarChart3 } from 'lucide-react';
import { REPUTATION_THRESHOLDS, TOP_CAMPAIGN_MIN_SENT } from '@sendwell/contract/analytics';

import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useOverview } from '@/features/analytics/api/use-overview';
import { ChartCard } from '@/features/analytics/components/chart-card';
import { OverviewCards } from '@/features/analytics/components/overview-cards';
import {
  DomainTable,
  ListGrowthTable,
  MailTable,
  ProblemsTable,
  TopCampaignsTable,
  TopLinksTable,
} from '@/features/analytics/components/overview-tables';
import { RangePicker, type RangeChoice } from '@/features/analytics/components/range-picker';
import { presetRange } from '@/features/analytics/overview-range';

const OverviewChart = React.lazy(() => import('@/features/analytics/components/overview-charts'));

function Section({ title, description, children }: { title: string; description: string; children: React.ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <h2 className="leading-none font-semibold">{title}</h2>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

/**
 * /analytics: campaign and sequence mail over a date range (GET /api/analytics/overview): totals,
 * mail and problems per day, list growth, sending domains and their reputation, top campaigns and
 * links. Every figure is the server's, counted from stored events; days are UTC.
 */
export default function AnalyticsPage() {
  const [choice, setChoice] = React.useState<RangeChoice>({ preset: 30 });
  const range = choice.preset === 'custom' ? choice.range : presetRange(choice.preset);
  const overview = useOverview(range);
  const data = overview.data;

  return (
    <div className="space-y-6">
      <PageHeader title="Analytics" description="Insights across all of your campaigns and sequences." />
      {data && !data.hasSentMail ? (
        <EmptyState
          icon={BarChart3}
          title="Nothing sent yet"
          action={
            <Button asChild>
              <Link href="/campaigns">Go to Campaigns</Link>
            </Button>
          }
        >
          Once your campaigns and sequences send mail, this page shows what became of it: deliveries, opens, clicks,
          bounces, complaints and unsubscribes over time, your sending domains’ reputation and your list’s growth.
        </EmptyState>
      ) : (
        <>
          <RangePicker choice={choice} range={range} onChange={setChoice} />
          {overview.isError && (
            <p role="alert" className="text-destructive text-sm">
              {overview.error.message}
            </p>
          )}
          {!data ? (
            <div className="space-y-4" aria-busy="true" aria-label="Loading analytics">
              <Skeleton className="h-28 w-full" />
              <Skeleton className="h-72 w-full" />
            </div>
          ) : (
            <div className="space-y-6" aria-busy={overview.isFetching}>
              <p className="text-muted-foreground text-sm" aria-live="polite">
                {data.from === data.to ? `${data.from} (UTC)` : `${data.from} to ${data.to} (UTC days)`} · mail counted
                on the day it was sent
              </p>
              <OverviewCards totals={data.totals} />
              <ChartCard
                title="Mail over time"
                description="Sent, delivered, opened by a reader (machine opens apart) and clicked, per day"
                chart={<OverviewChart kind="mail" days={data.days} />}
                table={<MailTable days={data.days} />}
              />
              <div className="grid gap-6 xl:grid-cols-2">
                <ChartCard
                  title="Bounces, complaints and unsubscribes"
                  description="Hard bounces, spam complaints and unsubscribes of the mail sent each day"
                  chart={<OverviewChart kind="problems" days={data.days} />}
                  table={<ProblemsTable days={data.days} />}
                />
                <ChartCard
                  title="List growth"
                  description="Contacts added, and lost to unsubscribes, bounces and complaints, per day"
                  chart={<OverviewChart kind="list" days={data.listGrowth} />}
                  table={<ListGrowthTable days={data.listGrowth} />}
                />
              </div>
              <Section
                title="Sending domains"
                description={`Each domain’s mail in this range and its reputation: good with bounces at most ${REPUTATION_THRESHOLDS.good.bounceRate}% and complaints at most ${REPUTATION_THRESHOLDS.good.complaintRate}%, poor past ${REPUTATION_THRESHOLDS.fair.bounceRate}% or ${REPUTATION_THRESHOLDS.fair.complaintRate}%`}
              >
                <DomainTable domains={data.domains} />
              </Section>
              <div className="grid gap-6 xl:grid-cols-2">
                <Section
                  title="Top campaigns"
                  description={`By human open rate, then click rate; campaigns with at least ${TOP_CAMPAIGN_MIN_SENT} emails sent`}
                >
                  <TopCampaignsTable campaigns={data.topCampaigns} minSent={TOP_CAMPAIGN_MIN_SENT} />
                </Section>
                <Section title="Top links" description="By clicks from readers, campaigns and sequences together">
                  <TopLinksTable links={data.topLinks} />
                </Section>
              </div>
            </div>
          )}
        </>
      )}
    </div>
  );
}
