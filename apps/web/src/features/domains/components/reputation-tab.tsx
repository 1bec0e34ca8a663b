import { Activity, CalendarDays, CircleCheck, Flame, MailX, ShieldAlert, type LucideIcon } from 'lucide-react';
import type { Domain } from '@sendwell/contract/domains';

import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Progress } from '@/components/ui/progress';
import { formatNumber } from '@/lib/format';
import { cn } from '@/lib/utils';
import { BOUNCE_THRESHOLD, formatDomainAge, formatRate, SPAM_THRESHOLD, thresholdText } from '../domain-display';
import { DomainPicker } from '@/components/domain-picker';
import { ComplaintRateCard } from './complaint-rate-card';

/** The 4-week schedule the server enforces (modules/domains/warming.ts), shown as a table. */
const SCHEDULE = [
  { week: 1, limit: 1_000 },
  { week: 2, limit: 2_500 },
  { week: 3, limit: 5_000 },
  { week: 4, limit: 10_000 },
] as const;

function MetricCard({
  icon: Icon,
  title,
  value,
  caption,
}: {
  icon: LucideIcon;
  title: string;
  value: string;
  caption: string;
}) {
  return (
    <Card className="gap-3">
      <CardHeader className="flex flex-row items-center justify-between">
        <CardTitle className="text-muted-foreground text-sm font-medium">
          <h3>{title}</h3>
        </CardTitle>
        <Icon className="text-muted-foreground size-4" aria-hidden="true" />
      </CardHeader>
      <CardContent className="space-y-1">
        <p className="text-2xl font-bold tracking-tight">{value}</p>
        <p className="text-muted-foreground text-xs">{caption}</p>
      </CardContent>
    </Card>
  );
}

/**
 * The Reputation tab (spec §2), computed: sender score with its label, bounce and spam rates over
 * the last 30 days, domain age from the date added, and the warming schedule. With no sending yet
 * the cards say so instead of showing sample figures.
 */
export function ReputationTab({
  domains,
  selected,
  onSelect,
}: {
  domains: readonly Domain[];
  selected: Domain;
  onSelect: (id: number) => void;
}) {
  const noSending = selected.senderScore === null;
  const { warming } = selected;
  return (
    <div className="space-y-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 className="text-lg font-semibold break-all">Reputation of {selected.domain}</h2>
          <p className="text-muted-foreground text-sm">
            Over the last 30 days · {formatNumber(selected.reputation.sentLast30Days)} emails sent
          </p>
        </div>
        <DomainPicker id="reputation-domain-picker" domains={domains} value={selected} onChange={onSelect} />
      </div>
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <MetricCard
          icon={Activity}
          title="Sender Score"
          value={noSending ? 'No sending yet' : `${selected.senderScore}`}
          caption={noSending ? 'Appears once this domain has sent mail' : `${selected.reputation.label} (out of 100)`}
        />
        <MetricCard
          icon={MailX}
          title="Bounce Rate"
          value={formatRate(selected.bounceRate)}
          caption={thresholdText(selected.bounceRate, BOUNCE_THRESHOLD)}
        />
        <MetricCard
          icon={ShieldAlert}
          title="Spam Complaints"
          value={formatRate(selected.spamRate)}
          caption={thresholdText(selected.spamRate, SPAM_THRESHOLD)}
        />
        <MetricCard
          icon={CalendarDays}
          title="Domain Age"
          value={formatDomainAge(selected.reputation.domainAgeDays)}
          caption="Since you added it"
        />
      </div>
      <ComplaintRateCard domain={selected} />
      <Card>
        <CardHeader>
          <CardTitle>
            <h3 className="flex items-center gap-2">
              <Flame className="size-4 text-orange-600 dark:text-orange-400" aria-hidden="true" />
              Warming Schedule
            </h3>
          </CardTitle>
          <CardDescription>New domains build trust by sending a little more each week for 4 weeks.</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          {warming.status === 'complete' ? (
            <p className="flex items-center gap-2 font-semibold text-emerald-700 dark:text-emerald-400">
              <CircleCheck className="size-5" aria-hidden="true" />
              Warming Complete!
            </p>
          ) : warming.status === 'not_started' ? (
            <p className="text-muted-foreground text-sm">
              Warming starts when {selected.domain} is verified. Until then it may send up to{' '}
              {formatNumber(warming.dailyLimit ?? 0)} emails a day.
            </p>
          ) : (
            <>
              <div className="space-y-1">
                <div className="flex justify-between text-sm">
                  <span id="warming-progress-label">{selected.warmingProgress}% complete</span>
                  <span className="text-muted-foreground">
                    Week {warming.week} of {warming.totalWeeks}
                  </span>
                </div>
                <Progress value={selected.warmingProgress} aria-labelledby="warming-progress-label" />
              </div>
              <dl className="grid gap-3 sm:grid-cols-3">
                <div className="rounded-lg border p-3">
                  <dt className="text-muted-foreground text-xs">Daily Limit</dt>
                  <dd className="font-semibold">{formatNumber(warming.dailyLimit ?? 0)} emails</dd>
                </div>
                <div className="rounded-lg border p-3">
                  <dt className="text-muted-foreground text-xs">Next Increase In</dt>
                  <dd className="font-semibold">
                    {warming.nextIncreaseInDays} day{warming.nextIncreaseInDays === 1 ? '' : 's'}
                  </dd>
                </div>
                <div className="rounded-lg border p-3">
                  <dt className="text-muted-foreground text-xs">Sent Today</dt>
                  <dd className="font-semibold">
                    {formatNumber(warming.sentToday)} of {formatNumber(warming.dailyLimit ?? 0)}
                  </dd>
                </div>
              </dl>
            </>
          )}
          <table className="w-full text-sm">
            <caption className="sr-only">Daily sending limits by week</caption>
            <thead>
              <tr className="text-muted-foreground text-left">
                <th scope="col" className="py-1 font-medium">
                  Week
                </th>
                <th scope="col" className="py-1 text-right font-medium">
                  Daily limit
                </th>
              </tr>
            </thead>
            <tbody>
              {SCHEDULE.map((row) => {
                const current = warming.status === 'warming' && warming.week === row.week;
                return (
                  <tr
                    key={row.week}
                    className={cn('border-t', current && 'bg-muted font-semibold')}
                    aria-current={current ? 'step' : undefined}
                  >
                    <td className="py-1.5">Week {row.week}</td>
                    <td className="py-1.5 text-right">{formatNumber(row.limit)} emails</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </CardContent>
      </Card>
    </div>
  );
}
