import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A local HTTP server that answers like Stripe's API (https://docs.stripe.com/api) for exactly the
 * calls Sendwell makes: customers.create, checkout.sessions.create, billing_portal.sessions.create,
 * subscriptions.retrieve and subscriptions.update. The SDK reaches it through STRIPE_API_BASE. It
 * records every call (form parameters flattened as Stripe encodes them, e.g. `line_items[0][price]`)
 * and replays the first answer for a repeated Idempotency-Key, as Stripe does.
 *
 * Every JSON answer is written with `satisfies` against the stripe SDK's own types (the fields the
 * fake sets, picked from Stripe.Customer, Stripe.Checkout.Session, Stripe.BillingPortal.Session,
 * Stripe.Subscription), so `npm run typecheck` fails when the fake's shapes drift from Stripe's.
 *
 * For the browser tests (e2e/global-setup.ts runs it on a fixed port in another process) it also
 * serves the hosted pages the session urls point to (a paid checkout lands on its success_url, the
 * portal on its return_url) and one test-control route, `POST /__fake/subscriptions` (JSON
 * {email, price, status}), that stores a subscription for the customer created for that email.
 */
export type FakeStripeCall = {
  method: string;
  path: string;
  params: Record<string, string>;
  idempotencyKey: string | undefined;
};

/** The fields of a Stripe.Subscription the fake holds, each typed as the SDK types it. */
export type FakeSubscription = Pick<
  Stripe.Subscription,
  'id' | 'object' | 'status' | 'metadata' | 'trial_start' | 'trial_end' | 'created'
> & {
  customer: Extract<Stripe.Subscription['customer'], string>;
  items: Pick<Stripe.ApiList<Stripe.SubscriptionItem>, 'object'> & {
    data: (Pick<Stripe.SubscriptionItem, 'id' | 'object'> & { price: Pick<Stripe.Price, 'id' | 'object'> })[];
  };
};

export type FakeStripe = {
  /** STRIPE_API_BASE for the app's config. */
  apiBase: string;
  calls: FakeStripeCall[];
  subscriptions: Map<string, FakeSubscription>;
  /** Stores a subscription as Stripe would hold it (what a checkout would have created). */
  putSubscription(input: {
    customer: string;
    price: string;
    status?: Stripe.Subscription.Status;
    trialEnd?: Date | null;
    id?: string;
    metadata?: Record<string, string>;
  }): FakeSubscription;
  close(): Promise<void>;
};

let counter = 0;
const nextId = (prefix: string) => `${prefix}_test${Date.now().toString(36)}${(counter += 1)}`;

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function stripeError(status: number, message: string, code = 'resource_missing') {
  return { status, body: { error: { type: 'invalid_request_error', code, message } } };
}

export async function startFakeStripe(options: { port?: number } = {}): Promise<FakeStripe> {
  const calls: FakeStripeCall[] = [];
  // Hosted pages: where a session's url leads once "paid" (success_url) or left (return_url).
  const hostedPages = new Map<string, string>();
  const customersByEmail = new Map<string, string>();
  let apiBase = '';
  const subscriptions = new Map<string, FakeSubscription>();
  const replies = new Map<string, { status: number; body: unknown }>();

  const putSubscription: FakeStripe['putSubscription'] = (input) => {
    const now = Math.floor(Date.now() / 1000);
    const trialEnd =
      input.trialEnd === undefined ? null : input.trialEnd && Math.floor(input.trialEnd.getTime() / 1000);
    const subscription: FakeSubscription = {
      id: input.id ?? nextId('sub'),
      object: 'subscription',
      customer: input.customer,
      status: input.status ?? (trialEnd ? 'trialing' : 'active'),
      items: {
        object: 'list',
        data: [{ id: nextId('si'), object: 'subscription_item', price: { id: input.price, object: 'price' } }],
      },
      metadata: input.metadata ?? {},
      trial_start: trialEnd ? now : null,
      trial_end: trialEnd,
      created: now,
    };
    subscriptions.set(subscription.id, subscription);
    return subscription;
  };

  function answer(call: FakeStripeCall): { status: number; body: unknown } {
    const { method, path, params } = call;
    if (method === 'POST' && path === '/v1/customers') {
      const customer = {
        id: nextId('cus'),
        object: 'customer',
        email: params['email'] ?? null,
        metadata: {},
      } satisfies Pick<Stripe.Customer, 'id' | 'object' | 'email' | 'metadata'>;
      if (customer.email) customersByEmail.set(customer.email, customer.id);
      return { status: 200, body: customer };
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      if (params['mode'] !== 'subscription' || !params['line_items[0][price]']) {
        return stripeError(400, 'Missing required param: line_items[0][price].', 'parameter_missing');
      }
      const id = nextId('cs');
      const session = {
        id,
        object: 'checkout.session',
        mode: 'subscription',
        customer: params['customer'] ?? null,
        client_reference_id: params['client_reference_id'] ?? null,
        status: 'open',
        success_url: params['success_url'] ?? null,
        cancel_url: params['cancel_url'] ?? null,
        url: `${apiBase}/c/pay/${id}`,
      } satisfies Pick<
        Stripe.Checkout.Session,
        'id' | 'object' | 'mode' | 'customer' | 'client_reference_id' | 'status' | 'success_url' | 'cancel_url' | 'url'
      >;
      if (session.success_url) {
        hostedPages.set(`/c/pay/${id}`, session.success_url.replace('{CHECKOUT_SESSION_ID}', id));
      }
      return { status: 200, body: session };
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      if (!params['customer']) return stripeError(400, 'Missing required param: customer.', 'parameter_missing');
      const id = nextId('bps');
      const portal = {
        id,
        object: 'billing_portal.session',
        customer: params['customer'],
        return_url: params['return_url'] ?? null,
        url: `${apiBase}/p/session/${id}`,
      } satisfies Pick<Stripe.BillingPortal.Session, 'id' | 'object' | 'customer' | 'return_url' | 'url'>;
      if (portal.return_url) hostedPages.set(`/p/session/${id}`, portal.return_url);
      return { status: 200, body: portal };
    }
    const subscriptionPath = /^\/v1\/subscriptions\/([^/]+)$/.exec(path);
    if (subscriptionPath) {
      const subscription = subscriptions.get(decodeURIComponent(subscriptionPath[1] ?? ''));
      if (!subscription) return stripeError(404, `No such subscription: '${subscriptionPath[1]}'`);
      if (method === 'GET') return { status: 200, body: subscription };
      if (method === 'POST') {
        const itemId = params['items[0][id]'];
        const price = params['items[0][price]'];
        const item = subscription.items.data.find((candidate) => candidate.id === itemId);
        if (price && !item) return stripeError(400, `No such subscription item: '${itemId}'`);
        if (item && price) item.price = { id: price, object: 'price' };
        for (const [key, value] of Object.entries(params)) {
          const metadataKey = /^metadata\[(.+)\]$/.exec(key)?.[1];
          if (metadataKey) subscription.metadata[metadataKey] = value;
        }
        return { status: 200, body: subscription };
      }
    }
    return stripeError(404, `Unrecognized request URL (${method}: ${path}).`, 'unrecognized_url');
  }

  const server: Server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://fake-stripe');
      const body = await readBody(request);
      const hosted = request.method === 'GET' ? hostedPages.get(url.pathname) : undefined;
      if (hosted) {
        response.writeHead(303, { location: hosted });
        response.end();
        return;
      }
      if (request.method === 'POST' && url.pathname === '/__fake/subscriptions') {
        const input = JSON.parse(body) as { email: string; price: string; status?: Stripe.Subscription.Status };
        const customer = customersByEmail.get(input.email);
        const reply = customer
          ? { status: 200, body: putSubscription({ customer, price: input.price, status: input.status ?? 'active' }) }
          : stripeError(404, `No customer for ${input.email}`);
        response.writeHead(reply.status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(reply.body));
        return;
      }
      const params = Object.fromEntries(new URLSearchParams(request.method === 'GET' ? url.search : body));
      const header = request.headers['idempotency-key'];
      const idempotencyKey = typeof header === 'string' ? header : undefined;
      const call = { method: request.method ?? 'GET', path: url.pathname, params, idempotencyKey };
      calls.push(call);
      let reply = idempotencyKey ? replies.get(`${call.path}\n${idempotencyKey}`) : undefined;
      if (!reply) {
        reply = request.headers.authorization?.startsWith('Bearer sk_')
          ? answer(call)
          : stripeError(401, 'Invalid API Key provided', 'api_key_invalid');
        if (idempotencyKey) replies.set(`${call.path}\n${idempotencyKey}`, reply);
      }
      response.writeHead(reply.status, { 'content-type': 'application/json', 'request-id': nextId('req') });
      response.end(JSON.stringify(reply.body));
    })();
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  apiBase = `http://127.0.0.1:${port}`;
  return {
    apiBase,
    calls,
    subscriptions,
    putSubscription,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A webhook call's body and Stripe-Signature header for an event, signed as Stripe signs (optionally at another time). */
export function signedStripeEvent(
  secret: string,
  event: { id: string; type: string; object: Record<string, unknown>; created?: number },
  timestamp: number = Math.floor(Date.now() / 1000),
): { payload: string; signature: string } {
  const payload = JSON.stringify({
    id: event.id,
    object: 'event',
    api_version: '2025-01-01',
    created: event.created ?? timestamp,
    type: event.type,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object: event.object },
  });
  const signature = new Stripe('sk_test_signing').webhooks.generateTestHeaderString({ payload, secret, timestamp });
  return { payload, signature };
}
