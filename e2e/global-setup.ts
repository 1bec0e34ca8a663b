import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startDnsServerFor, type Zone } from '../apps/server/test/dns-server.ts';

/** The records file the local DNS server answers from: `{ "name": ["TXT value", ...] }`, re-read on every question. */
export function dnsRecordsFile(): string {
  return path.join(process.env.E2E_DATA_DIR ?? '.', 'dns-records.json');
}

function readZone(): Zone {
  try {
    return JSON.parse(readFileSync(dnsRecordsFile(), 'utf8')) as Zone;
  } catch {
    return {};
  }
}

/**
 * Starts the DNS server the e2e app resolves through (DNS_SERVERS in playwright.config.ts) on
 * E2E_DNS_PORT; tests publish records by writing the records file. Answers its own teardown.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const port = Number(process.env.E2E_DNS_PORT ?? 5399);
  const server = await startDnsServerFor(readZone, { port });
  return () => server.close();
}
