import type { Config } from '../../config.ts';
import { ProviderError } from '../../lib/app-error.ts';

/**
 * Starts a Stripe checkout. Without STRIPE_SECRET_KEY it answers 503 'Stripe checkout not
 * configured', the development mode the sign-up screen expects; the Stripe integration itself is
 * the billing issue's.
 */
export async function createCheckout(config: Config): Promise<never> {
  if (!config.stripe.secretKey) throw new ProviderError('Stripe checkout not configured');
  throw new ProviderError('Stripe checkout is configured but not available in this version');
}

/** Opens the Stripe billing portal; without STRIPE_SECRET_KEY, 503 'Billing portal not configured'. */
export async function openBillingPortal(config: Config): Promise<never> {
  if (!config.stripe.secretKey) throw new ProviderError('Billing portal not configured');
  throw new ProviderError('Billing portal is configured but not available in this version');
}
