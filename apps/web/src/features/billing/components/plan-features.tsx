import { Check } from 'lucide-react';

import { cn } from '@/lib/utils';

/** A plan's feature list with check marks; `twoColumns` lays it out in two columns on wide screens. */
export function PlanFeatures({
  features,
  className,
  twoColumns = false,
}: {
  features: readonly string[];
  className?: string;
  twoColumns?: boolean;
}) {
  return (
    <ul className={cn(twoColumns ? 'grid gap-2 sm:grid-cols-2' : 'space-y-2', 'text-sm', className)}>
      {features.map((feature) => (
        <li key={feature} className="flex items-start gap-2">
          <Check className="mt-0.5 size-4 shrink-0 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
          <span>{feature}</span>
        </li>
      ))}
    </ul>
  );
}
