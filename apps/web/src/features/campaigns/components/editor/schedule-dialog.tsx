import * as React from 'react';
import { CalendarClock } from 'lucide-react';

import { FieldError } from '@/components/field-error';
import { TimeZoneSelect } from '@/components/time-zone-select';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { defaultScheduleValue, formatScheduleTime, parseScheduleInput, toLocalInputValue } from '../../editor/schedule';

/**
 * Schedule Later: a date and time in a time zone (the campaign's, else the account's default, and
 * changeable here for this campaign), which must be in the future.
 */
export function ScheduleDialog({
  open,
  onOpenChange,
  initialIso,
  initialTimeZone,
  pending,
  onSchedule,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The campaign's current schedule, if it has one. */
  initialIso: string | null;
  /** The campaign's own time zone, else the account's. */
  initialTimeZone: string;
  pending: boolean;
  onSchedule: (iso: string, date: Date, timeZone: string) => void;
}) {
  const [value, setValue] = React.useState('');
  const [zone, setZone] = React.useState(initialTimeZone);
  const [error, setError] = React.useState<string | undefined>();

  React.useEffect(() => {
    if (!open) return;
    const initial = initialIso ? new Date(initialIso) : null;
    setZone(initialTimeZone);
    setValue(
      initial && initial.getTime() > Date.now()
        ? toLocalInputValue(initial, initialTimeZone)
        : defaultScheduleValue(initialTimeZone),
    );
    setError(undefined);
  }, [open, initialIso, initialTimeZone]);

  const parsed = parseScheduleInput(value, zone);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const result = parseScheduleInput(value, zone);
    if (!result.ok) {
      setError(result.message);
      return;
    }
    setError(undefined);
    onSchedule(result.iso, result.date, zone);
  };

  return (
    <Dialog open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <DialogContent className="sm:max-w-md">
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>Schedule Campaign</DialogTitle>
            <DialogDescription>
              Pick when this campaign goes out. You can take it back to a draft until then.
            </DialogDescription>
          </DialogHeader>
          <div className="space-y-1.5">
            <Label htmlFor="schedule-at">Send on</Label>
            <Input
              id="schedule-at"
              type="datetime-local"
              value={value}
              min={toLocalInputValue(new Date(), zone)}
              onChange={(event) => setValue(event.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'schedule-at-error' : undefined}
            />
            <FieldError id="schedule-at-error" message={error} />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor="schedule-zone">Time zone</Label>
            <TimeZoneSelect id="schedule-zone" value={zone} onChange={setZone} aria-describedby="schedule-zone-hint" />
            <p id="schedule-zone-hint" className="text-muted-foreground text-xs">
              The time above is read in this zone, and the campaign shows its times in it. Your default is in Settings.
            </p>
          </div>
          {parsed.ok && !error && (
            <p className="text-sm" data-testid="schedule-summary">
              Goes out {formatScheduleTime(parsed.date, zone)}.
            </p>
          )}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? <Spinner className="size-4" label="Scheduling" /> : <CalendarClock aria-hidden="true" />}
              {pending ? 'Scheduling...' : 'Schedule'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
