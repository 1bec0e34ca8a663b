import {
  DollarSign,
  Eye,
  Minus,
  MousePointerClick,
  Plus,
  TrendingDown,
  TrendingUp,
  Users,
  type LucideIcon,
} from 'lucide-react';
import type { StatsResponse } from '@sendwell/contract/analytics';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDollars, formatNumber, formatPercent } from '@/lib/format';
import {
  clickRateCaption,
  openRateCaption,
  revenueCaption,
  subscribersCaption,
  type CaptionDirection,
  type StatCaption,
} from '../stat-captions';

interface StatCardDef {
  title: string;
  icon: LucideIcon;
  value: (stats: StatsResponse) => string;
  /** The trend under the figure, computed from stored data (spec §2's fixed captions, made real). */
  caption: (stats: StatsResponse) => StatCaption;
  /** What the rate counts, and what it leaves out (issue 31: every rate says which opens it counts). */
  basis?: (stats: StatsResponse) => string;
  tone: string;
}

const STAT_CARDS: readonly StatCardDef[] = [
  {
    title: 'Total Subscribers',
    icon: Users,
    value: (s) => formatNumber(s.totalSubscribers),
    caption: (s) => subscribersCaption(s.trends.subscribers),
    tone: 'bg-blue-100 text-blue-700 dark:bg-blue-950 dark:text-blue-300',
  },
  {
    title: 'Open Rate',
    icon: Eye,
    value: (s) => formatPercent(s.avgOpenRate),
    caption: (s) => openRateCaption(s.trends.openRateVsIndustry),
    basis: (s) => `Human and click-implied opens · ${formatPercent(s.avgMachineOpenRate)} machine not counted`,
    tone: 'bg-emerald-100 text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300',
  },
  {
    title: 'Click Rate',
    icon: MousePointerClick,
    value: (s) => formatPercent(s.avgClickRate),
    caption: (s) => clickRateCaption(s.trends.clickRate, s.trends.openRateVsIndustry !== null),
    basis: () => 'Human clicks · link scanners not counted',
    tone: 'bg-amber-100 text-amber-700 dark:bg-amber-950 dark:text-amber-300',
  },
  {
    title: 'Revenue',
    icon: DollarSign,
    value: (s) => formatDollars(s.totalRevenue),
    caption: (s) => revenueCaption(s.trends.revenue),
    tone: 'bg-violet-100 text-violet-700 dark:bg-violet-950 dark:text-violet-300',
  },
];

const DIRECTION_ICON: Record<CaptionDirection, { icon: LucideIcon; className: string }> = {
  up: { icon: TrendingUp, className: 'text-emerald-600 dark:text-emerald-400' },
  down: { icon: TrendingDown, className: 'text-rose-600 dark:text-rose-400' },
  flat: { icon: Minus, className: 'text-muted-foreground' },
  none: { icon: Minus, className: 'text-muted-foreground' },
};

/** The dashboard's four stat cards; the Revenue card offers to record a purchase. */
export function StatCards({
  stats,
  isLoading,
  onRecordPurchase,
}: {
  stats: StatsResponse | undefined;
  isLoading: boolean;
  onRecordPurchase?: () => void;
}) {
  return (
    // Two per row from phone width up (first-hour finding 8: one per row made the figures a long scroll).
    <div className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
      {STAT_CARDS.map((card) => {
        const Icon = card.icon;
        const caption = stats && !isLoading ? card.caption(stats) : null;
        const Trend = caption ? DIRECTION_ICON[caption.direction] : null;
        return (
          <Card key={card.title} className="gap-2 py-4 sm:gap-3 sm:py-6">
            <CardHeader className="flex flex-row items-start justify-between gap-2 px-4 sm:items-center sm:px-6">
              <CardTitle className="text-muted-foreground text-sm font-medium">
                <h2>{card.title}</h2>
              </CardTitle>
              <span className={`flex size-8 shrink-0 items-center justify-center rounded-lg sm:size-9 ${card.tone}`}>
                <Icon className="size-4" aria-hidden="true" />
              </span>
            </CardHeader>
            <CardContent className="space-y-1 px-4 sm:px-6">
              {caption && stats ? (
                <>
                  <p className="text-2xl font-bold tracking-tight sm:text-3xl">{card.value(stats)}</p>
                  <p className="text-muted-foreground flex items-start gap-1 text-xs" data-testid="stat-caption">
                    {Trend && (
                      <Trend.icon className={`mt-px size-3.5 shrink-0 ${Trend.className}`} aria-hidden="true" />
                    )}
                    {caption.text}
                  </p>
                  {card.basis && (
                    <p className="text-muted-foreground text-xs" data-testid="rate-basis">
                      {card.basis(stats)}
                    </p>
                  )}
                </>
              ) : (
                <>
                  <Skeleton className="h-8 w-24" />
                  <Skeleton className="h-3 w-32" />
                </>
              )}
              {card.title === 'Revenue' && onRecordPurchase && (
                // Half a phone's width is narrower than the label on one line, so it may wrap inside the card.
                <Button
                  type="button"
                  variant="outline"
                  size="sm"
                  className="mt-2 h-auto min-h-8 w-full max-w-max py-1.5 whitespace-normal"
                  onClick={onRecordPurchase}
                >
                  <Plus aria-hidden="true" />
                  Record a purchase
                </Button>
              )}
            </CardContent>
          </Card>
        );
      })}
    </div>
  );
}
