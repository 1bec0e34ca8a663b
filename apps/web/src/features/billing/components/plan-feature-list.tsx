import { Check } from 'lucide-react';

/** A plan's features with check marks, in two columns on wide screens. */
export function PlanFeatureList({ features }: { features: readonly string[] }) {
  return (
    <ul className="grid gap-2 text-sm sm:grid-cols-2">
      {features.map((feature) => (
        <li key={feature} className="flex items-start gap-2">
          <Check className="mt-0.5 size-4 shrink-0 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
          <span>{feature}</span>
        </li>
      ))}
    </ul>
  );
}
