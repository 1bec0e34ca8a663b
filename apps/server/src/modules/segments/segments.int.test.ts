import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import {
  segmentConditionsSchema,
  segmentFieldKinds,
  segmentOperatorsByKind,
  VALUELESS_OPERATORS,
  type SegmentField,
} from '@sendwell/contract/segments';
import { contacts, users } from '../../db/schema/index.ts';
import { signUpUser, useTestApp, type TestClient } from '../../../test/build-app.ts';
import { matchesConditions, type EvaluatedContact } from '../../../test/segment-evaluator.ts';
import { compileConditions, firstMatching } from './segments.repo.ts';
import { refreshAutoUpdateSegments } from './segments.service.ts';
import { segmentQueueNames } from './segments.jobs.ts';

const NOW = new Date('2026-06-15T12:00:00Z');
const words = ['', 'a', 'A', 'ab', 'Ab', 'ba', 'abc', 'x%', 'x_y', 'b\\c', 'tech', 'Tech Lead', 'CEO'];
const textArb = fc.constantFrom(...words);
const nullableTextArb = fc.option(textArb, { nil: null });
// Small domains so contacts and rule values collide often, boundaries included.
const days = ['2026-03-01', '2026-03-02', '2026-05-16', '2026-06-14'];
const dateArb = fc
  .tuple(
    fc.constantFrom(...days),
    fc.constantFrom('00:00:00.000', '00:00:00.001', '11:59:59.999', '12:00:00.000', '23:59:59.999'),
  )
  .map(([day, time]) => new Date(`${day}T${time}Z`));
const numberArb = fc.constantFrom(0, 2, 10, 25, 75, 80, 100);
// Quotes, backslashes and spaces test the quoting that tag matching relies on (see tagNeedle).
const tagsArb = fc.uniqueArray(
  fc.constantFrom('vip', 'VIP', 'news', 'Tech', 'a', "it's", 'a\\b', "x 'vip' y", "''vip''", 'vip news', 'Ünïcode'),
  { maxLength: 3 },
);

const contactArb: fc.Arbitrary<Omit<EvaluatedContact, 'email'>> = fc.record({
  firstName: textArb,
  lastName: textArb,
  company: nullableTextArb,
  jobTitle: nullableTextArb,
  location: nullableTextArb,
  engagementScore: numberArb,
  totalEmailsOpened: numberArb,
  totalEmailsClicked: numberArb,
  createdAt: dateArb,
  lastActivityAt: fc.option(dateArb, { nil: null }),
  tags: tagsArb,
});

const fields = Object.keys(segmentFieldKinds) as SegmentField[];
const ruleArb = fc.constantFrom(...fields).chain((field) => {
  const kind = segmentFieldKinds[field];
  const operator = fc.constantFrom(...segmentOperatorsByKind[kind]);
  const value =
    kind === 'numeric'
      ? fc.oneof(
          numberArb.map(String),
          numberArb.map((n) => `${n - 0.5}`),
          numberArb.map((n) => `${n}.5`),
        )
      : kind === 'date'
        ? fc.oneof(
            fc.constantFrom(...days, '2026-02-28', '2026-06-15'),
            // NOW is 2026-06-15T12:00Z: these land exactly on stored instants.
            fc.constantFrom(0, 1, 30, 105, 106).map((n) => `${n} days ago`),
            dateArb.map((d) => d.toISOString()),
          )
        : kind === 'tags'
          ? fc.constantFrom('vip', 'Vip', 'news', 'tech', 'none', "IT'S", 'a\\b', "'vip'", 'vip news', 'ünïcode')
          : textArb.filter((w) => w !== '');
  return fc.record({ id: fc.constant('r'), field: fc.constant(field), operator, value });
});
const conditionsArb = fc.record({
  operator: fc.constantFrom('AND' as const, 'OR' as const),
  rules: fc.array(ruleArb, { minLength: 1, maxLength: 3 }),
});

async function createSegment(client: TestClient, body: Record<string, unknown>) {
  const response = await client.post('/api/contact-segments', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: number; contactCount: number; lastUpdatedAt: string };
}

const highEngagement = {
  operator: 'AND',
  rules: [
    { id: '1', field: 'engagementScore', operator: 'greater_equal', value: '75' },
    { id: '2', field: 'totalEmailsOpened', operator: 'greater_equal', value: '10' },
  ],
};

describe('segment rule engine', () => {
  const t = useTestApp();

  it('selects exactly what an in-memory evaluator of the same rules selects (property)', async () => {
    const db = t().ctx.db;
    const { user } = await signUpUser(t());
    let run = 0;
    await fc.assert(
      // Each run stores one random contact set and checks several random rule sets against it.
      fc.asyncProperty(
        fc.array(contactArb, { minLength: 1, maxLength: 30 }),
        fc.array(conditionsArb, { minLength: 10, maxLength: 10 }),
        async (people, ruleSets) => {
          run += 1;
          await db.execute(sql`DELETE FROM contacts WHERE user_id = ${user.id}`);
          const rows = people.map((p, i) => ({ ...p, email: `p${run}-${i}@x.io`, userId: user.id }));
          await db.insert(contacts).values(rows);
          for (const rawConditions of ruleSets) {
            const conditions = segmentConditionsSchema.parse(rawConditions);
            const selected = await firstMatching(db, user.id, compileConditions(conditions, NOW), 1000);
            const expected = rows
              .filter((row) => matchesConditions(row, conditions, NOW))
              .map((r) => r.email)
              .sort();
            expect(selected.map((c) => c.email).sort(), JSON.stringify(conditions)).toEqual(expected);
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('binds values as parameters, never as SQL text', () => {
    const predicate = compileConditions(
      segmentConditionsSchema.parse({
        operator: 'OR',
        rules: [{ id: '1', field: 'company', operator: 'equals', value: "x'); DROP TABLE users; --" }],
      }),
      NOW,
    );
    const query = t().ctx.db.select().from(users).where(predicate).toSQL();
    expect(query.sql).not.toContain('DROP TABLE');
    expect(query.params).toContain("x'); drop table users; --");
  });
});

describe('contact segments API', () => {
  const t = useTestApp();

  async function seedContacts(client: TestClient) {
    const people = [
      {
        email: 'hi@x.io',
        firstName: 'High',
        lastName: 'Eng',
        company: 'Acme Tech',
        jobTitle: 'CEO',
        location: 'New York, USA',
        tags: ['vip'],
      },
      {
        email: 'lo@x.io',
        firstName: 'Low',
        lastName: 'Eng',
        company: null,
        jobTitle: 'Intern',
        location: 'Berlin',
        tags: [],
      },
      {
        email: 'mid@x.io',
        firstName: 'Mid',
        lastName: 'Dle',
        company: 'Globex',
        jobTitle: 'Engineer',
        location: 'Toronto, Canada',
        tags: ['News'],
      },
    ];
    for (const p of people) expect((await client.post('/api/contacts', p)).statusCode).toBe(201);
    await t().ctx.db
      .execute(sql`UPDATE contacts SET engagement_score = 90, total_emails_opened = 12, total_emails_clicked = 4,
      last_activity_at = '2026-06-01T00:00:00Z', created_at = now() - interval '5 days' WHERE email = 'hi@x.io'`);
    await t().ctx.db.execute(
      sql`UPDATE contacts SET engagement_score = 10, total_emails_opened = 1, created_at = now() - interval '90 days' WHERE email = 'lo@x.io'`,
    );
    await t().ctx.db.execute(
      sql`UPDATE contacts SET engagement_score = 50, total_emails_opened = 5, total_emails_clicked = 1, created_at = now() - interval '40 days' WHERE email = 'mid@x.io'`,
    );
  }

  const cases: [string, string, string, string[]][] = [
    ['engagementScore', 'equals', '90', ['hi@x.io']],
    ['engagementScore', 'not_equals', '90', ['lo@x.io', 'mid@x.io']],
    ['engagementScore', 'greater_than', '50', ['hi@x.io']],
    ['engagementScore', 'less_than', '50', ['lo@x.io']],
    ['totalEmailsOpened', 'greater_equal', '5', ['hi@x.io', 'mid@x.io']],
    ['totalEmailsClicked', 'less_equal', '1', ['lo@x.io', 'mid@x.io']],
    ['createdAt', 'date_after', '30 days ago', ['hi@x.io']],
    ['createdAt', 'date_before', '30 days ago', ['lo@x.io', 'mid@x.io']],
    ['lastActivityAt', 'date_before', '2026-06-02', ['hi@x.io']],
    ['lastActivityAt', 'date_after', '2026-06-01', []],
    ['tags', 'tag_contains', 'VIP', ['hi@x.io']],
    ['tags', 'tag_contains', 'news', ['mid@x.io']],
    ['tags', 'is_empty', '', ['lo@x.io']],
    ['tags', 'is_not_empty', '', ['hi@x.io', 'mid@x.io']],
    ['company', 'equals', 'acme tech', ['hi@x.io']],
    ['company', 'not_equals', 'Acme Tech', ['lo@x.io', 'mid@x.io']],
    ['company', 'contains', 'TECH', ['hi@x.io']],
    ['company', 'not_contains', 'tech', ['lo@x.io', 'mid@x.io']],
    ['location', 'starts_with', 'new', ['hi@x.io']],
    ['location', 'ends_with', 'canada', ['mid@x.io']],
    ['company', 'is_empty', '', ['lo@x.io']],
    ['company', 'is_not_empty', '', ['hi@x.io', 'mid@x.io']],
    ['email', 'contains', '@x.io', ['hi@x.io', 'lo@x.io', 'mid@x.io']],
    ['jobTitle', 'equals', 'ceo', ['hi@x.io']],
    ['firstName', 'starts_with', 'l', ['lo@x.io']],
    ['lastName', 'equals', 'eng', ['hi@x.io', 'lo@x.io']],
  ];

  it.each(cases)('%s %s %s', async (field, operator, value, expected) => {
    const { client } = await signUpUser(t());
    await seedContacts(client);
    const preview = await client.post('/api/contact-segments/preview', {
      conditions: { operator: 'AND', rules: [{ id: '1', field, operator, value }] },
    });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(
      preview
        .json()
        .contacts.map((c: { email: string }) => c.email)
        .sort(),
    ).toEqual(expected);
    expect(preview.json().count).toBe(expected.length);
  });

  it.each([
    [{ name: '' }, 'name', 'Segment name is required'],
    [{ conditions: { operator: 'AND', rules: [] } }, 'conditions.rules', 'Add at least one rule'],
    [
      { conditions: { operator: 'XOR', rules: highEngagement.rules } },
      'conditions.operator',
      "The rule operator must be 'AND' or 'OR'",
    ],
    [
      { conditions: { operator: 'AND', rules: [{ id: '1', field: 'password', operator: 'equals', value: 'x' }] } },
      'conditions.rules.0.field',
      "Unknown field 'password'",
    ],
    [
      {
        conditions: {
          operator: 'AND',
          rules: [{ id: '1', field: 'engagementScore', operator: 'contains', value: '5' }],
        },
      },
      'conditions.rules.0.operator',
      "Operator 'contains' does not apply to the numeric field 'engagementScore'",
    ],
    [
      { conditions: { operator: 'AND', rules: [{ id: '1', field: 'tags', operator: 'equals', value: 'vip' }] } },
      'conditions.rules.0.operator',
      "Operator 'equals' does not apply to the tags field 'tags'",
    ],
    [
      { conditions: { operator: 'AND', rules: [{ id: '1', field: 'company', operator: 'contains', value: ' ' }] } },
      'conditions.rules.0.value',
      "The rule on 'company' needs a value",
    ],
    [
      {
        conditions: {
          operator: 'AND',
          rules: [{ id: '1', field: 'engagementScore', operator: 'equals', value: 'ten' }],
        },
      },
      'conditions.rules.0.value',
      "The value for 'engagementScore' must be a number",
    ],
    [
      {
        conditions: {
          operator: 'AND',
          rules: [{ id: '1', field: 'createdAt', operator: 'date_after', value: 'yesterday' }],
        },
      },
      'conditions.rules.0.value',
      `The value for 'createdAt' must be a date (YYYY-MM-DD) or "N days ago"`,
    ],
  ])('refuses %j with 400 and stores nothing', async (change, field, message) => {
    const { client } = await signUpUser(t());
    const response = await client.post('/api/contact-segments', { name: 'Bad', conditions: highEngagement, ...change });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields[field]).toBe(message);
    expect((await client.get('/api/contact-segments')).json()).toEqual([]);
  });

  it('accepts is_empty without a value', () => {
    expect(
      segmentConditionsSchema.safeParse({
        operator: 'AND',
        rules: [{ id: '1', field: 'company', operator: 'is_empty' }],
      }).success,
    ).toBe(true);
    expect(VALUELESS_OPERATORS).toEqual(['is_empty', 'is_not_empty']);
  });

  it('creates, lists, pages members, updates, refreshes and deletes', async () => {
    const { client } = await signUpUser(t());
    await seedContacts(client);
    const segment = await createSegment(client, {
      name: 'High Engagement Subscribers',
      description: 'Openers',
      conditions: highEngagement,
    });
    expect(segment).toMatchObject({ contactCount: 1, isActive: true, isAutoUpdate: false });
    expect(segment.lastUpdatedAt).toBeTruthy();
    const members = await client.get(`/api/contact-segments/${segment.id}/contacts?pageSize=10`);
    expect(members.headers['x-total-count']).toBe('1');
    expect(members.json()[0].email).toBe('hi@x.io');
    const patched = await client.patch(`/api/contact-segments/${segment.id}`, {
      conditions: {
        operator: 'OR',
        rules: [...highEngagement.rules, { id: '3', field: 'location', operator: 'contains', value: 'canada' }],
      },
    });
    expect(patched.json().contactCount).toBe(2);
    // A static segment keeps its membership until refreshed.
    await t().ctx.db.execute(
      sql`UPDATE contacts SET engagement_score = 80, total_emails_opened = 20 WHERE email = 'lo@x.io'`,
    );
    expect((await client.get('/api/contact-segments')).json()[0].contactCount).toBe(2);
    const refreshed = await client.post(`/api/contact-segments/${segment.id}/refresh`);
    expect(refreshed.json().contactCount).toBe(3);
    expect(Date.parse(refreshed.json().lastUpdatedAt)).toBeGreaterThanOrEqual(Date.parse(segment.lastUpdatedAt));
    // Deleting a member contact keeps the count true.
    const lo = (await client.get('/api/contacts?search=lo@x.io')).json()[0];
    await client.delete(`/api/contacts/${lo.id}`);
    expect((await client.get('/api/contact-segments')).json()[0].contactCount).toBe(2);
    expect((await client.delete(`/api/contact-segments/${segment.id}`)).statusCode).toBe(204);
    expect((await client.get('/api/contact-segments')).json()).toEqual([]);
    expect((await client.get('/api/contacts')).headers['x-total-count']).toBe('2');
  });

  it('keeps auto-updating segments current: a job is queued on change and recomputes them', async () => {
    const { client, user } = await signUpUser(t());
    const auto = await createSegment(client, {
      name: 'Recent Subscribers',
      isAutoUpdate: true,
      conditions: {
        operator: 'AND',
        rules: [{ id: '1', field: 'createdAt', operator: 'date_after', value: '30 days ago' }],
      },
    });
    const fixed = await createSegment(client, {
      name: 'Static',
      conditions: {
        operator: 'AND',
        rules: [{ id: '1', field: 'createdAt', operator: 'date_after', value: '30 days ago' }],
      },
    });
    expect(auto.contactCount).toBe(0);
    const before = await t().ctx.queue.getQueueSize(segmentQueueNames.refreshUser);
    const imported = await client.post('/api/contacts/import-csv', { csvData: 'email\nnew1@x.io\nnew2@x.io\n' });
    expect(imported.statusCode).toBe(200);
    expect(await t().ctx.queue.getQueueSize(segmentQueueNames.refreshUser)).toBeGreaterThan(before);
    await refreshAutoUpdateSegments(t().ctx.db, user.id);
    const list = (await client.get('/api/contact-segments')).json() as { id: number; contactCount: number }[];
    expect(list.find((s) => s.id === auto.id)?.contactCount).toBe(2);
    expect(list.find((s) => s.id === fixed.id)?.contactCount).toBe(0);
  });

  it('keeps each user to their own segments and contacts', async () => {
    const a = await signUpUser(t());
    const b = await signUpUser(t());
    await seedContacts(a.client);
    const segment = await createSegment(a.client, { name: 'Mine', conditions: highEngagement });
    expect((await b.client.get('/api/contact-segments')).json()).toEqual([]);
    expect((await b.client.patch(`/api/contact-segments/${segment.id}`, { name: 'Stolen' })).statusCode).toBe(404);
    expect((await b.client.delete(`/api/contact-segments/${segment.id}`)).statusCode).toBe(404);
    expect((await b.client.post(`/api/contact-segments/${segment.id}/refresh`)).statusCode).toBe(404);
    expect((await b.client.get(`/api/contact-segments/${segment.id}/contacts`)).statusCode).toBe(404);
    const preview = await b.client.post('/api/contact-segments/preview', {
      conditions: { operator: 'AND', rules: [{ id: '1', field: 'email', operator: 'contains', value: '@' }] },
    });
    expect(preview.json()).toEqual({ count: 0, contacts: [] });
    expect((await a.client.get('/api/contact-segments')).json()[0].name).toBe('Mine');
  });

  it('needs a session', async () => {
    const anon = t().client();
    expect((await anon.get('/api/contact-segments')).statusCode).toBe(401);
    expect((await anon.post('/api/contact-segments', {})).statusCode).toBe(401);
    expect((await anon.post('/api/contact-segments/preview', {})).statusCode).toBe(401);
  });
});
