import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

// One fresh embedded database per run; workers inherit the variable from the main process.
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'sendwell-e2e-'));
// A port per run (from the pid) so two runs on one machine do not collide; workers inherit it.
process.env.E2E_PORT ??= String(5100 + (process.pid % 800));
const port = Number(process.env.E2E_PORT);
// The local DNS server of e2e/global-setup.ts (UDP and TCP), likewise a port per run.
process.env.E2E_DNS_PORT ??= String(6100 + (process.pid % 800));
// The inbound SMTP server (aliases receive mail directly), likewise a port per run.
process.env.E2E_INBOUND_SMTP_PORT ??= String(7100 + (process.pid % 800));
// The local lead providers (Google Places) of e2e/global-setup.ts, likewise a port per run.
process.env.E2E_PROVIDERS_PORT ??= String(8100 + (process.pid % 800));
const providersBase = `http://127.0.0.1:${process.env.E2E_PROVIDERS_PORT}`;
// The local fake Stripe of e2e/global-setup.ts (apps/server/test/fake-stripe.ts), likewise a port per run.
process.env.E2E_STRIPE_PORT ??= String(9100 + (process.pid % 800));

/** Browser tests: Debian's Chromium (never a downloaded browser) against the built app on PGlite. */
export default defineConfig({
  testDir: 'e2e',
  // Every test signs up an account of its own and publishes DNS records in its worker's own file
  // (e2e/global-setup.ts), so files run side by side; E2E_WORKERS sets how many. Two on the 2-core
  // machine: 47 tests in 718 s, where one worker took 1303 s in the last full run (with a trace
  // recorded for every test, which also cost CPU).
  workers: Number(process.env.E2E_WORKERS ?? 2),
  // In CI a test that fails is run once more and, if it then passes, reported as flaky in the log
  // (Playwright's own advice for CI): single timing flakes on a slow shared machine kept whole
  // sessions' work from landing. Locally a failure stays a failure.
  retries: process.env.CI ? 1 : 0,
  // The longest flows check up to ten screens with axe; on this host, whose speed swings
  // about twofold from hour to hour, the sign-up flow once ran past 60 s (a functional test, not a timed one).
  timeout: 120_000,
  // An assertion waits for the state it names, up to this long: a reloaded report page drew its chart
  // 5 s after the reload on this host under load (a retry in two workers), and waiting longer costs a
  // passing test nothing.
  expect: { timeout: 15_000 },
  // The JSON report lets npm test (scripts/test.mjs) name every test that passed only on its retry.
  reporter: [[process.env.CI ? 'line' : 'list'], ['json', { outputFile: 'test-results/playwright-report.json' }]],
  outputDir: 'test-results',
  globalSetup: './e2e/global-setup.ts',
  use: {
    baseURL: `http://localhost:${port}`,
    // Recording a trace streams the page's frames for the whole test: on two specs it cost a quarter of
    // the CPU (269 s against 198 s, 177 s against 148 s of wall time; Chromium's GPU and browser
    // processes). CI records only a retry, Playwright's advice; a failure locally keeps its trace.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      // Chromium's headless shell (Debian's chromium-headless-shell): the same engine without the
      // browser's window and GPU processes; the browser tests took 9% less CPU in it than in the full
      // browser (137 against 150 CPU-s on three spec files).
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  // The server as npm start runs it, from its bundle, built here: Playwright starts the web server
  // before globalSetup runs.
  webServer: {
    command: 'node scripts/build-server.mjs && node apps/server/dist/main.mjs',
    url: `http://localhost:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      PORT: String(port),
      DATA_DIR: process.env.E2E_DATA_DIR,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      PUBLIC_URL: `http://localhost:${port}`,
      UNLIMITED_EMAILS: 'owner@e2e.test',
      DNS_SERVERS: `127.0.0.1:${process.env.E2E_DNS_PORT}`,
      SPF_INCLUDE: 'include:_spf.sendwell.e2e.test',
      // Domains in the browser tests are *.test names, which the public suffix list does not hold.
      ALLOW_TEST_DOMAINS: 'true',
      // Email Forwarding shows the MX record to publish only when an inbound SMTP server runs.
      INBOUND_SMTP_PORT: process.env.E2E_INBOUND_SMTP_PORT,
      INBOUND_SMTP_HOST: '127.0.0.1',
      INBOUND_MX_HOST: 'mx.sendwell.e2e.test',
      // Lead generation searches the local providers, never the real ones.
      GOOGLE_PLACES_API_BASE: providersBase,
      YELP_API_BASE: providersBase,
      HUNTER_API_BASE: providersBase,
      // Stripe is the local fake (e2e/global-setup.ts); tests drive subscription states through
      // webhook events signed with this secret (e2e/support.ts E2E_STRIPE).
      STRIPE_API_BASE: `http://127.0.0.1:${process.env.E2E_STRIPE_PORT}`,
      STRIPE_SECRET_KEY: 'sk_test_e2e',
      STRIPE_WEBHOOK_SECRET: 'whsec_e2e',
      STRIPE_PRICE_STARTER: 'price_e2e_starter',
      STRIPE_PRICE_PRO: 'price_e2e_pro',
      STRIPE_PRICE_ENTERPRISE: 'price_e2e_enterprise',
    },
  },
});
