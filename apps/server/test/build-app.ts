import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { loadConfig, type Config } from '../src/config.ts';
import { buildApp } from '../src/app.ts';
import { createAppContext, type RunningContext } from '../src/app-context.ts';
import { createTestDatabase } from './test-database.ts';
import type { Database } from '../src/db/client.ts';
import { accountConfirmationLink } from '../src/modules/auth/auth.service.ts';
import { senderConfirmationLink } from '../src/modules/sender-addresses/sender-addresses.service.ts';

export type TestApp = {
  app: FastifyInstance;
  ctx: RunningContext;
  /** A client that keeps its own cookie jar, like one browser. */
  client(): TestClient;
};

export type TestClient = {
  request(options: InjectOptions): Promise<LightMyRequestResponse>;
  get(url: string): Promise<LightMyRequestResponse>;
  post(url: string, payload?: unknown): Promise<LightMyRequestResponse>;
  patch(url: string, payload?: unknown): Promise<LightMyRequestResponse>;
  put(url: string, payload?: unknown): Promise<LightMyRequestResponse>;
  delete(url: string): Promise<LightMyRequestResponse>;
  cookie(): string | undefined;
};

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    SESSION_SECRET: 'test-secret-test-secret-test-secret-0123',
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://localhost:5000',
    // Uploads and other files of a test run go to a scratch directory, never the repo's ./data.
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'sendwell-test-data-')),
    // Tests add domains under the reserved names (acme.example, *.e2e.test), not on the public suffix list.
    ALLOW_TEST_DOMAINS: 'true',
    ...overrides,
  });
}

/**
 * Builds the app on a fresh database for the current test file and closes both afterwards.
 * Call at the top of a describe block; use the returned getter inside tests.
 */
export function useTestApp(
  env: Record<string, string> | (() => Record<string, string>) = {},
  options: { database?: () => Promise<{ database: Database; drop: () => Promise<void> }> } = {},
): () => TestApp {
  let testApp: TestApp | undefined;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const created = await (options.database ?? createTestDatabase)();
    drop = created.drop;
    const config = testConfig(typeof env === 'function' ? env() : env);
    const ctx = await createAppContext({
      config,
      database: created.database,
      runWorkers: false,
      smtpConnections: 5,
      log: () => undefined,
    });
    const app = await buildApp(ctx, { logger: false, serveWebApp: false });
    await app.ready();
    testApp = { app, ctx, client: () => makeClient(app) };
  });
  afterAll(async () => {
    await testApp?.app.close();
    // pg-boss has reported it stopped (its pool closed) before the database is dropped.
    await testApp?.ctx.close({ graceful: false });
    await drop?.();
  });
  return () => {
    if (!testApp) throw new Error('test app not ready');
    return testApp;
  };
}

let ipCounter = 0;

function makeClient(app: FastifyInstance): TestClient {
  let cookie: string | undefined;
  // Each client gets its own address so per-IP limits of one test do not leak into another.
  ipCounter += 1;
  const remoteAddress = `10.0.${Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`;
  const request = async (options: InjectOptions) => {
    const headers = { ...(options.headers ?? {}), ...(cookie ? { cookie } : {}) };
    const response = await app.inject({ remoteAddress, ...options, headers });
    const setCookie = response.cookies.find((c) => c.name === 'sendwell_session');
    if (setCookie) cookie = setCookie.value ? `sendwell_session=${setCookie.value}` : undefined;
    return response;
  };
  return {
    request,
    get: (url) => request({ method: 'GET', url }),
    post: (url, payload) =>
      request({ method: 'POST', url, ...(payload === undefined ? {} : { payload: payload as object }) }),
    patch: (url, payload) => request({ method: 'PATCH', url, payload: payload as object }),
    put: (url, payload) => request({ method: 'PUT', url, payload: payload as object }),
    delete: (url) => request({ method: 'DELETE', url }),
    cookie: () => cookie,
  };
}

/** The sender address every test account may send from unless a test asks otherwise (confirmed by its link). */
export const TEST_SENDER = 'news@acme.example';

/**
 * Follows a confirmation link the way its owner does: opens the page (which changes nothing), then
 * presses its button (a form POST). Answers the POST.
 */
export async function followConfirmationLink(client: TestClient, link: string): Promise<LightMyRequestResponse> {
  const url = new URL(link);
  const path = `${url.pathname}${url.search}`;
  const page = await client.get(path);
  if (page.statusCode !== 200) throw new Error(`confirmation page answered ${page.statusCode}: ${page.body}`);
  // A browser posts the page's form with its Origin (the page's referrer policy keeps it from being null).
  return client.request({
    method: 'POST',
    url: path,
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: url.origin },
    payload: '',
  });
}

/** Adds a sender address through the API and confirms it by its link; answers the address's id. */
export async function addConfirmedSender(testApp: TestApp, client: TestClient, email: string): Promise<number> {
  const added = await client.post('/api/sender-addresses', { email });
  if (added.statusCode !== 201) throw new Error(`adding ${email} failed: ${added.statusCode} ${added.body}`);
  const row = added.json() as { id: number; email: string };
  const confirmed = await followConfirmationLink(client, senderConfirmationLink(testApp.ctx.config, row));
  if (confirmed.statusCode !== 200) throw new Error(`confirming ${email} failed: ${confirmed.statusCode}`);
  return row.id;
}

/**
 * Signs up a fresh user through the API and returns the signed-in client. Like a real user, it
 * then follows the link that confirms the account's own address and confirms TEST_SENDER as a
 * sender address (each through its confirmation route, with the link the mail carries, made by the
 * same function); `confirmEmail: false` leaves the account unconfirmed, `senders` names other
 * addresses to confirm ([] for none).
 */
export async function signUpUser(
  testApp: TestApp,
  overrides: Partial<Record<'email' | 'password' | 'firstName' | 'lastName' | 'company' | 'plan', string>> & {
    confirmEmail?: boolean;
    senders?: string[];
  } = {},
) {
  const client = testApp.client();
  const password = overrides.password ?? 'lunar-lander-12';
  const email = overrides.email ?? `user-${Date.now()}-${ipCounter}@example.com`;
  const response = await client.post('/api/auth/signup', {
    email,
    password,
    confirmPassword: password,
    firstName: overrides.firstName ?? 'Ada',
    lastName: overrides.lastName ?? 'Lovelace',
    company: overrides.company ?? 'Analytical Engines',
    plan: overrides.plan ?? 'pro',
    planPrice: 49,
  });
  if (response.statusCode !== 201) throw new Error(`sign-up failed: ${response.statusCode} ${response.body}`);
  const user = response.json() as { id: string; email: string };
  if (overrides.confirmEmail !== false) {
    const confirmed = await followConfirmationLink(client, accountConfirmationLink(testApp.ctx.config, user));
    if (confirmed.statusCode !== 200) throw new Error(`confirming ${user.email} failed: ${confirmed.statusCode}`);
    for (const sender of overrides.senders ?? [TEST_SENDER]) await addConfirmedSender(testApp, client, sender);
  }
  return { client, email: email.toLowerCase(), password, user };
}
