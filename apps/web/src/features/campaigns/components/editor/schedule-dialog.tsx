import * as React from 'react';
import { CalendarClock, Globe } from 'lucide-react';

import { FieldError } from '@/components/field-error';
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
import {
  browserTimeZone,
  defaultScheduleValue,
  formatScheduleTime,
  parseScheduleInput,
  toLocalInputValue,
} from '../../editor/schedule';

/** Schedule Later: a date and time in the user's time zone, which must be in the future. */
export function ScheduleDialog({
  open,
  onOpenChange,
  initialIso,
  pending,
  onSchedule,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The campaign's current schedule, if it has one. */
  initialIso: string | null;
  pending: boolean;
  onSchedule: (iso: string, date: Date) => void;
}) {
  const [value, setValue] = React.useState('');
  const [error, setError] = React.useState<string | undefined>();
  const zone = browserTimeZone();

  React.useEffect(() => {
    if (!open) return;
    const initial = initialIso ? new Date(initialIso) : null;
    setValue(initial && initial.getTime() > Date.now() ? toLocalInputValue(initial) : defaultScheduleValue());
    setError(undefined);
  }, [open, initialIso]);

  const parsed = parseScheduleInput(value);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const result = parseScheduleInput(value);
    if (!result.ok) {
      setError(result.message);
      return;
    }
    setError(undefined);
    onSchedule(result.iso, result.date);
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
              min={toLocalInputValue(new Date())}
              onChange={(event) => setValue(event.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'schedule-at-error schedule-zone' : 'schedule-zone'}
            />
            <p id="schedule-zone" className="text-muted-foreground flex items-center gap-1.5 text-xs">
              <Globe className="size-3.5" aria-hidden="true" />
              Time zone: {zone}
            </p>
            <FieldError id="schedule-at-error" message={error} />
            {parsed.ok && !error && <p className="text-sm">Goes out {formatScheduleTime(parsed.date)}.</p>}
          </div>
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
