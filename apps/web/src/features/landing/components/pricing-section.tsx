import * as React from 'react';

/** #pricing: heading and the plan cards passed in by the page. */
export function PricingSection({ children }: { children: React.ReactNode }) {
  return (
    <section id="pricing" aria-labelledby="pricing-title" className="bg-muted/40 border-y">
      <div className="mx-auto max-w-7xl px-4 py-20 sm:px-6 lg:px-8">
        <div className="mx-auto mb-12 max-w-2xl text-center">
          <p className="text-sm font-semibold tracking-wide text-indigo-700 uppercase dark:text-indigo-300">Pricing</p>
          <h2 id="pricing-title" className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">
            Simple, transparent pricing
          </h2>
          <p className="text-muted-foreground mt-4 text-lg">
            Start with a 14-day free trial. Upgrade, downgrade or cancel at any time.
          </p>
        </div>
        {children}
      </div>
    </section>
  );
}
