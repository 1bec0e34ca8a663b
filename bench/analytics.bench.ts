// /analytics at the size (issue 31 part 7): an account with 1,000,000 campaign recipients and
// 10,000,000 events on Postgres. Prints the rollups' rebuild from those rows (what migration 0036's
// backfill does), GET /api/analytics/overview p50/p95 for 90 days (target p95 < 200 ms), and what
// the rollup trigger adds to recording one event.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { benchDatabase, percentile } from './support.ts';
import { signUp } from '../apps/server/src/modules/auth/auth.service.ts';
import { BENCH_LOGIN, runLoad, startSignedInApp } from './search-load.ts';

const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 1_000_000);
const EVENTS_PER_RECIPIENT = Number(process.env.BENCH_EVENTS_PER_RECIPIENT ?? 10);
const CAMPAIGNS = 20;
const DAYS = 90;
const ROLLUP_TRIGGERS = [
  ['campaign_sends', 'rollup_campaign_sends_sent'],
  ['campaign_sends', 'rollup_campaign_sends_sent_update'],
  ['email_events', 'rollup_email_events'],
  ['email_events', 'rollup_email_events_update'],
  ['contacts', 'rollup_contacts_added'],
] as const;

const dir = mkdtempSync(path.join(tmpdir(), 'sendwell-analytics-bench-'));
const { database, url: databaseUrl, drop } = await benchDatabase();
// Seeding and the rebuild run longer than the app's statement limit: one connection of their own, without it.
const seeder = new pg.Client({ connectionString: databaseUrl });
await seeder.connect();
const sql = async (text: string, values: unknown[] = []) => (await seeder.query(text, values)).rows as unknown[];
const timed = async (label: string, text: string, values: unknown[] = []) => {
  const start = performance.now();
  await sql(text, values);
  const seconds = (performance.now() - start) / 1000;
  console.log(`  ${label}: ${seconds.toFixed(1)} s`);
  return seconds;
};
const setRollupTriggers = async (on: boolean) => {
  for (const [table, trigger] of ROLLUP_TRIGGERS)
    await sql(`ALTER TABLE ${table} ${on ? 'ENABLE' : 'DISABLE'} TRIGGER ${trigger}`);
};

try {
  const { user } = await signUp(
    database.db,
    { ...BENCH_LOGIN, confirmPassword: BENCH_LOGIN.password, firstName: 'B', lastName: 'M', company: '', plan: 'pro' },
    { ip: null, userAgent: null },
  );
  console.log(
    `seeding ${RECIPIENTS.toLocaleString('en-US')} recipients of ${CAMPAIGNS} campaigns over ${DAYS} days and ` +
      `${(RECIPIENTS * EVENTS_PER_RECIPIENT).toLocaleString('en-US')} events (generate_series; rollup triggers off, then rebuilt):`,
  );
  // Seeded in bulk with the rollup triggers off (a row trigger-free bulk load), then counted by the
  // same rebuild the migration runs: the figure below is the backfill of an install this size.
  await setRollupTriggers(false);
  await timed(
    'contacts',
    `INSERT INTO contacts (user_id, email, created_at)
     SELECT $1, 'r' || i || '@example' || (i % 97) || '.com', now() - make_interval(days => ${DAYS + 30}) + (i % ${DAYS + 30}) * interval '1 day'
     FROM generate_series(1, $2) i`,
    [user.id, RECIPIENTS],
  );
  await timed(
    'campaigns and links',
    `WITH c AS (
       INSERT INTO campaigns (user_id, name, subject, from_email, status, sent_at, total_recipients, total_sent)
       SELECT $1, 'Campaign ' || k, 'Hi', 'news@' || (ARRAY['acme.example', 'mail.acme.example', 'promo.acme.example'])[1 + k % 3],
              'sent', now() - make_interval(days => ${DAYS}) + k * make_interval(days => ${Math.floor(DAYS / CAMPAIGNS)}), $2 / ${CAMPAIGNS}, $2 / ${CAMPAIGNS}
       FROM generate_series(0, ${CAMPAIGNS - 1}) k RETURNING id)
     INSERT INTO campaign_links (campaign_id, url) SELECT id, 'https://acme.example/p/' || id || '/' || j FROM c, generate_series(1, 3) j`,
    [user.id, RECIPIENTS],
  );
  await timed(
    'campaign_sends',
    `INSERT INTO campaign_sends (campaign_id, user_id, contact_id, email, status, sent_at)
     SELECT c.id, $1, ct.id, ct.email, 'sent', c.sent_at + (ct.rn % 3600) * interval '1 second'
     FROM (SELECT id, email, row_number() OVER (ORDER BY id) - 1 AS rn FROM contacts WHERE user_id = $1) ct
     JOIN (SELECT id, sent_at, row_number() OVER (ORDER BY id) - 1 AS k FROM campaigns WHERE user_id = $1) c
       ON c.k = ct.rn % ${CAMPAIGNS}`,
    [user.id],
  );
  // Each recipient's events: opens and clicks on the campaign's links (every first open a machine's,
  // and all of one recipient in four: Apple's proxy and link scanners), and a few bounces,
  // unsubscribes and complaints.
  await timed(
    'email_events',
    `INSERT INTO email_events (user_id, campaign_id, send_id, contact_id, type, machine, link_id, detail, created_at)
     SELECT s.user_id, s.campaign_id, s.id, s.contact_id,
            CASE WHEN k < 5 THEN 'open'
                 WHEN k = 9 AND s.id % 50 = 0 THEN 'bounce'
                 WHEN k = 9 AND s.id % 200 = 1 THEN 'unsubscribe'
                 WHEN k = 9 AND s.id % 1000 = 2 THEN 'complaint'
                 ELSE 'click' END,
            (k = 0 OR s.id % 4 = 0),
            CASE WHEN k >= 5 THEN l.first_link + k % 3 END,
            CASE WHEN k = 9 AND s.id % 50 = 0 THEN 'user unknown' END,
            s.sent_at + (k * 7 + s.id % 60) * interval '1 minute'
     FROM campaign_sends s
     JOIN (SELECT campaign_id, min(id) AS first_link FROM campaign_links GROUP BY campaign_id) l ON l.campaign_id = s.campaign_id
     CROSS JOIN generate_series(0, $2 - 1) k
     WHERE s.user_id = $1`,
    [user.id, EVENTS_PER_RECIPIENT],
  );
  await timed('ANALYZE', 'ANALYZE');
  const [counts] = (await sql(
    `SELECT (SELECT count(*) FROM campaign_sends)::int AS sends, (SELECT count(*) FROM email_events)::int AS events`,
  )) as { sends: number; events: number }[];
  console.log(
    `  rows: ${counts?.sends.toLocaleString('en-US')} sends, ${counts?.events.toLocaleString('en-US')} events`,
  );
  const rebuildSeconds = await timed(
    'analytics_rebuild_rollups() (the migration backfill)',
    'SELECT analytics_rebuild_rollups()',
  );
  await setRollupTriggers(true);
  const [rollupRows] = (await sql(
    `SELECT (SELECT count(*) FROM analytics_mail_daily)::int AS mail, (SELECT count(*) FROM analytics_contacts_daily)::int AS contacts,
            (SELECT count(*) FROM analytics_link_daily)::int AS links`,
  )) as { mail: number; contacts: number; links: number }[];
  console.log(
    `rollup rows: ${rollupRows?.mail} mail, ${rollupRows?.contacts} list, ${rollupRows?.links} link (backfill ${rebuildSeconds.toFixed(1)} s)`,
  );

  // What the trigger adds to recording an event: single-row inserts of an open, as tracking makes them.
  const oneEvent = async (n: number) => {
    const start = performance.now();
    for (let i = 0; i < n; i++)
      await sql(
        `INSERT INTO email_events (user_id, campaign_id, send_id, contact_id, type)
         SELECT user_id, campaign_id, id, contact_id, 'open' FROM campaign_sends WHERE id = (SELECT min(id) FROM campaign_sends) + $1`,
        [i * 37],
      );
    return (performance.now() - start) / n;
  };
  await setRollupTriggers(false);
  const without = await oneEvent(300);
  await setRollupTriggers(true);
  const withTrigger = await oneEvent(300);
  console.log(
    `recording one open event: ${withTrigger.toFixed(2)} ms with the rollup trigger, ${without.toFixed(2)} ms without (300 inserts each)`,
  );

  // The page's one request, over HTTP (session, route, serialisation), for the last 90 days.
  const { address, cookie, close } = await startSignedInApp(database, dir);
  const to = new Date().toISOString().slice(0, 10);
  const from = new Date(Date.now() - (DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
  const url = `/api/analytics/overview?from=${from}&to=${to}`;
  const one = await (await fetch(`${address}${url}`, { headers: { cookie } })).json();
  console.log(
    `overview for ${from}..${to}: sent ${one.totals.sent.toLocaleString('en-US')}, opened ${one.totals.opened.toLocaleString('en-US')}, ` +
      `machine ${one.totals.machineOpened.toLocaleString('en-US')}, clicked ${one.totals.clicked.toLocaleString('en-US')}, bounced ${one.totals.bounced.toLocaleString('en-US')}, ` +
      `${one.domains.length} domains, ${one.topCampaigns.length} top campaigns, ${one.topLinks.length} top links`,
  );
  const sequential: number[] = [];
  for (let i = 0; i < 200; i++) {
    const start = performance.now();
    const response = await fetch(`${address}${url}`, { headers: { cookie } });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`overview answered ${response.status}`);
    sequential.push(performance.now() - start);
  }
  console.log(
    `GET ${url}, one at a time (200): p50 ${percentile(sequential, 50).toFixed(1)} ms, p95 ${percentile(sequential, 95).toFixed(1)} ms (target p95 < 200 ms)`,
  );
  const { result, latencies } = await runLoad({
    address,
    cookie,
    connections: 10,
    seconds: 10,
    requests: [{ method: 'GET', path: url }],
  });
  console.log(
    `GET ${url}, 10 connections for 10 s: p50 ${percentile(latencies, 50).toFixed(0)} ms, p95 ${percentile(latencies, 95).toFixed(0)} ms, ` +
      `${Math.round(result.requests.average)} req/s, ${result.non2xx} non-2xx`,
  );
  await close();
} finally {
  await seeder.end();
  await drop();
  rmSync(dir, { recursive: true, force: true });
}
