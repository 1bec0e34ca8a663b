import type { Plan, PlanId } from '@sendwell/contract/billing';

import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { formatDollars } from '@/lib/format';
import { cn } from '@/lib/utils';
import { PlanFeatures } from './plan-features';

/**
 * Step 1 of sign-up: one selectable card per plan (a radio group), the selected card ringed and
 * the popular plan badged 'Most Popular'.
 */
export function PlanPicker({
  plans,
  selected,
  onSelect,
}: {
  plans: readonly Plan[];
  selected: PlanId;
  onSelect: (id: PlanId) => void;
}) {
  return (
    <div role="radiogroup" aria-label="Plans" className="grid gap-4 md:grid-cols-3">
      {plans.map((plan) => {
        const isSelected = plan.id === selected;
        return (
          <Card
            key={plan.id}
            role="radio"
            aria-checked={isSelected}
            tabIndex={isSelected ? 0 : -1}
            data-selected={isSelected || undefined}
            onClick={() => onSelect(plan.id)}
            onKeyDown={(event) => {
              const index = plans.findIndex((p) => p.id === plan.id);
              let next: Plan | undefined;
              if (event.key === 'ArrowRight' || event.key === 'ArrowDown') next = plans[(index + 1) % plans.length];
              if (event.key === 'ArrowLeft' || event.key === 'ArrowUp')
                next = plans[(index - 1 + plans.length) % plans.length];
              if (event.key === ' ' || event.key === 'Enter') {
                event.preventDefault();
                onSelect(plan.id);
              }
              if (next) {
                event.preventDefault();
                onSelect(next.id);
                const target = event.currentTarget.parentElement?.querySelector<HTMLElement>(
                  `[data-plan-id="${next.id}"]`,
                );
                target?.focus();
              }
            }}
            data-plan-id={plan.id}
            className={cn(
              'relative cursor-pointer gap-4 transition-all outline-none hover:shadow-md',
              'focus-visible:ring-ring/50 focus-visible:ring-[3px]',
              isSelected ? 'ring-primary border-primary shadow-md ring-2' : 'hover:border-foreground/20',
            )}
          >
            {plan.popular && <Badge className="absolute -top-2.5 left-1/2 -translate-x-1/2">Most Popular</Badge>}
            <CardHeader>
              <CardTitle className="text-lg">{plan.name}</CardTitle>
              <CardDescription>{plan.description}</CardDescription>
            </CardHeader>
            <CardContent className="space-y-4">
              <p>
                <span className="text-3xl font-bold">{formatDollars(plan.price)}</span>
                <span className="text-muted-foreground">/month</span>
              </p>
              <PlanFeatures features={plan.features} />
            </CardContent>
          </Card>
        );
      })}
    </div>
  );
}
