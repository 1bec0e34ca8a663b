import * as React from 'react';
import { Lock } from 'lucide-react';
import type { PlanId } from '@sendwell/contract/billing';

import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { PageHeader } from '@/components/page-header';
import { toast } from '@/lib/use-toast';
import { useAuth } from '@/features/auth/api/use-auth';
import {
  toastProviderError,
  useBillingPortal,
  useBillingUsage,
  useCreateCheckout,
} from '@/features/billing/api/use-billing';
import { BillingPortalTab } from '@/features/billing/components/billing-portal-tab';
import { CurrentPlanTab } from '@/features/billing/components/current-plan-tab';
import { UnlimitedPlanCard } from '@/features/billing/components/unlimited-plan-card';
import { UpgradePlansTab } from '@/features/billing/components/upgrade-plans-tab';
import { purchasablePlans, usePlans } from '@/features/billing/api/use-plans';

/** /billing: current plan, upgrades and the provider's billing portal (spec §2 Billing). */
export default function BillingPage() {
  const { user } = useAuth();
  const plans = usePlans();
  const checkout = useCreateCheckout();
  const portal = useBillingPortal();
  const usage = useBillingUsage({ enabled: Boolean(user) });
  const [pendingPlanId, setPendingPlanId] = React.useState<PlanId | null>(null);

  React.useEffect(() => {
    if (plans.isError) {
      toast({ title: 'Error', description: 'Failed to load pricing plans', variant: 'destructive' });
    }
  }, [plans.isError]);

  if (!user) {
    return (
      <Card className="mx-auto max-w-md text-center">
        <CardHeader>
          <Lock className="mx-auto size-8" aria-hidden="true" />
          <CardTitle>
            <h1 className="text-xl">Authentication Required</h1>
          </CardTitle>
          <CardDescription>Please log in to manage your billing.</CardDescription>
        </CardHeader>
      </Card>
    );
  }

  const upgrade = async (planId: PlanId) => {
    setPendingPlanId(planId);
    try {
      const { url } = await checkout.mutateAsync(planId);
      window.location.href = url;
    } catch (err) {
      toastProviderError(err, 'checkout');
      setPendingPlanId(null);
    }
  };

  const openPortal = async () => {
    try {
      const { url } = await portal.mutateAsync();
      window.open(url, '_blank', 'noopener,noreferrer');
    } catch (err) {
      toastProviderError(err, 'portal');
    }
  };

  const header = <PageHeader title="Billing" description="Manage your subscription, plan and payment details." />;

  if (user.plan === 'unlimited') {
    return (
      <div className="space-y-6">
        {header}
        <UnlimitedPlanCard />
      </div>
    );
  }

  const currentPlan = plans.data?.[user.plan];
  // Only plans above the current one are offered (a Pro account is never offered Starter).
  const otherPlans = purchasablePlans(plans.data).filter(
    (plan) => plan.id !== user.plan && (!currentPlan || plan.price > currentPlan.price),
  );
  // BILLING=off (self-hosting): nobody pays, so nothing invites an upgrade.
  const billingEnabled = usage.data?.billingEnabled ?? true;

  return (
    <div className="space-y-6">
      {header}
      <Tabs defaultValue="current" className="gap-4">
        <TabsList className="h-auto w-full flex-wrap sm:w-fit">
          <TabsTrigger value="current">Current Plan</TabsTrigger>
          {billingEnabled && <TabsTrigger value="upgrade">Upgrade Plans</TabsTrigger>}
          {billingEnabled && <TabsTrigger value="portal">Billing Portal</TabsTrigger>}
        </TabsList>
        <TabsContent value="current">
          {plans.isLoading ? (
            <Skeleton className="h-80 rounded-xl" />
          ) : (
            <CurrentPlanTab user={user} plan={currentPlan} usage={usage.data} />
          )}
        </TabsContent>
        <TabsContent value="upgrade">
          {plans.isLoading ? (
            <Skeleton className="h-80 rounded-xl" />
          ) : (
            <UpgradePlansTab plans={otherPlans} pendingPlanId={pendingPlanId} onUpgrade={(id) => void upgrade(id)} />
          )}
        </TabsContent>
        <TabsContent value="portal">
          <BillingPortalTab pending={portal.isPending} onOpen={() => void openPortal()} />
        </TabsContent>
      </Tabs>
    </div>
  );
}
