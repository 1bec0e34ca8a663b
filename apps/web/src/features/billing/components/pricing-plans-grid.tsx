import { Link } from 'wouter';
import type { Plan } from '@sendwell/contract/billing';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDollars } from '@/lib/format';
import { cn } from '@/lib/utils';
import { PlanFeatures } from './plan-features';

/** Landing-page pricing cards; every label, price and call to action comes from the server. */
export function PricingPlansGrid({ plans, isLoading }: { plans: readonly Plan[]; isLoading: boolean }) {
  if (isLoading) {
    return (
      <div className="grid gap-6 md:grid-cols-3" aria-busy="true">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-96 rounded-xl" />
        ))}
      </div>
    );
  }
  if (plans.length === 0) {
    return (
      <p className="text-muted-foreground text-center">Pricing is unavailable right now. Please try again later.</p>
    );
  }
  return (
    <div className="grid items-stretch gap-6 md:grid-cols-3">
      {plans.map((plan) => (
        <Card
          key={plan.id}
          className={cn('relative', plan.popular && 'border-primary ring-primary shadow-lg ring-2 md:scale-[1.03]')}
        >
          {plan.popular && <Badge className="absolute -top-2.5 left-1/2 -translate-x-1/2">Most Popular</Badge>}
          <CardHeader>
            <CardTitle>
              <h3 className="text-xl">{plan.name}</h3>
            </CardTitle>
            <CardDescription>{plan.description}</CardDescription>
          </CardHeader>
          <CardContent className="flex-1 space-y-6">
            <p>
              <span className="text-4xl font-bold tracking-tight">{formatDollars(plan.price)}</span>
              <span className="text-muted-foreground">/month</span>
            </p>
            <PlanFeatures features={plan.features} />
          </CardContent>
          <CardFooter>
            <Button asChild className="w-full" variant={plan.popular ? 'default' : 'outline'}>
              {plan.cta.href.startsWith('/') ? (
                <Link href={plan.cta.href}>{plan.cta.label}</Link>
              ) : (
                <a href={plan.cta.href}>{plan.cta.label}</a>
              )}
            </Button>
          </CardFooter>
        </Card>
      ))}
    </div>
  );
}
