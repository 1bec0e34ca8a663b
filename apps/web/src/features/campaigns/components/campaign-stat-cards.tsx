import type * as React from 'react';
import { Eye, Mail, MousePointerClick, Users, type LucideIcon } from 'lucide-react';
import type { CampaignListItem } from '@sendwell/contract/campaigns';

import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatNumber, formatPercent } from '@/lib/format';
import {
  averageRates,
  campaignTotals,
  CLICK_RATE_BENCHMARK,
  clickRateLabel,
  OPEN_RATE_BENCHMARK,
  openRateLabel,
} from '../campaign-stats';

/** The Campaigns page's four stat cards (spec §2), computed from the list. */
export function CampaignStatCards({
  campaigns,
  isLoading,
}: {
  campaigns: readonly CampaignListItem[] | undefined;
  isLoading: boolean;
}) {
  const list = campaigns ?? [];
  const totals = campaignTotals(list);
  const rates = averageRates(list);
  const noneSent = rates.sentCampaigns === 0;

  return (
    // Two per row from phone width up (first-hour finding 8: one per row made the figures a long scroll).
    <div className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
      <StatCard
        title="Total Campaigns"
        icon={Mail}
        tone="bg-blue-100 text-blue-700 dark:bg-blue-950 dark:text-blue-300"
        loading={isLoading}
        value={formatNumber(totals.total)}
        caption={`${formatNumber(totals.sent)} sent · ${formatNumber(totals.draft)} ${totals.draft === 1 ? 'draft' : 'drafts'}`}
      />
      <StatCard
        title="Total Reach"
        icon={Users}
        tone="bg-violet-100 text-violet-700 dark:bg-violet-950 dark:text-violet-300"
        loading={isLoading}
        value={formatNumber(totals.reach)}
        caption={`${formatNumber(totals.scheduled)} scheduled`}
      />
      <StatCard
        title="Avg. Open Rate"
        icon={Eye}
        tone="bg-emerald-100 text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300"
        loading={isLoading}
        value={noneSent ? '—' : formatPercent(rates.openRate)}
        caption={
          noneSent ? (
            'No sent campaigns yet'
          ) : (
            <span className="flex flex-col gap-1">
              <BenchmarkCaption label={openRateLabel(rates.openRate)} benchmark={OPEN_RATE_BENCHMARK} />
              <span>Human and click-implied · {formatPercent(rates.machineOpenRate)} machine not counted</span>
            </span>
          )
        }
      />
      <StatCard
        title="Avg. Click Rate"
        icon={MousePointerClick}
        tone="bg-amber-100 text-amber-700 dark:bg-amber-950 dark:text-amber-300"
        loading={isLoading}
        value={noneSent ? '—' : formatPercent(rates.clickRate)}
        caption={
          noneSent ? (
            'No sent campaigns yet'
          ) : (
            <span className="flex flex-col gap-1">
              <BenchmarkCaption label={clickRateLabel(rates.clickRate)} benchmark={CLICK_RATE_BENCHMARK} />
              <span>Human clicks · link scanners not counted</span>
            </span>
          )
        }
      />
    </div>
  );
}

/** 'Above industry avg' / 'Above' as a badge when the rate beats the benchmark, and the benchmark itself. */
export function BenchmarkCaption({ label, benchmark }: { label: string | null; benchmark: number }) {
  return (
    <span className="flex flex-wrap items-center gap-1.5">
      {label && (
        <Badge
          variant="outline"
          className="border-transparent bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200"
        >
          {label}
        </Badge>
      )}
      <span>Industry avg {formatPercent(benchmark, 0)}</span>
    </span>
  );
}

function StatCard({
  title,
  icon: Icon,
  tone,
  loading,
  value,
  caption,
}: {
  title: string;
  icon: LucideIcon;
  tone: string;
  loading: boolean;
  value: string;
  caption: React.ReactNode;
}) {
  return (
    <Card className="gap-2 py-4 sm:gap-3 sm:py-6">
      <CardHeader className="flex flex-row items-start justify-between gap-2 px-4 sm:items-center sm:px-6">
        <CardTitle className="text-muted-foreground text-sm font-medium">
          <h2>{title}</h2>
        </CardTitle>
        <span className={`flex size-8 shrink-0 items-center justify-center rounded-lg sm:size-9 ${tone}`}>
          <Icon className="size-4" aria-hidden="true" />
        </span>
      </CardHeader>
      <CardContent className="space-y-1 px-4 sm:px-6">
        {loading ? (
          <Skeleton className="h-8 w-24" />
        ) : (
          <p className="text-2xl font-bold tracking-tight sm:text-3xl">{value}</p>
        )}
        <div className="text-muted-foreground text-xs">{loading ? <Skeleton className="h-3 w-28" /> : caption}</div>
      </CardContent>
    </Card>
  );
}
