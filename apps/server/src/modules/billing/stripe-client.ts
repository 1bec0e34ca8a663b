import type Stripe from 'stripe';
import type { Config } from '../../config.ts';

const clients = new WeakMap<Config, Stripe>();

/** The Stripe SDK, loaded at the first billing call rather than at start. */
async function stripeSdk(): Promise<typeof Stripe> {
  return (await import('stripe')).default;
}

/**
 * The Stripe SDK for this configuration (one per config), or null without STRIPE_SECRET_KEY.
 * STRIPE_API_BASE sends its calls elsewhere (the tests' local fake Stripe).
 */
export async function stripeFor(config: Config): Promise<Stripe | null> {
  const key = config.stripe.secretKey;
  if (!key) return null;
  let client = clients.get(config);
  if (!client) {
    const base = config.stripe.apiBase;
    const StripeSdk = await stripeSdk();
    client = new StripeSdk(key, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      telemetry: false,
      ...(base ? { host: base.host, port: base.port, protocol: base.protocol } : {}),
    });
    clients.set(config, client);
  }
  return client;
}

/** Checks a webhook call's Stripe-Signature over its raw body (tolerance 300 s); throws when it does not match. */
export async function verifyStripeEvent(
  config: Config,
  rawBody: Buffer,
  signature: string,
  secret: string,
): Promise<Stripe.Event> {
  // Verifying needs no key; an installation with only the webhook secret still checks signatures.
  const client = (await stripeFor(config)) ?? new (await stripeSdk())('sk_unused_for_signature_checks');
  return client.webhooks.constructEvent(rawBody, signature, secret, WEBHOOK_TOLERANCE_SECONDS);
}

/** How old a webhook call's signed timestamp may be (Stripe's default, against replays). */
const WEBHOOK_TOLERANCE_SECONDS = 300;

export type { Stripe };
