import * as React from 'react';
import { AlignCenter, AlignLeft, AlignRight, RotateCcw } from 'lucide-react';

import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { ToggleGroup, ToggleGroupItem } from '@/components/ui/toggle-group';
import { numberFieldProblem } from '../../editor/number-field';

/**
 * A whole-number style field. What is typed stays as typed; the value is applied once it is a
 * number in range, and an empty box means 'use the default' (shown as the placeholder).
 */
export function NumberField({
  id,
  label,
  value,
  fallback,
  min,
  max,
  unit,
  onChange,
}: {
  id: string;
  label: string;
  value: number | undefined;
  fallback: number;
  min: number;
  max: number;
  unit?: string;
  onChange: (value: number | undefined) => void;
}) {
  const [text, setText] = React.useState(value === undefined ? '' : String(value));
  const [lastValue, setLastValue] = React.useState(value);
  // Follow changes made elsewhere (another block selected, styles reset).
  if (value !== lastValue) {
    setLastValue(value);
    setText(value === undefined ? '' : String(value));
  }
  const hintId = `${id}-hint`;
  const problem = numberFieldProblem(text, { label, min, max, applied: value ?? fallback });
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id} className="text-xs">
        {label}
        {unit && <span className="text-muted-foreground font-normal"> ({unit})</span>}
      </Label>
      <Input
        id={id}
        type="number"
        inputMode="numeric"
        min={min}
        max={max}
        step={1}
        placeholder={String(fallback)}
        value={text}
        aria-describedby={problem ? `${hintId} ${id}-problem` : hintId}
        aria-invalid={problem !== null}
        className="h-8"
        onChange={(event) => {
          const next = event.target.value;
          setText(next);
          if (next.trim() === '') {
            setLastValue(undefined);
            onChange(undefined);
            return;
          }
          const number = Number(next);
          if (Number.isInteger(number) && number >= min && number <= max) {
            setLastValue(number);
            onChange(number);
          }
        }}
        // A value out of range stays in the box with its message (it used to be dropped without a word).
        onBlur={() => {
          if (!problem) setText(value === undefined ? '' : String(value));
        }}
      />
      {problem && (
        <p id={`${id}-problem`} className="text-destructive text-xs font-medium">
          {problem}
        </p>
      )}
      <span id={hintId} className="sr-only">
        {min} to {max}; leave empty for the default, {fallback}
      </span>
    </div>
  );
}

/** A colour picker (input type=color) with the hex value, and a reset to the default. */
export function ColorField({
  id,
  label,
  value,
  fallback,
  onChange,
}: {
  id: string;
  label: string;
  value: string | undefined;
  /** The colour the block shows when none is set; null means 'none' (transparent). */
  fallback: string | null;
  onChange: (value: string | undefined) => void;
}) {
  const shown = normalizeHex(value ?? fallback ?? '#ffffff');
  return (
    <div className="space-y-1.5" data-color-field>
      {/* The reset sits by the label, so the value row has room for the whole hex value (it used to be cut off). */}
      <div className="flex h-4 items-center justify-between gap-1">
        <Label htmlFor={id} className="text-xs">
          {label}
        </Label>
        {value !== undefined && (
          <button
            type="button"
            onClick={() => onChange(undefined)}
            className="text-muted-foreground hover:text-foreground focus-visible:ring-ring/50 -my-1 rounded p-0.5 outline-none focus-visible:ring-[3px]"
            aria-label={`Reset ${label.toLowerCase()}`}
          >
            <RotateCcw className="size-3.5" aria-hidden="true" />
          </button>
        )}
      </div>
      <div className="flex items-center gap-2">
        <input
          id={id}
          type="color"
          value={shown}
          onChange={(event) => onChange(event.target.value)}
          className="border-input h-8 w-10 shrink-0 cursor-pointer rounded-md border bg-transparent p-0.5"
        />
        <span className="text-muted-foreground flex min-w-0 flex-1 flex-wrap items-baseline gap-x-1 text-xs leading-tight">
          <span className="font-mono whitespace-nowrap" data-hex-value>
            {value ?? fallback ?? 'None'}
          </span>
          {value === undefined && fallback && <span>(default)</span>}
        </span>
      </div>
    </div>
  );
}

/** #abc → #aabbcc (input type=color accepts only the six-digit form). */
function normalizeHex(value: string): string {
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(value);
  if (short) return `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`.toLowerCase();
  const long = /^#([0-9a-f]{6})/i.exec(value);
  return long ? `#${long[1]}`.toLowerCase() : '#000000';
}

type Align = 'left' | 'center' | 'right';

/** Left / centre / right alignment as a toggle group. */
export function AlignField({ value, onChange }: { value: Align; onChange: (value: Align) => void }) {
  return (
    <div className="space-y-1.5">
      <span className="text-xs leading-none font-medium" id="align-field-label">
        Alignment
      </span>
      <ToggleGroup
        type="single"
        variant="outline"
        size="sm"
        value={value}
        onValueChange={(next) => next && onChange(next as Align)}
        aria-labelledby="align-field-label"
      >
        <ToggleGroupItem value="left" aria-label="Align left">
          <AlignLeft aria-hidden="true" />
        </ToggleGroupItem>
        <ToggleGroupItem value="center" aria-label="Align center">
          <AlignCenter aria-hidden="true" />
        </ToggleGroupItem>
        <ToggleGroupItem value="right" aria-label="Align right">
          <AlignRight aria-hidden="true" />
        </ToggleGroupItem>
      </ToggleGroup>
    </div>
  );
}
