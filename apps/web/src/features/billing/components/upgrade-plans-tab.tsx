import type { Plan, PlanId } from '@sendwell/contract/billing';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { formatDollars } from '@/lib/format';
import { cn } from '@/lib/utils';
import { PlanFeatures } from './plan-features';

/** Upgrade Plans tab: one card per other plan with an 'Upgrade to {name}' button. */
export function UpgradePlansTab({
  plans,
  pendingPlanId,
  onUpgrade,
}: {
  plans: readonly Plan[];
  /** The plan whose checkout is being created, if any. */
  pendingPlanId: PlanId | null;
  onUpgrade: (planId: PlanId) => void;
}) {
  if (plans.length === 0) {
    return (
      <Card>
        <CardContent>
          <p className="text-muted-foreground">You are already on the highest plan.</p>
        </CardContent>
      </Card>
    );
  }
  return (
    <div className="grid gap-6 md:grid-cols-2">
      {plans.map((plan) => (
        <Card key={plan.id} className={cn('relative', plan.popular && 'border-primary ring-primary ring-1')}>
          <CardHeader>
            <div className="flex flex-wrap items-center gap-2">
              <CardTitle>
                <h2 className="text-xl">{plan.name}</h2>
              </CardTitle>
              {plan.popular && <Badge>Most Popular</Badge>}
            </div>
            <CardDescription>{plan.description}</CardDescription>
          </CardHeader>
          <CardContent className="flex-1 space-y-4">
            <p>
              <span className="text-3xl font-bold">{formatDollars(plan.price)}</span>
              <span className="text-muted-foreground">/month</span>
            </p>
            <PlanFeatures features={plan.features} twoColumns />
          </CardContent>
          <CardFooter>
            <Button
              className="w-full"
              variant={plan.popular ? 'default' : 'outline'}
              disabled={pendingPlanId !== null}
              onClick={() => onUpgrade(plan.id)}
            >
              {pendingPlanId === plan.id ? 'Processing...' : `Upgrade to ${plan.name}`}
            </Button>
          </CardFooter>
        </Card>
      ))}
    </div>
  );
}
