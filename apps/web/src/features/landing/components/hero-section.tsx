import { Link } from 'wouter';
import { ArrowRight, ShieldCheck } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { DashboardPreview } from './dashboard-preview';

/** Hero: the headline for technically minded marketers, 'Get Started Free' and the dashboard preview. */
export function HeroSection() {
  return (
    <section aria-labelledby="hero-title" className="relative isolate overflow-hidden">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute -top-48 left-1/2 -z-10 h-[32rem] w-[64rem] max-w-[200%] -translate-x-1/2 rounded-full bg-indigo-200/50 blur-3xl dark:bg-indigo-900/30"
      />
      <div className="mx-auto max-w-7xl px-4 pt-16 pb-12 text-center sm:px-6 sm:pt-24 lg:px-8">
        <p className="bg-background mx-auto mb-6 inline-flex items-center gap-2 rounded-full border px-3 py-1 text-sm shadow-xs">
          <ShieldCheck className="size-4 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
          Custom domains get 41.8% higher open rates
        </p>
        <h1 id="hero-title" className="mx-auto max-w-4xl text-4xl font-bold tracking-tight text-balance sm:text-6xl">
          Email marketing for people who <span className="text-indigo-600 dark:text-indigo-400">read the headers</span>
        </h1>
        <p className="text-muted-foreground mx-auto mt-6 max-w-2xl text-lg text-balance">
          Send from your own domain with SPF, DKIM and DMARC done right, warm it up automatically, and build campaigns,
          sequences and segments without fighting your tools.
        </p>
        <div className="mt-8 flex flex-col items-center justify-center gap-3 sm:flex-row">
          <Button asChild size="lg" className="w-full sm:w-auto">
            <Link href="/signup">
              Get Started Free
              <ArrowRight aria-hidden="true" />
            </Link>
          </Button>
          <Button asChild size="lg" variant="outline" className="w-full sm:w-auto">
            <a href="#pricing">View pricing</a>
          </Button>
        </div>
        <p className="text-muted-foreground mt-4 text-sm">
          14-day free trial • No credit card required • Cancel anytime
        </p>
        <div className="mt-14">
          <DashboardPreview />
        </div>
      </div>
    </section>
  );
}
