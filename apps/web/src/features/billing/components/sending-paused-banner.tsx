import { CreditCard } from 'lucide-react';
import { Link } from 'wouter';

import { Button } from '@/components/ui/button';
import { useBillingUsage } from '../api/use-billing';

/**
 * Shown above every signed-in page while billing pauses sending (a trial that ended, a canceled or
 * long past_due subscription, or the month's emails used up, when forwards wait): everything stays
 * readable, and Billing is one click away.
 */
export function SendingPausedBanner() {
  const usage = useBillingUsage();
  const reason = usage.data?.sendingPausedReason;
  if (!reason) return null;
  return (
    <div
      role="status"
      className="flex flex-col gap-3 rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-950 sm:flex-row sm:items-center sm:justify-between dark:border-red-900 dark:bg-red-950/50 dark:text-red-100"
    >
      <p className="flex items-start gap-2">
        <CreditCard className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <span>{reason}</span>
      </p>
      <Button size="sm" variant="outline" className="shrink-0" asChild>
        <Link href="/billing">Go to Billing</Link>
      </Button>
    </div>
  );
}
