import { useEffect, useState } from 'react';
import { MailX } from 'lucide-react';
import { bounceSettingsSchema, type BounceSettings } from '@sendwell/contract/bounces';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { useSettingsSubmit } from '@/lib/use-settings-submit';
import { useBounceSettings, useSaveBounceSettings } from '../api/use-bounce-settings';

/** What the account does with the bounces and complaints that come back (GET/PUT /api/bounce-settings). */
export function BounceSettingsCard() {
  const stored = useBounceSettings();
  const save = useSaveBounceSettings();
  const [draft, setDraft] = useState<BounceSettings | null>(null);
  useEffect(() => {
    if (stored.data) setDraft(stored.data);
  }, [stored.data]);

  const { problem, submit } = useSettingsSubmit({
    schema: bounceSettingsSchema,
    save: (settings) => save.mutateAsync(settings),
    saved: { title: 'Bounce settings saved' },
    failed: 'Could not save the bounce settings. Please try again.',
    invalid: 'Check the settings',
  });
  const number = (value: string) => (value.trim() === '' ? Number.NaN : Number(value));

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="flex items-center gap-2">
            <MailX className="size-4" aria-hidden="true" />
            Bounces and complaints
          </h2>
        </CardTitle>
        <CardDescription>
          What Sendwell does when mail comes back. Suppressed addresses are skipped by every later send.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {!draft ? (
          <Skeleton className="h-40 w-full" />
        ) : (
          <form className="space-y-4" onSubmit={(event) => void submit(event, draft)} aria-label="Bounce settings">
            <div className="flex items-start justify-between gap-4">
              <Label htmlFor="suppress-hard" className="flex-col items-start gap-1">
                <span>Suppress hard bounces at once</span>
                <span className="text-muted-foreground text-sm font-normal">
                  The mailbox or domain does not exist, or the address has moved.
                </span>
              </Label>
              <Switch
                id="suppress-hard"
                checked={draft.suppressHardBounces}
                onCheckedChange={(checked) => setDraft({ ...draft, suppressHardBounces: checked })}
              />
            </div>
            <div className="grid gap-3 sm:grid-cols-2">
              <div className="space-y-1.5">
                <Label htmlFor="soft-limit">Suppress after this many soft bounces (0: never)</Label>
                <Input
                  id="soft-limit"
                  type="number"
                  inputMode="numeric"
                  min={0}
                  max={20}
                  value={Number.isNaN(draft.softBounceLimit) ? '' : draft.softBounceLimit}
                  onChange={(event) => setDraft({ ...draft, softBounceLimit: number(event.target.value) })}
                />
              </div>
              <div className="space-y-1.5">
                <Label htmlFor="soft-window">Within this many days</Label>
                <Input
                  id="soft-window"
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={365}
                  value={Number.isNaN(draft.softBounceWindowDays) ? '' : draft.softBounceWindowDays}
                  onChange={(event) => setDraft({ ...draft, softBounceWindowDays: number(event.target.value) })}
                />
              </div>
            </div>
            <div className="flex items-start justify-between gap-4">
              <Label htmlFor="complaint-unsubscribe" className="flex-col items-start gap-1">
                <span>Unsubscribe contacts who complain</span>
                <span className="text-muted-foreground text-sm font-normal">
                  A spam complaint always suppresses the address.
                </span>
              </Label>
              <Switch
                id="complaint-unsubscribe"
                checked={draft.unsubscribeOnComplaint}
                onCheckedChange={(checked) => setDraft({ ...draft, unsubscribeOnComplaint: checked })}
              />
            </div>
            {problem && (
              <p role="alert" className="text-destructive text-sm">
                {problem}
              </p>
            )}
            <Button type="submit" size="sm" disabled={save.isPending}>
              Save bounce settings
            </Button>
          </form>
        )}
      </CardContent>
    </Card>
  );
}
