import * as React from 'react';

import { toast } from '@/lib/use-toast';
import { CustomDomainSection } from '@/features/landing/components/custom-domain-section';
import { DocsSection } from '@/features/landing/components/docs-section';
import { FeaturesSection } from '@/features/landing/components/features-section';
import { HeroSection } from '@/features/landing/components/hero-section';
import { LandingFooter } from '@/features/landing/components/landing-footer';
import { LandingHeader } from '@/features/landing/components/landing-header';
import { PricingSection } from '@/features/landing/components/pricing-section';
import { purchasablePlans, usePlans } from '@/features/billing/api/use-plans';
import { PricingPlansGrid } from '@/features/billing/components/pricing-plans-grid';

/** Public landing page (/ when signed out). */
export default function LandingPage() {
  const plans = usePlans();

  React.useEffect(() => {
    if (plans.isError) {
      toast({ title: 'Error', description: 'Failed to load pricing plans', variant: 'destructive' });
    }
  }, [plans.isError]);

  return (
    <div className="flex min-h-dvh flex-col">
      <LandingHeader />
      <main className="flex-1">
        <HeroSection />
        <CustomDomainSection />
        <FeaturesSection />
        <PricingSection>
          <PricingPlansGrid plans={purchasablePlans(plans.data)} isLoading={plans.isLoading} />
        </PricingSection>
        <DocsSection />
      </main>
      <LandingFooter />
    </div>
  );
}
