import * as React from 'react';
import { useSearch } from 'wouter';
import { ArrowRight, Info } from 'lucide-react';

import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { getApiErrorMessage, getApiErrorStatus } from '@/lib/api';
import { toast } from '@/lib/use-toast';
import { AuthPageLayout } from '@/features/auth/components/auth-page-layout';
import { SignupForm } from '@/features/auth/components/signup-form';
import { isNotConfiguredMessage, useCreateCheckout } from '@/features/billing/api/use-billing';
import {
  isPurchasablePlanId,
  purchasablePlans,
  usePlans,
  type PurchasablePlanId,
} from '@/features/billing/api/use-plans';
import { PlanPicker } from '@/features/billing/components/plan-picker';

/** Default plan of sign-up (spec §9). */
const DEFAULT_PLAN: PurchasablePlanId = 'pro';
/** Wait before leaving for / when checkout is not configured (spec §9). */
const DEV_MODE_REDIRECT_MS = 2000;

/** A plan preselected by a link such as /signup?plan=starter, else 'pro'. */
function planFromSearch(search: string): PurchasablePlanId {
  const requested = new URLSearchParams(search).get('plan');
  return isPurchasablePlanId(requested) ? requested : DEFAULT_PLAN;
}

/**
 * /signup: step 1 chooses a plan, step 2 creates the account, then the browser is handed to the
 * payment provider's checkout.
 */
export default function SignupPage() {
  const search = useSearch();
  const plans = usePlans();
  const checkout = useCreateCheckout();
  const [selected, setSelected] = React.useState<PurchasablePlanId>(() => planFromSearch(search));
  const [step, setStep] = React.useState<'plan' | 'account'>('plan');
  const [handingOver, setHandingOver] = React.useState(false);
  const [devModeNotice, setDevModeNotice] = React.useState(false);

  const available = purchasablePlans(plans.data);
  const plan = available.find((p) => p.id === selected);

  React.useEffect(() => {
    if (plans.isError) {
      toast({ title: 'Error', description: 'Failed to load pricing plans', variant: 'destructive' });
    }
  }, [plans.isError]);

  const startCheckout = async (planId: PurchasablePlanId) => {
    setHandingOver(true);
    try {
      const { url } = await checkout.mutateAsync(planId);
      window.location.href = url;
    } catch (err) {
      if (getApiErrorStatus(err) === 503 || isNotConfiguredMessage(getApiErrorMessage(err))) {
        toast({ title: 'Development Mode', description: 'Stripe checkout not configured in development.' });
        setDevModeNotice(true);
        setTimeout(() => {
          window.location.href = '/';
        }, DEV_MODE_REDIRECT_MS);
      } else {
        window.location.href = '/';
      }
    }
  };

  if (step === 'account' && plan) {
    return (
      <AuthPageLayout>
        {devModeNotice && (
          <Alert className="mb-4">
            <Info aria-hidden="true" />
            <AlertTitle>Payment provider not configured</AlertTitle>
            <AlertDescription>
              Stripe checkout is not configured in this environment, so no payment is taken. Taking you to your
              dashboard...
            </AlertDescription>
          </Alert>
        )}
        <SignupForm
          plan={{ id: selected, name: plan.name, price: plan.price }}
          onBack={() => setStep('plan')}
          busy={handingOver}
          onSignedUp={() => void startCheckout(selected)}
        />
      </AuthPageLayout>
    );
  }

  return (
    <AuthPageLayout wide>
      <div className="space-y-8">
        <div className="space-y-2 text-center">
          <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Choose Your Plan</h1>
          <p className="text-muted-foreground">14-day free trial • No credit card required • Cancel anytime</p>
        </div>
        {plans.isLoading ? (
          <div className="grid gap-4 md:grid-cols-3" aria-busy="true">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} className="h-80 rounded-xl" />
            ))}
          </div>
        ) : plans.isError || available.length === 0 ? (
          <div className="space-y-4 text-center">
            <p className="text-muted-foreground">We couldn't load the plans.</p>
            <Button variant="outline" onClick={() => void plans.refetch()}>
              Try again
            </Button>
          </div>
        ) : (
          <>
            <PlanPicker
              plans={available}
              selected={selected}
              onSelect={(id) => {
                if (isPurchasablePlanId(id)) setSelected(id);
              }}
            />
            <div className="flex justify-center">
              <Button
                size="lg"
                className="w-full sm:w-auto"
                disabled={!plan}
                onClick={() => {
                  setStep('account');
                  window.scrollTo({ top: 0 });
                }}
              >
                {`Continue with ${plan?.name ?? ''} Plan`}
                <ArrowRight aria-hidden="true" />
              </Button>
            </div>
          </>
        )}
      </div>
    </AuthPageLayout>
  );
}
