import * as React from 'react';
import { Activity, Mail, MousePointerClick, MailOpen, type LucideIcon } from 'lucide-react';
import type { Sequence } from '@sendwell/contract/sequences';

import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatNumber, formatPercent } from '@/lib/format';
import { useSequenceAnalytics, useSequenceTotals } from '../api/use-sequences';

function StatCard({
  label,
  value,
  icon: Icon,
  testId,
}: {
  label: string;
  value: string;
  icon: LucideIcon;
  testId: string;
}) {
  return (
    <Card className="gap-2 py-4">
      <CardContent className="flex items-center justify-between gap-3 px-4">
        <div>
          <p className="text-muted-foreground text-sm">{label}</p>
          <p className="text-2xl font-bold" data-testid={testId}>
            {value}
          </p>
        </div>
        <Icon className="text-muted-foreground size-5" aria-hidden="true" />
      </CardContent>
    </Card>
  );
}

/**
 * The Analytics tab: totals over all sequences (sent, open rate, click rate, active) and the chosen
 * sequence's per-step funnel, all counted by the server from enrolments and sends.
 */
export function SequenceAnalyticsTab({ sequences, enabled }: { sequences: readonly Sequence[]; enabled: boolean }) {
  const totals = useSequenceTotals(enabled);
  const [chosenId, setChosenId] = React.useState<number | null>(null);
  const sequenceId = chosenId ?? sequences[0]?.id ?? null;
  const analytics = useSequenceAnalytics(sequenceId);
  const t = totals.data;

  return (
    <div className="space-y-6">
      {totals.isError ? (
        <p className="text-destructive text-sm" role="alert">
          Could not load sequence analytics. Please refresh the page.
        </p>
      ) : (
        <div className="grid grid-cols-2 gap-4 lg:grid-cols-4" aria-busy={totals.isLoading || undefined}>
          <StatCard label="Total Sent" value={t ? formatNumber(t.sent) : '…'} icon={Mail} testId="stat-sent" />
          <StatCard
            label="Open Rate"
            value={t ? formatPercent(t.openRate) : '…'}
            icon={MailOpen}
            testId="stat-open-rate"
          />
          <StatCard
            label="Click Rate"
            value={t ? formatPercent(t.clickRate) : '…'}
            icon={MousePointerClick}
            testId="stat-click-rate"
          />
          <StatCard label="Active" value={t ? formatNumber(t.active) : '…'} icon={Activity} testId="stat-active" />
        </div>
      )}

      <Card>
        <CardHeader>
          <CardTitle>
            <h2 className="text-base">Step funnel</h2>
          </CardTitle>
          <CardDescription>How many contacts reached each step and what they did there.</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          {sequences.length === 0 ? (
            <p className="text-muted-foreground text-sm">Create a sequence to see its funnel here.</p>
          ) : (
            <>
              <div className="max-w-sm space-y-1.5">
                <Label htmlFor="funnel-sequence">Sequence</Label>
                <Select value={String(sequenceId)} onValueChange={(value) => setChosenId(Number(value))}>
                  <SelectTrigger id="funnel-sequence" className="w-full">
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    {sequences.map((sequence) => (
                      <SelectItem key={sequence.id} value={String(sequence.id)}>
                        {sequence.name}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              </div>
              {analytics.isLoading ? (
                <p className="text-muted-foreground text-sm" role="status">
                  Loading the funnel...
                </p>
              ) : analytics.isError ? (
                <p className="text-destructive text-sm" role="alert">
                  Could not load this sequence&apos;s funnel.
                </p>
              ) : (
                <div
                  role="region"
                  aria-label="Step funnel"
                  tabIndex={0}
                  className="focus-visible:ring-ring/50 w-full overflow-x-auto rounded-md outline-none focus-visible:ring-[3px]"
                >
                  <table className="w-full caption-bottom text-sm">
                    <TableHeader>
                      <TableRow>
                        <TableHead>Step</TableHead>
                        <TableHead className="text-right">Entered</TableHead>
                        <TableHead className="text-right">Sent</TableHead>
                        <TableHead className="text-right">Opened</TableHead>
                        <TableHead className="text-right">Clicked</TableHead>
                        <TableHead className="text-right">Branched</TableHead>
                        <TableHead className="text-right">Exited</TableHead>
                      </TableRow>
                    </TableHeader>
                    <TableBody>
                      {(analytics.data?.steps ?? []).map((step) => (
                        <TableRow key={step.nodeId} data-step={step.nodeId}>
                          <TableCell className="font-medium">{step.label}</TableCell>
                          <TableCell className="text-right">{formatNumber(step.entered)}</TableCell>
                          <TableCell className="text-right">
                            {step.type === 'email' ? formatNumber(step.sent) : '—'}
                          </TableCell>
                          <TableCell className="text-right">
                            {step.type === 'email' ? formatNumber(step.opened) : '—'}
                          </TableCell>
                          <TableCell className="text-right">
                            {step.type === 'email' ? formatNumber(step.clicked) : '—'}
                          </TableCell>
                          <TableCell className="text-right">
                            {step.type === 'condition' ? formatNumber(step.branchedElse) : '—'}
                          </TableCell>
                          <TableCell className="text-right">{formatNumber(step.exited)}</TableCell>
                        </TableRow>
                      ))}
                    </TableBody>
                  </table>
                </div>
              )}
            </>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
