import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { startDnsServerFor, type MxZone, type Zone } from '../apps/server/test/dns-server.ts';
import { startFakeStripe } from '../apps/server/test/fake-stripe.ts';
import { startFakeProviders } from './fake-providers.ts';

/**
 * Tests publish DNS records by writing files the local DNS server re-reads on every question: one
 * file per Playwright worker (a worker runs one test at a time), so tests running side by side in
 * two workers never overwrite each other's records. The server answers from all of them.
 */
function recordsFileOf(kind: 'txt' | 'mx'): string {
  const dir = path.join(process.env.E2E_DATA_DIR ?? '.', `dns-${kind}`);
  mkdirSync(dir, { recursive: true });
  return path.join(dir, `worker-${process.env.TEST_WORKER_INDEX ?? 'main'}.json`);
}

/** This worker's TXT records file: `{ "name": ["TXT value", ...] }` (writing it replaces this worker's records). */
export function dnsRecordsFile(): string {
  return recordsFileOf('txt');
}

/**
 * This worker's MX records file, beside the TXT one: `{ "name": [{ "exchange": "mx.host", "priority": 10 }] }`
 * (lead generation checks that found addresses' domains take mail).
 */
export function dnsMxRecordsFile(): string {
  return recordsFileOf('mx');
}

/** Every worker's records of one kind, merged. */
function readAll<T extends object>(kind: 'txt' | 'mx'): Record<string, T> {
  const dir = path.dirname(recordsFileOf(kind));
  const merged: Record<string, T> = {};
  for (const file of readdirSync(dir)) {
    try {
      Object.assign(merged, JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Record<string, T>);
    } catch {
      // a file being written this instant: its records are there on the next question
    }
  }
  return merged;
}

/** The MX records the DNS server answers from: one object, refilled from the files on every question. */
const mxZone: MxZone = {};

function readZone(): Zone {
  for (const name of Object.keys(mxZone)) delete mxZone[name];
  for (const [name, records] of Object.entries(readAll<MxZone[string]>('mx'))) {
    mxZone[name.toLowerCase().replace(/\.$/, '')] = records;
  }
  return readAll<string[]>('txt');
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
