// Leads: (1) address checks — syntax, MX through the app's DNS module against a local DNS server
// with a warm cache, disposable/role/free-mail lists — target ≥ 5,000 addresses/min; (2) hosted form
// submissions with double opt-in — each stored and its confirmation mail queued (a pg-boss job,
// leads.form-confirmation) before the answer — target ≥ 200/s with p95 < 1 s.
// Postgres server (benchDatabase), the app in-process through Fastify's inject, 20 in flight.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app.ts';
import { createAppContext } from '../apps/server/src/app-context.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { dnsResolver } from '../apps/server/src/lib/dns.ts';
import { signUp } from '../apps/server/src/modules/auth/auth.service.ts';
import { checkAddress, MxCache } from '../apps/server/src/modules/leads/address-checks.ts';
import { createLeadSource } from '../apps/server/src/modules/leads/leads.service.ts';
import { startTestDnsServer } from '../apps/server/test/dns-server.ts';
import { benchDatabase, percentile, seededRandom } from './support.ts';

const ADDRESSES = Number(process.env.BENCH_ADDRESSES ?? 20_000);
const DOMAINS = 2_000;
const SUBMISSIONS = Number(process.env.BENCH_SUBMISSIONS ?? 2_000);
const IN_FLIGHT = 20;

async function addressChecks(): Promise<void> {
  const dns = await startTestDnsServer();
  try {
    for (let d = 0; d < DOMAINS; d += 1) {
      if (d % 10 === 0) dns.setMx(`parked${d}.example`, [{ exchange: '', priority: 0 }]);
      else dns.setMx(`company${d}.example`, [{ exchange: `mx.company${d}.example`, priority: 10 }]);
    }
    const random = seededRandom(21);
    const locals = ['jane', 'info', 'sales', 'j.smith', 'team', 'accounts', 'office', 'ron+leads'];
    const emails = Array.from({ length: ADDRESSES }, (_, i) => {
      const d = Math.floor(random() * DOMAINS);
      const domain =
        i % 50 === 0
          ? 'mailinator.com'
          : i % 7 === 0
            ? 'gmail.com'
            : d % 10 === 0
              ? `parked${d}.example`
              : `company${d}.example`;
      return `${locals[i % locals.length]}${i}@${domain}`;
    });
    const cache = new MxCache(dnsResolver([dns.server]));
    // Warm the cache: one look-up per domain.
    const warmStart = performance.now();
    await Promise.all(
      [...new Set(emails.map((e) => e.slice(e.indexOf('@') + 1)))].map((domain) => cache.lookup(domain)),
    );
    const warmSeconds = (performance.now() - warmStart) / 1000;
    const start = performance.now();
    let flagged = 0;
    for (const email of emails) {
      const check = await checkAddress(email, cache);
      if (check.disposable || check.role || check.freeMail || check.mail !== 'mx') flagged += 1;
    }
    const seconds = (performance.now() - start) / 1000;
    console.log(
      `address checks (warm MX cache): ${Math.round((ADDRESSES / seconds) * 60).toLocaleString('en-US')} addresses/min ` +
        `(target ≥ 5,000/min); ${ADDRESSES.toLocaleString('en-US')} in ${seconds.toFixed(2)} s, ${flagged.toLocaleString('en-US')} flagged; ` +
        `warming ${DOMAINS.toLocaleString('en-US')} domains over the local DNS server took ${warmSeconds.toFixed(1)} s`,
    );
  } finally {
    await dns.close();
  }
}

async function formSubmissions(): Promise<void> {
  const { database, drop } = await benchDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    SESSION_SECRET: 'bench-session-secret-0123456789abcdef0123456789abcdef',
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://localhost:5000',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'sendwell-bench-leads-')),
    LEAD_FORM_RATE_LIMIT_PER_MINUTE: '1000000',
  });
  const ctx = await createAppContext({ config, database, runWorkers: false, smtpConnections: 5, log: () => undefined });
  const app = await buildApp(ctx, { logger: false, serveWebApp: false });
  await app.ready();
  try {
    const { user } = await signUp(
      database.db,
      {
        email: 'bench-leads@example.com',
        password: 'lunar-lander-12',
        confirmPassword: 'lunar-lander-12',
        firstName: 'B',
        lastName: 'L',
        company: '',
        plan: 'pro',
      },
      { ip: null, userAgent: null },
    );
    const source = await createLeadSource(database.db, config, user.id, {
      type: 'form',
      name: 'Bench form',
      consentText: 'Send me the bench newsletter.',
      doubleOptIn: true,
    });
    const slug = String(source.settings.slug);
    const latencies: number[] = [];
    let next = 0;
    let failures = 0;
    const worker = async () => {
      while (next < SUBMISSIONS) {
        const i = next++;
        const started = performance.now();
        const response = await app.inject({
          method: 'POST',
          url: `/f/${slug}`,
          remoteAddress: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://site.example' },
          payload: new URLSearchParams({
            email: `reader${i}@company${i % 500}.example`,
            firstName: 'R',
            lastName: `N${i}`,
          }).toString(),
        });
        latencies.push(performance.now() - started);
        if (response.statusCode !== 200) failures += 1;
      }
    };
    const start = performance.now();
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    const seconds = (performance.now() - start) / 1000;
    const counted = await database.db.execute<{ submissions: number; mails: number }>(sql`
      SELECT (SELECT count(*)::int FROM lead_form_submissions) AS submissions,
             (SELECT count(*)::int FROM pgboss.job WHERE name = 'leads.form-confirmation') AS mails`);
    const row = (counted as unknown as { rows: { submissions: number; mails: number }[] }).rows[0];
    console.log(
      `form submissions (double opt-in, ${IN_FLIGHT} in flight): ${Math.round(SUBMISSIONS / seconds)} /s (target ≥ 200/s), ` +
        `p50 ${percentile(latencies, 50).toFixed(0)} ms, p95 ${percentile(latencies, 95).toFixed(0)} ms (target < 1,000 ms), ` +
        `${failures} not 200; stored ${row?.submissions ?? '?'} submissions, ${row?.mails ?? '?'} confirmation mails queued`,
    );
  } finally {
    await app.close();
    await ctx.close({ graceful: false });
    await drop();
  }
}

await addressChecks();
await formSubmissions();
