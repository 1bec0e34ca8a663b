import * as React from 'react';
import { timeZoneNames } from '@sendwell/contract/time-zones';

import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { cn } from '@/lib/utils';

/** 'GMT-5' for a zone now (Intl's short offset), or '' when the browser will not say. */
function offsetNow(timeZone: string): string {
  try {
    const parts = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'shortOffset' }).formatToParts(new Date());
    return parts.find((part) => part.type === 'timeZoneName')?.value ?? '';
  } catch {
    return '';
  }
}

/** 'America/New_York' as 'America/New York (GMT-5)'. */
export function timeZoneLabel(timeZone: string): string {
  const offset = offsetNow(timeZone);
  const name = timeZone.replaceAll('_', ' ');
  return offset && offset !== name ? `${name} (${offset})` : name;
}

let options: { value: string; label: string }[] | null = null;
/** Every zone the browser knows, labelled once per page load (400-odd formatters). */
function zoneOptions(): { value: string; label: string }[] {
  options ??= timeZoneNames().map((value) => ({ value, label: timeZoneLabel(value) }));
  return options;
}

/** A picker of IANA time zones (type to jump to one), showing each zone's offset today. */
export function TimeZoneSelect({
  id,
  value,
  onChange,
  disabled,
  className,
  'aria-describedby': describedBy,
}: {
  id: string;
  value: string;
  onChange: (timeZone: string) => void;
  disabled?: boolean;
  className?: string;
  'aria-describedby'?: string;
}) {
  const all = zoneOptions();
  // A zone saved elsewhere that this browser does not list still shows as chosen.
  const list = React.useMemo(
    () => (all.some((option) => option.value === value) ? all : [{ value, label: value }, ...all]),
    [all, value],
  );
  return (
    <Select value={value} onValueChange={onChange} disabled={disabled}>
      <SelectTrigger id={id} className={cn('w-full', className)} aria-describedby={describedBy}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent className="max-h-72">
        {list.map((option) => (
          <SelectItem key={option.value} value={option.value}>
            {option.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
