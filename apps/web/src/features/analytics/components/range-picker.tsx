import * as React from 'react';
import { OVERVIEW_PRESET_DAYS, type OverviewQuery } from '@sendwell/contract/analytics';

import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { ToggleGroup, ToggleGroupItem } from '@/components/ui/toggle-group';
import { checkCustomRange } from '../overview-range';

export type RangeChoice =
  { preset: (typeof OVERVIEW_PRESET_DAYS)[number] } | { preset: 'custom'; range: OverviewQuery };

/**
 * The date range of /analytics: the last 7, 30 or 90 days, or custom days (checked with the
 * contract's rules before anything is asked of the server).
 */
export function RangePicker({
  choice,
  range,
  onChange,
}: {
  choice: RangeChoice;
  range: OverviewQuery;
  onChange: (choice: RangeChoice) => void;
}) {
  const [customOpen, setCustomOpen] = React.useState(choice.preset === 'custom');
  const [from, setFrom] = React.useState(range.from);
  const [to, setTo] = React.useState(range.to);
  const [error, setError] = React.useState<{ field: 'from' | 'to'; message: string } | null>(null);
  const selected = customOpen ? 'custom' : String(choice.preset);

  const apply = (event: React.FormEvent) => {
    event.preventDefault();
    const checked = checkCustomRange(from, to);
    setError(checked.error);
    if (checked.range) onChange({ preset: 'custom', range: checked.range });
  };

  return (
    <div className="space-y-3">
      <ToggleGroup
        type="single"
        variant="outline"
        value={selected}
        aria-label="Date range"
        onValueChange={(value) => {
          if (!value) return;
          if (value === 'custom') {
            setFrom(range.from);
            setTo(range.to);
            setCustomOpen(true);
            return;
          }
          setCustomOpen(false);
          setError(null);
          onChange({ preset: Number(value) as (typeof OVERVIEW_PRESET_DAYS)[number] });
        }}
      >
        {OVERVIEW_PRESET_DAYS.map((days) => (
          <ToggleGroupItem key={days} value={String(days)} className="px-3">
            {days} days
          </ToggleGroupItem>
        ))}
        <ToggleGroupItem value="custom" className="px-3">
          Custom
        </ToggleGroupItem>
      </ToggleGroup>
      {customOpen && (
        <form onSubmit={apply} noValidate className="flex flex-wrap items-end gap-3" aria-label="Custom range">
          <div className="space-y-1">
            <Label htmlFor="range-from">From</Label>
            <Input
              id="range-from"
              type="date"
              value={from}
              onChange={(event) => setFrom(event.target.value)}
              aria-invalid={error?.field === 'from' || undefined}
              aria-describedby={error?.field === 'from' ? 'range-error' : undefined}
              className="w-40"
            />
          </div>
          <div className="space-y-1">
            <Label htmlFor="range-to">To</Label>
            <Input
              id="range-to"
              type="date"
              value={to}
              onChange={(event) => setTo(event.target.value)}
              aria-invalid={error?.field === 'to' || undefined}
              aria-describedby={error?.field === 'to' ? 'range-error' : undefined}
              className="w-40"
            />
          </div>
          <Button type="submit" variant="secondary">
            Apply
          </Button>
          {error && (
            <p id="range-error" role="alert" className="text-destructive basis-full text-sm">
              {error.message}
            </p>
          )}
        </form>
      )}
    </div>
  );
}
