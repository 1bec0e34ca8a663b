import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startDnsServerFor, type MxZone, type Zone } from '../apps/server/test/dns-server.ts';
import { startFakeStripe } from '../apps/server/test/fake-stripe.ts';
import { startFakeProviders } from './fake-providers.ts';

/** The records file the local DNS server answers from: `{ "name": ["TXT value", ...] }`, re-read on every question. */
export function dnsRecordsFile(): string {
  return path.join(process.env.E2E_DATA_DIR ?? '.', 'dns-records.json');
}

/**
 * The MX records file, beside the TXT one: `{ "name": [{ "exchange": "mx.host", "priority": 10 }] }`,
 * likewise re-read on every question (lead generation checks that found addresses' domains take mail).
 */
export function dnsMxRecordsFile(): string {
  return path.join(process.env.E2E_DATA_DIR ?? '.', 'dns-mx-records.json');
}

function readJson<T extends object>(file: string): T | Record<string, never> {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return {};
  }
}

/** The MX records the DNS server answers from: one object, refilled from the file on every question. */
const mxZone: MxZone = {};

function readZone(): Zone {
  for (const name of Object.keys(mxZone)) delete mxZone[name];
  for (const [name, records] of Object.entries(readJson<MxZone>(dnsMxRecordsFile()))) {
    mxZone[name.toLowerCase().replace(/\.$/, '')] = records;
  }
  return readJson<Zone>(dnsRecordsFile());
}

/**
 * Starts the DNS server the e2e app resolves through (DNS_SERVERS in playwright.config.ts) on
 * E2E_DNS_PORT, where tests publish records by writing the records files (TXT and MX); the local lead providers
 * (Google Places, Hunter) on E2E_PROVIDERS_PORT; and the fake Stripe the app's SDK calls (STRIPE_API_BASE)
 * on E2E_STRIPE_PORT. Answers their teardown.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const port = Number(process.env.E2E_DNS_PORT ?? 5399);
  const server = await startDnsServerFor(readZone, { port, mxZone });
  const providers = await startFakeProviders(Number(process.env.E2E_PROVIDERS_PORT ?? 8399));
  const stripe = await startFakeStripe({ port: Number(process.env.E2E_STRIPE_PORT ?? 8499) });
  return async () => {
    await new Promise<void>((resolve) => providers.close(() => resolve()));
    await stripe.close();
    await server.close();
  };
}
