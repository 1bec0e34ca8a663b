import { describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import {
  DEFAULT_SEQUENCE_SETTINGS,
  MAX_EMAILS_PER_CONTACT_RANGE,
  START_NODE_ID,
  type FlowData,
  type Sequence,
} from '@sendwell/contract/sequences';
import { signUpUser, useTestApp, type TestApp, type TestClient } from '../../../test/build-app.ts';
import { contacts, domainDailySends, sequenceSends } from '../../db/schema/index.ts';
import { reserveDailySends } from '../domains/index.ts';
import { advanceAllDue } from './sequence-engine.ts';
import { sendSequenceEmails } from './sequence-batch.ts';
import { sendSequenceEmailsJob, sequenceTickJob } from './sequences.jobs.ts';

const put = (client: TestClient, url: string, payload: Record<string, unknown>) =>
  client.request({ method: 'PUT', url, payload });

/** A flow of `count` email steps one after another, none waiting: all due at once on enrolment. */
function emailsAtOnce(count: number, prefix: string): FlowData {
  const ids = Array.from({ length: count }, (_, i) => `email-${i + 1}`);
  return {
    nodes: [
      { id: START_NODE_ID, type: 'input', position: { x: 400, y: 50 }, data: { label: 'Start' } },
      ...ids.map((id, i) => ({
        id,
        type: 'email' as const,
        position: { x: 400, y: 200 + i * 150 },
        data: { label: `${prefix} ${i + 1}`, subject: `${prefix} ${i + 1}`, content: '<p>Hello</p>', delay: '0' },
      })),
    ],
    edges: ids.map((id, i) => ({ id: `e${i}`, source: i === 0 ? START_NODE_ID : (ids[i - 1] as string), target: id })),
  };
}

async function activeSequence(client: TestClient, name: string, flowData: FlowData): Promise<number> {
  const created = await client.post('/api/email-sequences', {
    name,
    flowData,
    status: 'active',
    fromEmail: 'news@acme.example',
  });
  expect(created.statusCode, created.body).toBe(201);
  return (created.json() as Sequence).id;
}

async function enrol(client: TestClient, sequenceId: number, contactIds: number[]): Promise<void> {
  const enrolled = await client.post(`/api/email-sequences/${sequenceId}/enrolments`, { contactIds });
  expect(enrolled.statusCode, enrolled.body).toBeLessThan(300);
}

async function addContacts(t: TestApp, userId: string, emails: string[]): Promise<number[]> {
  const rows = await t.ctx.db
    .insert(contacts)
    .values(emails.map((email) => ({ userId, email, firstName: email.split('@')[0] ?? '' })))
    .returning({ id: contacts.id });
  return rows.map((row) => row.id);
}

const statusesOf = async (t: TestApp, email: string) =>
  (await t.ctx.db.select({ status: sequenceSends.status }).from(sequenceSends).where(eq(sequenceSends.email, email)))
    .map((row) => row.status)
    .sort();

/** Runs the sequence send jobs queued so far the way a worker would. */
async function runSequenceSendJobs(t: TestApp): Promise<void> {
  for (;;) {
    const jobs = await t.ctx.queue.fetch<unknown>(sendSequenceEmailsJob.name, { batchSize: 50 });
    if (!jobs || jobs.length === 0) return;
    for (const job of jobs) {
      await sendSequenceEmailsJob.handler(t.ctx, sendSequenceEmailsJob.payload.parse(job.data));
      await t.ctx.queue.complete(sendSequenceEmailsJob.name, job.id);
    }
  }
}

describe('sequence sending limits (issue 27)', () => {
  const t = useTestApp();

  it('the frequency cap holds under two sequences at once: 5 emails due for one contact in 24 h → 3 sent, the rest deferred, not dropped', async () => {
    const { client, user } = await signUpUser(t());
    await client.patch('/api/auth/user', { postalAddress: '1 Main St' });
    const [shared, other] = await addContacts(t(), user.id, ['both@x.io', 'only-a@x.io']);
    const a = await activeSequence(client, 'Sequence A', emailsAtOnce(2, 'A'));
    const b = await activeSequence(client, 'Sequence B', emailsAtOnce(3, 'B'));
    await enrol(client, a, [shared as number, other as number]);
    await enrol(client, b, [shared as number]);
    await advanceAllDue(t().ctx.db);
    expect(await statusesOf(t(), 'both@x.io')).toEqual(['queued', 'queued', 'queued', 'queued', 'queued']);

    // Both sequences' senders at once (two workers): the contact's count is taken under the account's lock.
    await Promise.all([sendSequenceEmails(t().ctx, a), sendSequenceEmails(t().ctx, b)]);
    expect(await statusesOf(t(), 'both@x.io')).toEqual(['queued', 'queued', 'sent', 'sent', 'sent']);
    // Another contact is not held back by it.
    expect(await statusesOf(t(), 'only-a@x.io')).toEqual(['sent', 'sent']);

    // Sending again (the minute tick hands queued sends over) keeps the deferred ones queued.
    await Promise.all([sendSequenceEmails(t().ctx, a), sendSequenceEmails(t().ctx, b)]);
    expect(await statusesOf(t(), 'both@x.io')).toEqual(['queued', 'queued', 'sent', 'sent', 'sent']);

    // The account's setting moves the cap: 4 lets one more go, the last still waits.
    const saved = await put(client, '/api/sequence-settings', { maxEmailsPerContactPerDay: 4 });
    expect(saved.statusCode, saved.body).toBe(200);
    await Promise.all([sendSequenceEmails(t().ctx, a), sendSequenceEmails(t().ctx, b)]);
    expect(await statusesOf(t(), 'both@x.io')).toEqual(['queued', 'sent', 'sent', 'sent', 'sent']);

    // Once the 24 hours have passed (the sends' claim times moved back a day), the rest goes.
    await t()
      .ctx.db.update(sequenceSends)
      .set({ claimedAt: sql`claimed_at - interval '25 hours'` })
      .where(and(eq(sequenceSends.email, 'both@x.io'), eq(sequenceSends.status, 'sent')));
    await sendSequenceEmails(t().ctx, a);
    await sendSequenceEmails(t().ctx, b);
    expect(await statusesOf(t(), 'both@x.io')).toEqual(['sent', 'sent', 'sent', 'sent', 'sent']);
  });

  it('sequence rows left sending by a dead process are recovered by the minute sweep and do not hold the warming cap', async () => {
    const { client, user } = await signUpUser(t());
    await client.patch('/api/auth/user', { postalAddress: '1 Main St' });
    // The From's domain, added (not verified): warming not started, so 1,000 a day.
    const added = await client.post('/api/domains', { domain: 'acme.example' });
    expect(added.statusCode, added.body).toBe(201);
    const domainId = (added.json() as { id: number }).id;
    const ids = await addContacts(t(), user.id, ['d1@x.io', 'd2@x.io', 'd3@x.io']);
    const sequenceId = await activeSequence(client, 'Killed', emailsAtOnce(1, 'K'));
    await enrol(client, sequenceId, ids);
    await advanceAllDue(t().ctx.db);

    // A worker reserved the 3 slots, claimed the rows and died (kill -9) ten minutes ago; the day's
    // other 997 messages went. Its rows still say 'sending' and its slots fill the cap.
    const { db } = t().ctx;
    const reservation = await reserveDailySends(db, domainId, 1000);
    expect(reservation.granted).toBe(1000);
    await db
      .update(sequenceSends)
      .set({
        status: 'sending',
        claimToken: 'dead-worker',
        claimedAt: sql`now() - interval '10 minutes'`,
        attempts: 1,
        warmingDomainId: domainId,
        warmingDay: reservation.day,
      })
      .where(eq(sequenceSends.sequenceId, sequenceId));
    const dayCount = async () =>
      (
        await db
          .select({ sent: domainDailySends.sent })
          .from(domainDailySends)
          .where(and(eq(domainDailySends.domainId, domainId), eq(domainDailySends.day, reservation.day)))
      )[0]?.sent;
    expect(await dayCount()).toBe(1000);

    // The minute tick: the sweep puts the rows back with their slots, and the sender sends them.
    await sequenceTickJob.handler(t().ctx, {});
    await runSequenceSendJobs(t());
    const rows = await db
      .select({ status: sequenceSends.status, claimToken: sequenceSends.claimToken })
      .from(sequenceSends)
      .where(eq(sequenceSends.sequenceId, sequenceId));
    expect(rows.map((row) => row.status)).toEqual(['sent', 'sent', 'sent']);
    expect(rows.some((row) => row.claimToken === 'dead-worker')).toBe(false);
    // Each message counted once on the day: 997 others + 3, not 1,000 + 3.
    expect(await dayCount()).toBe(1000);
  });

  it('at start, recovery puts stale sending rows back and hands back their warming slots; fresh claims are left alone', async () => {
    const { recoverSequenceSends } = (await import('./sequence-batch.ts')) as {
      recoverSequenceSends?: (ctx: TestApp['ctx']) => Promise<void>;
    };
    expect(recoverSequenceSends).toBeTypeOf('function');
    const { client, user } = await signUpUser(t());
    await client.patch('/api/auth/user', { postalAddress: '1 Main St' });
    const added = await client.post('/api/domains', { domain: 'acme.example' });
    const domainId = (added.json() as { id: number }).id;
    const ids = await addContacts(t(), user.id, ['s1@x.io', 's2@x.io']);
    const sequenceId = await activeSequence(client, 'Start', emailsAtOnce(1, 'S'));
    await enrol(client, sequenceId, ids);
    await advanceAllDue(t().ctx.db);
    const { db } = t().ctx;
    const reservation = await reserveDailySends(db, domainId, 2);
    const [stale, fresh] = await db
      .select({ id: sequenceSends.id })
      .from(sequenceSends)
      .where(eq(sequenceSends.sequenceId, sequenceId))
      .orderBy(sequenceSends.id);
    const claim = { status: 'sending', attempts: 1, warmingDomainId: domainId, warmingDay: reservation.day };
    await db
      .update(sequenceSends)
      .set({ ...claim, claimToken: 'dead', claimedAt: sql`now() - interval '5 minutes'` })
      .where(eq(sequenceSends.id, stale?.id ?? 0));
    await db
      .update(sequenceSends)
      .set({ ...claim, claimToken: 'alive', claimedAt: sql`now()` })
      .where(eq(sequenceSends.id, fresh?.id ?? 0));
    // The sequence is paused meanwhile: its rows are recovered all the same.
    await client.patch(`/api/email-sequences/${sequenceId}`, { status: 'paused' });

    await recoverSequenceSends?.(t().ctx);
    const after = await db
      .select({ id: sequenceSends.id, status: sequenceSends.status, day: sequenceSends.warmingDay })
      .from(sequenceSends)
      .where(eq(sequenceSends.sequenceId, sequenceId))
      .orderBy(sequenceSends.id);
    expect(after).toEqual([
      { id: stale?.id, status: 'queued', day: null },
      { id: fresh?.id, status: 'sending', day: reservation.day },
    ]);
    const [count] = await db
      .select({ sent: domainDailySends.sent })
      .from(domainDailySends)
      .where(and(eq(domainDailySends.domainId, domainId), eq(domainDailySends.day, reservation.day)));
    expect(count?.sent).toBe(1);
  });
});

describe('GET and PUT /api/sequence-settings', () => {
  const t = useTestApp();

  it('answers the defaults, saves a valid cap, refuses bad input with 400 naming the field and keeps each account to its own', async () => {
    const a = await signUpUser(t());
    const b = await signUpUser(t());
    expect((await a.client.get('/api/sequence-settings')).json()).toEqual(DEFAULT_SEQUENCE_SETTINGS);
    expect(DEFAULT_SEQUENCE_SETTINGS.maxEmailsPerContactPerDay).toBe(3);
    for (const bad of [0, 51, 2.5, '3', null, -1]) {
      const refused = await put(a.client, '/api/sequence-settings', { maxEmailsPerContactPerDay: bad });
      expect(refused.statusCode, JSON.stringify(bad)).toBe(400);
      expect((refused.json() as { fields: Record<string, string> }).fields).toEqual({
        maxEmailsPerContactPerDay: MAX_EMAILS_PER_CONTACT_RANGE,
      });
    }
    const missing = await put(a.client, '/api/sequence-settings', {});
    expect(missing.statusCode).toBe(400);
    // Nothing half-written: still the defaults.
    expect((await a.client.get('/api/sequence-settings')).json()).toEqual(DEFAULT_SEQUENCE_SETTINGS);

    const saved = await put(a.client, '/api/sequence-settings', { maxEmailsPerContactPerDay: 7 });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ maxEmailsPerContactPerDay: 7 });
    expect((await a.client.get('/api/sequence-settings')).json()).toEqual({ maxEmailsPerContactPerDay: 7 });
    // Tenant isolation: B sees and changes only its own.
    expect((await b.client.get('/api/sequence-settings')).json()).toEqual(DEFAULT_SEQUENCE_SETTINGS);
    await put(b.client, '/api/sequence-settings', { maxEmailsPerContactPerDay: 1 });
    expect((await a.client.get('/api/sequence-settings')).json()).toEqual({ maxEmailsPerContactPerDay: 7 });
    expect((await t().client().get('/api/sequence-settings')).statusCode).toBe(401);
  });
});
