import type { Domain } from '@sendwell/contract/domains';

import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { formatNumber } from '@/lib/format';
import { cn } from '@/lib/utils';
import { complaintStanding, GOOGLE_SPAM_LIMIT, GOOGLE_SPAM_TARGET, type ComplaintStanding } from '../domain-display';

/** The bar's scale runs a little past the 0.3% line, so both lines sit inside it. */
const SCALE_MAX = 0.4;
const LINES = [GOOGLE_SPAM_TARGET, GOOGLE_SPAM_LIMIT] as const;

const TONE_TEXT: Record<ComplaintStanding['tone'], string> = {
  none: 'text-muted-foreground',
  good: 'text-emerald-700 dark:text-emerald-400',
  warn: 'text-amber-700 dark:text-amber-400',
  bad: 'text-red-700 dark:text-red-400',
};
const TONE_BAR: Record<ComplaintStanding['tone'], string> = {
  none: 'bg-muted-foreground',
  good: 'bg-emerald-600 dark:bg-emerald-500',
  warn: 'bg-amber-500',
  bad: 'bg-red-600 dark:bg-red-500',
};

const position = (rate: number) => `${(Math.min(rate, SCALE_MAX) / SCALE_MAX) * 100}%`;

/**
 * The domain's spam rate over the last 7 days against Google's 0.1% and 0.3% lines: the figure,
 * where it stands in words, and a bar with both lines marked. Every figure comes from the domain's
 * own sends and complaints (complaintRate7Days).
 */
export function ComplaintRateCard({ domain }: { domain: Domain }) {
  const { sent, complaints, rate } = domain.complaintRate7Days;
  const standing = complaintStanding(rate);
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h3>Spam Rate · Last 7 Days</h3>
        </CardTitle>
        <CardDescription>
          {rate === null
            ? 'Google asks bulk senders to keep spam complaints under 0.1% and never to reach 0.3%.'
            : `${formatNumber(complaints)} complaint${complaints === 1 ? '' : 's'} from ${formatNumber(sent)} email${sent === 1 ? '' : 's'}. Google asks bulk senders to stay under 0.1% and never to reach 0.3%.`}
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        <div className="flex flex-col gap-1 sm:flex-row sm:items-baseline sm:justify-between">
          <p className="text-2xl font-bold tracking-tight">{rate === null ? 'No sending yet' : `${rate}%`}</p>
          <p className={cn('text-sm font-medium', TONE_TEXT[standing.tone])} data-testid="complaint-standing">
            {standing.text}
          </p>
        </div>
        <div
          role="img"
          aria-label={`Spam rate ${rate === null ? 'not measured' : `${rate}%`}, against Google’s ${GOOGLE_SPAM_TARGET}% and ${GOOGLE_SPAM_LIMIT}% lines`}
          className="bg-muted relative h-3 rounded-full"
        >
          {rate !== null && (
            <div
              className={cn('absolute inset-y-0 left-0 rounded-full', TONE_BAR[standing.tone])}
              style={{ width: rate === 0 ? '0.25rem' : position(rate) }}
            />
          )}
          {LINES.map((line) => (
            <div key={line} className="bg-foreground/70 absolute -inset-y-1 w-0.5" style={{ left: position(line) }} />
          ))}
        </div>
        <div className="text-muted-foreground relative h-4 text-xs" aria-hidden="true">
          {LINES.map((line) => (
            <span key={line} className="absolute -translate-x-1/2" style={{ left: position(line) }}>
              {line}%
            </span>
          ))}
        </div>
      </CardContent>
    </Card>
  );
}
