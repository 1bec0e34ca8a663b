import { DollarSign, Eye, MousePointerClick, TrendingUp, Users, type LucideIcon } from 'lucide-react';
import type { StatsResponse } from '@sendwell/contract/analytics';

import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDollars, formatNumber, formatPercent } from '@/lib/format';

interface StatCardDef {
  title: string;
  icon: LucideIcon;
  value: (stats: StatsResponse) => string;
  /** Fixed caption of spec §2 Dashboard: text, not data. */
  caption: string;
  tone: string;
}

const STAT_CARDS: readonly StatCardDef[] = [
  {
    title: 'Total Subscribers',
    icon: Users,
    value: (s) => formatNumber(s.totalSubscribers),
    caption: '12% vs last month',
    tone: 'bg-blue-100 text-blue-700 dark:bg-blue-950 dark:text-blue-300',
  },
  {
    title: 'Open Rate',
    icon: Eye,
    value: (s) => formatPercent(s.avgOpenRate),
    caption: '9.4% above industry avg',
    tone: 'bg-emerald-100 text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300',
  },
  {
    title: 'Click Rate',
    icon: MousePointerClick,
    value: (s) => formatPercent(s.avgClickRate),
    caption: '3.1% vs last month',
    tone: 'bg-amber-100 text-amber-700 dark:bg-amber-950 dark:text-amber-300',
  },
  {
    title: 'Revenue',
    icon: DollarSign,
    value: (s) => formatDollars(s.totalRevenue),
    caption: '18% vs last month',
    tone: 'bg-violet-100 text-violet-700 dark:bg-violet-950 dark:text-violet-300',
  },
];

/** The dashboard's four stat cards. */
export function StatCards({ stats, isLoading }: { stats: StatsResponse | undefined; isLoading: boolean }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
      {STAT_CARDS.map((card) => {
        const Icon = card.icon;
        return (
          <Card key={card.title} className="gap-3">
            <CardHeader className="flex flex-row items-center justify-between">
              <CardTitle className="text-muted-foreground text-sm font-medium">
                <h2>{card.title}</h2>
              </CardTitle>
              <span className={`flex size-9 items-center justify-center rounded-lg ${card.tone}`}>
                <Icon className="size-4" aria-hidden="true" />
              </span>
            </CardHeader>
            <CardContent className="space-y-1">
              {isLoading || !stats ? (
                <Skeleton className="h-8 w-24" />
              ) : (
                <p className="text-2xl font-bold tracking-tight sm:text-3xl">{card.value(stats)}</p>
              )}
              <p className="text-muted-foreground flex items-center gap-1 text-xs">
                <TrendingUp className="size-3.5 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
                {card.caption}
              </p>
            </CardContent>
          </Card>
        );
      })}
    </div>
  );
}
