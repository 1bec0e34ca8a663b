import type * as React from 'react';
import type { LucideIcon } from 'lucide-react';

import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { formatPercent } from '@/lib/format';
import { cn } from '@/lib/utils';

/** One figure in a definition list: its label, then its value. */
export function Row({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex items-baseline justify-between py-2.5">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="font-semibold tabular-nums">{value}</dd>
    </div>
  );
}

/** A dashed placeholder inside a card that has nothing to show yet. */
export function EmptyPanel({ icon: Icon, text }: { icon: LucideIcon; text: string }) {
  return (
    <div className="text-muted-foreground flex flex-col items-center gap-2 rounded-lg border border-dashed px-4 py-10 text-center text-sm">
      <Icon className="size-5" aria-hidden="true" />
      <p>{text}</p>
    </div>
  );
}

/** One campaign detail (sent, from, reply-to, audience) in the summary card. */
export function Detail({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0 space-y-1">
      <dt className="text-muted-foreground text-xs font-medium tracking-wide uppercase">{label}</dt>
      <dd className="break-words">{children}</dd>
    </div>
  );
}

/** A headline figure card: title and icon, the value, a caption below. */
export function Metric({
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
    <Card className="gap-2 py-4 sm:gap-3 sm:py-6">
      <CardHeader className="flex flex-row items-center justify-between gap-2 px-4 sm:px-6">
        <CardTitle className="text-muted-foreground text-sm font-medium">
          <h2>{title}</h2>
        </CardTitle>
        <Icon className="text-muted-foreground size-4 shrink-0" aria-hidden="true" />
      </CardHeader>
      <CardContent className="space-y-1 px-4 sm:px-6">
        <p className="text-2xl font-bold tracking-tight tabular-nums sm:text-3xl">{value}</p>
        <div className="text-muted-foreground text-xs">{caption}</div>
      </CardContent>
    </Card>
  );
}

/** The campaign's rate as a bar, with the benchmark marked on the same scale. */
export function BenchmarkBar({ label, rate, benchmark }: { label: string; rate: number; benchmark: number }) {
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
