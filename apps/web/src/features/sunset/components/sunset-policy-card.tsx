import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { Sunset } from 'lucide-react';
import { sunsetPolicyBodySchema, type SunsetPolicyBody } from '@sendwell/contract/sunset';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { formatDate, formatNumber } from '@/lib/format';
import { useSettingsSubmit } from '@/lib/use-settings-submit';
import { useSaveSunsetPolicy, useSunsetPolicy } from '../api/use-sunset';

const NO_SEQUENCE = 'none';

/**
 * The sunset policy (GET/PUT /api/sunset-policy): when contacts who never read stop being mailed,
 * the sequence that tries to win them back first, and where the account's contacts stand under it.
 */
export function SunsetPolicyCard({
  sequences,
}: {
  /** The account's sequences, any of which may be the re-engagement sequence. */
  sequences: { id: number; name: string; status: string }[];
}) {
  const stored = useSunsetPolicy();
  const save = useSaveSunsetPolicy();
  const [draft, setDraft] = useState<SunsetPolicyBody | null>(null);
  useEffect(() => {
    if (stored.data) {
      const { enabled, inactiveDays, minMessages, graceDays, reengagementSequenceId } = stored.data;
      setDraft({ enabled, inactiveDays, minMessages, graceDays, reengagementSequenceId });
    }
  }, [stored.data]);

  const { problem, submit } = useSettingsSubmit({
    schema: sunsetPolicyBodySchema,
    save: (policy) => save.mutateAsync(policy),
    saved: { title: 'Sunset policy saved' },
    failed: 'Could not save the sunset policy. Please try again.',
    invalid: 'Check the settings',
  });
  const number = (value: string) => (value.trim() === '' ? Number.NaN : Number(value));
  const shown = (value: number) => (Number.isNaN(value) ? '' : value);
  const data = stored.data;

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="flex items-center gap-2">
            <Sunset className="size-4" aria-hidden="true" />
            Sunset policy
          </h2>
        </CardTitle>
        <CardDescription>
          Stop mailing people who never read: mailbox providers judge you by them. Before an address is suppressed as
          unengaged, it gets a chance to come back.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {!draft || !data ? (
          <Skeleton className="h-48 w-full" />
        ) : (
          <>
            <dl className="grid grid-cols-2 gap-3 text-sm" aria-label="Contacts under the policy">
              <div className="rounded-md border p-3">
                <dt className="text-muted-foreground">Being re-engaged now</dt>
                <dd className="text-xl font-semibold tabular-nums" data-testid="sunset-reengaging">
                  {formatNumber(data.reengaging)}
                </dd>
              </div>
              <div className="rounded-md border p-3">
                <dt className="text-muted-foreground">Suppressed as unengaged</dt>
                <dd className="text-xl font-semibold tabular-nums" data-testid="sunset-suppressed">
                  {formatNumber(data.suppressed)}
                </dd>
              </div>
            </dl>
            <p className="text-muted-foreground text-xs">
              {data.lastRunAt ? `Last checked ${formatDate(data.lastRunAt)}.` : 'Not checked yet: it runs daily.'}
            </p>
            <form
              className="space-y-4"
              onSubmit={(event) => void submit(event, draft)}
              aria-label="Sunset policy"
              noValidate
            >
              <div className="flex items-start justify-between gap-4">
                <Label htmlFor="sunset-enabled" className="flex-col items-start gap-1">
                  <span>Sunset unengaged contacts</span>
                  <span className="text-muted-foreground text-sm font-normal">
                    No human open or click (machine opens do not count) for the days below, after at least the messages
                    below.
                  </span>
                </Label>
                <Switch
                  id="sunset-enabled"
                  checked={draft.enabled}
                  onCheckedChange={(checked) => setDraft({ ...draft, enabled: checked })}
                />
              </div>
              <div className="grid gap-3 sm:grid-cols-3">
                <div className="space-y-1.5">
                  <Label htmlFor="sunset-days">Days without engagement</Label>
                  <Input
                    id="sunset-days"
                    type="number"
                    inputMode="numeric"
                    min={30}
                    max={730}
                    value={shown(draft.inactiveDays)}
                    onChange={(event) => setDraft({ ...draft, inactiveDays: number(event.target.value) })}
                  />
                </div>
                <div className="space-y-1.5">
                  <Label htmlFor="sunset-messages">Messages received</Label>
                  <Input
                    id="sunset-messages"
                    type="number"
                    inputMode="numeric"
                    min={1}
                    max={100}
                    value={shown(draft.minMessages)}
                    onChange={(event) => setDraft({ ...draft, minMessages: number(event.target.value) })}
                  />
                </div>
                <div className="space-y-1.5">
                  <Label htmlFor="sunset-grace">Days to re-engage</Label>
                  <Input
                    id="sunset-grace"
                    type="number"
                    inputMode="numeric"
                    min={7}
                    max={90}
                    value={shown(draft.graceDays)}
                    onChange={(event) => setDraft({ ...draft, graceDays: number(event.target.value) })}
                  />
                </div>
              </div>
              <div className="space-y-1.5">
                <Label htmlFor="sunset-sequence">Re-engagement sequence</Label>
                <Select
                  value={draft.reengagementSequenceId === null ? NO_SEQUENCE : String(draft.reengagementSequenceId)}
                  onValueChange={(value) =>
                    setDraft({ ...draft, reengagementSequenceId: value === NO_SEQUENCE ? null : Number(value) })
                  }
                >
                  <SelectTrigger id="sunset-sequence" className="w-full sm:w-96">
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    <SelectItem value={NO_SEQUENCE}>None: only wait the days to re-engage</SelectItem>
                    {sequences.map((sequence) => (
                      <SelectItem key={sequence.id} value={String(sequence.id)}>
                        {sequence.name}
                        {sequence.status === 'active' ? '' : ` (${sequence.status}: enrols nobody yet)`}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
                <p className="text-muted-foreground text-sm">
                  Contacts enter it when their re-engagement period starts. Start one from the Re-engagement template in{' '}
                  <Link href="/email-sequences" className="text-primary underline underline-offset-4">
                    Sequences
                  </Link>
                  .
                </p>
              </div>
              {problem && (
                <p role="alert" className="text-destructive text-sm">
                  {problem}
                </p>
              )}
              <Button type="submit" size="sm" disabled={save.isPending}>
                Save sunset policy
              </Button>
            </form>
          </>
        )}
      </CardContent>
    </Card>
  );
}
