// Segment counts and previews over 1,000,000 contacts on Postgres: a 3-rule AND and a 3-rule OR
// segment, count p95 (target < 300 ms) and first preview page p95 (target < 100 ms), with the
// shape of each EXPLAIN plan.
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { segmentConditionsSchema } from '@sendwell/contract/segments';
import { benchDatabase, percentile } from './support.ts';
import { signUp } from '../apps/server/src/modules/auth/auth.service.ts';
import { compileConditions } from '../apps/server/src/modules/segments/segments.repo.ts';
import { countMatching, firstMatching } from '../apps/server/src/modules/segments/segments.repo.ts';
import { contacts } from '../apps/server/src/db/schema/index.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const RUNS = 30;

const segments = {
  '3-rule AND': {
    operator: 'AND',
    rules: [
      { id: '1', field: 'engagementScore', operator: 'greater_equal', value: '75' },
      { id: '2', field: 'totalEmailsOpened', operator: 'greater_equal', value: '10' },
      { id: '3', field: 'location', operator: 'contains', value: 'york' },
    ],
  },
  '3-rule OR': {
    operator: 'OR',
    rules: [
      { id: '1', field: 'engagementScore', operator: 'greater_equal', value: '98' },
      { id: '2', field: 'jobTitle', operator: 'contains', value: 'chief' },
      { id: '3', field: 'tags', operator: 'tag_contains', value: 'VIP' },
    ],
  },
};

const { database, drop } = await benchDatabase();
try {
  const { user } = await signUp(
    database.db,
    {
      email: 'seg@example.com',
      password: 'bench-pass',
      confirmPassword: 'bench-pass',
      firstName: 'S',
      lastName: 'B',
      company: '',
      plan: 'pro',
    },
    { ip: null, userAgent: null },
  );
  // A second tenant's rows share the table, as in production.
  const { user: other } = await signUp(
    database.db,
    {
      email: 'other@example.com',
      password: 'bench-pass',
      confirmPassword: 'bench-pass',
      firstName: 'O',
      lastName: 'B',
      company: '',
      plan: 'pro',
    },
    { ip: null, userAgent: null },
  );
  const started = performance.now();
  for (const [owner, n] of [
    [user.id, ROWS],
    [other.id, Math.round(ROWS / 5)],
  ] as const) {
    await database.db.execute(sql`
      INSERT INTO contacts (user_id, email, first_name, last_name, company, job_title, location, tags, engagement_score, total_emails_opened, total_emails_clicked, created_at, last_activity_at)
      SELECT ${owner}, 'c' || i || '@example.com', 'First' || (i % 5000), 'Last' || (i % 7000), 'Company ' || (i % 3000),
             (ARRAY['Engineer','Chief Executive Officer','Designer','VP Sales','Analyst','Chief Technology Officer','Intern','Director'])[1 + (i * 7) % 8],
             (ARRAY['New York, USA','London, UK','Toronto, Canada','Berlin, Germany','Austin, USA','Sydney, Australia'])[1 + (i * 13) % 6],
             CASE WHEN i % 50 = 0 THEN ARRAY['vip','news'] WHEN i % 3 = 0 THEN ARRAY['news'] ELSE '{}'::text[] END,
             (i::bigint * 7919) % 101, (i::bigint * 104729) % 30, (i::bigint * 15485863) % 12,
             now() - ((i * 31) % 365) * interval '1 day', now() - ((i * 17) % 90) * interval '1 day'
      FROM generate_series(1, ${n}) AS i`);
  }
  await database.raw.executeSql('ANALYZE contacts', []);
  console.log(
    `generated ${ROWS.toLocaleString('en-US')} contacts (+${Math.round(ROWS / 5).toLocaleString('en-US')} of another user) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  for (const [label, raw] of Object.entries(segments)) {
    const predicate = compileConditions(segmentConditionsSchema.parse(raw));
    const counts: number[] = [];
    const pages: number[] = [];
    let matched = 0;
    for (let i = 0; i < RUNS; i += 1) {
      let t0 = performance.now();
      matched = await countMatching(database.db, user.id, predicate);
      counts.push(performance.now() - t0);
      t0 = performance.now();
      await firstMatching(database.db, user.id, predicate, 10);
      pages.push(performance.now() - t0);
    }
    console.log(
      `${label}: ${matched.toLocaleString('en-US')} matches; count p50 ${percentile(counts, 50).toFixed(0)} ms, p95 ${percentile(counts, 95).toFixed(0)} ms (target < 300); ` +
        `first preview page p50 ${percentile(pages, 50).toFixed(0)} ms, p95 ${percentile(pages, 95).toFixed(0)} ms (target < 100)`,
    );
    for (const [what, query] of [
      [
        'count',
        database.db
          .select({ n: sql`count(*)` })
          .from(contacts)
          .where(sql`${contacts.userId} = ${user.id} AND ${predicate}`),
      ],
      [
        'page',
        database.db
          .select()
          .from(contacts)
          .where(sql`${contacts.userId} = ${user.id} AND ${predicate}`)
          .orderBy(sql`created_at DESC, id DESC`)
          .limit(10),
      ],
    ] as const) {
      const { sql: text, params } = query.toSQL();
      const plan = await database.raw.executeSql(`EXPLAIN ${text}`, params);
      const shape = (plan.rows as { 'QUERY PLAN': string }[])
        .map((r) => r['QUERY PLAN'])
        .filter((line) => /->|^\w/.test(line.trim()))
        .map((line) => line.replace(/\s+\(cost=.*$/, '').trimEnd())
        .join('\n      ');
      console.log(`    ${what} plan:\n      ${shape}`);
    }
  }
} finally {
  await drop();
}
