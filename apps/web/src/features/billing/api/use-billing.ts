import { useMutation } from '@tanstack/react-query';
import type { PlanId } from '@sendwell/contract/pricing';

import { apiJson, getApiErrorMessage } from '@/lib/api';

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

export interface ProviderErrorToast {
  title: string;
  description: string;
  variant: 'default' | 'destructive';
}

/**
 * Toast for a failed checkout or portal call (spec §8): the answer's error field, else the fallback;
 * a message containing 'not configured' is development mode, anything else an 'Error'.
 */
export function providerErrorToast(error: unknown, kind: 'checkout' | 'portal'): ProviderErrorToast {
  const fallback = kind === 'checkout' ? 'Failed to create checkout session' : 'Failed to open billing portal';
  const message = getApiErrorMessage(error) ?? fallback;
  if (isNotConfiguredMessage(message)) {
    return {
      title: 'Development Mode',
      description:
        kind === 'checkout'
          ? 'Stripe checkout not configured in development.'
          : 'Billing portal not configured in development.',
      variant: 'default',
    };
  }
  return { title: 'Error', description: message, variant: 'destructive' };
}

/** True when the provider is not configured (the server answers 503 'not configured'). */
export function isNotConfiguredMessage(message: string | undefined): boolean {
  return typeof message === 'string' && message.includes('not configured');
}
