import { useMutation, useQuery } from '@tanstack/react-query';
import type { BillingUsage, PlanId } from '@sendwell/contract/billing';

import { apiJson, getApiErrorMessage } from '@/lib/api';
import { toastError } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';

interface UrlResponse {
  url: string;
}

/** POST /api/payment/create-checkout {planId} → {url} of the provider's checkout page. */
export function useCreateCheckout() {
  return useMutation({
    mutationFn: (planId: PlanId) => apiJson<UrlResponse>('POST', '/api/payment/create-checkout', { planId }),
  });
}

/** POST /api/payment/billing-portal → {url} of the provider's customer portal. */
export function useBillingPortal() {
  return useMutation({
    mutationFn: () => apiJson<UrlResponse>('POST', '/api/payment/billing-portal'),
  });
}

/**
 * Shows a failed checkout or portal call (spec §8): a message containing 'not configured' is the
 * 'Development Mode' notice; anything else an 'Error' toast with the answer's error field, else the fallback.
 */
export function toastProviderError(error: unknown, kind: 'checkout' | 'portal'): void {
  if (isNotConfiguredMessage(getApiErrorMessage(error))) {
    toast({
      title: 'Development Mode',
      description:
        kind === 'checkout'
          ? 'Stripe checkout not configured in development.'
          : 'Billing portal not configured in development.',
      variant: 'default',
    });
    return;
  }
  toastError(error, kind === 'checkout' ? 'Failed to create checkout session' : 'Failed to open billing portal');
}

/** True when the provider is not configured (the server answers 503 'not configured'). */
export function isNotConfiguredMessage(message: string | undefined): boolean {
  return typeof message === 'string' && message.includes('not configured');
}

/** GET /api/billing/usage: each plan limit against the account's use, and why sending is paused. */
const BILLING_USAGE_KEY = ['/api/billing/usage'] as const;

export function useBillingUsage(options: { enabled?: boolean } = {}) {
  return useQuery<BillingUsage>({ queryKey: BILLING_USAGE_KEY, enabled: options.enabled ?? true });
}
