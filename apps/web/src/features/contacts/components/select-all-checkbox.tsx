import { Checkbox as CheckboxPrimitive } from 'radix-ui';
import { CheckIcon, MinusIcon } from 'lucide-react';

import { cn } from '@/lib/utils';

/**
 * The table header's checkbox. Same look as components/ui/checkbox, plus a minus sign for the
 * 'some rows selected' state (the shared checkbox draws a tick there, which reads as 'all').
 */
export function SelectAllCheckbox({
  checked,
  onCheckedChange,
  disabled,
  label,
}: {
  checked: boolean | 'indeterminate';
  onCheckedChange: (checked: boolean) => void;
  disabled?: boolean;
  label: string;
}) {
  return (
    <CheckboxPrimitive.Root
      data-slot="checkbox"
      aria-label={label}
      checked={checked}
      disabled={disabled}
      // From 'some' the click selects the whole page.
      onCheckedChange={() => onCheckedChange(checked !== true)}
      className={cn(
        'peer border-input dark:bg-input/30 focus-visible:border-ring focus-visible:ring-ring/50 size-4 shrink-0 rounded-[4px] border shadow-xs transition-shadow outline-none focus-visible:ring-[3px] disabled:cursor-not-allowed disabled:opacity-50',
        'data-[state=checked]:bg-primary data-[state=checked]:text-primary-foreground data-[state=checked]:border-primary dark:data-[state=checked]:bg-primary',
        'data-[state=indeterminate]:bg-primary data-[state=indeterminate]:text-primary-foreground data-[state=indeterminate]:border-primary dark:data-[state=indeterminate]:bg-primary',
      )}
    >
      <CheckboxPrimitive.Indicator className="flex items-center justify-center text-current transition-none">
        {checked === 'indeterminate' ? <MinusIcon className="size-3.5" /> : <CheckIcon className="size-3.5" />}
      </CheckboxPrimitive.Indicator>
    </CheckboxPrimitive.Root>
  );
}
