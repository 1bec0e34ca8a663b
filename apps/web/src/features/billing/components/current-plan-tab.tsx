import type { CurrentUser } from '@sendwell/contract/auth';
import type { BillingUsage, Plan } from '@sendwell/contract/billing';

import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Separator } from '@/components/ui/separator';
import { formatDate, formatDollars } from '@/lib/format';
import { PlanLimits } from './plan-limits';
import { UsageMeters } from './usage-meters';
import { PlanFeatures } from './plan-features';
import { subscriptionStatusBadge, subscriptionStatusText } from './subscription-status';

/** Current Plan tab: plan, price, status, limits, features and the trial end date. */
export function CurrentPlanTab({
  user,
  plan,
  usage,
}: {
  user: CurrentUser;
  plan: Plan | undefined;
  usage: BillingUsage | undefined;
}) {
  // BILLING=off (self-hosting): no plan, price, trial or limit applies, so none is shown as if it did.
  const billingOff = usage?.billingEnabled === false;
  const badge = billingOff
    ? ({ label: 'Self-hosted', variant: 'secondary' } as const)
    : subscriptionStatusBadge(user.subscriptionStatus);
  const trialEnd = user.subscriptionStatus === 'trialing' && !billingOff ? formatDate(user.trialEndsAt) : '';

  return (
    <Card>
      <CardHeader>
        <div className="flex flex-wrap items-center gap-2">
          <CardTitle>
            <h2 className="text-xl">{plan?.name ?? user.plan}</h2>
          </CardTitle>
          {plan?.popular && <Badge variant="secondary">Popular</Badge>}
          <Badge variant={badge.variant}>{badge.label}</Badge>
        </div>
        <CardDescription>
          {plan && !billingOff && (
            <>
              <span className="text-foreground text-lg font-semibold">{formatDollars(plan.price)}</span>
              <span>/month</span>
              <span aria-hidden="true"> · </span>
            </>
          )}
          <span>
            {billingOff
              ? 'Billing is off on this server: no plan limits apply.'
              : subscriptionStatusText(user.subscriptionStatus)}
          </span>
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        {trialEnd && (
          <p className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100">
            Your trial ends on {trialEnd}
          </p>
        )}
        {plan && (
          <>
            {!billingOff && <PlanLimits limits={plan.limits} />}
            {usage && <UsageMeters usage={usage} />}
            <Separator />
            <div className="space-y-3">
              <h3 className="font-medium">Included features</h3>
              <PlanFeatures features={plan.features} twoColumns />
            </div>
          </>
        )}
      </CardContent>
    </Card>
  );
}
