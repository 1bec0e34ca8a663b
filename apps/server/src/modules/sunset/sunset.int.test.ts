import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { ContactSunset, SunsetPolicy } from '@sendwell/contract/sunset';
import type { SuppressionsPage } from '@sendwell/contract/suppressions';
import { signUpUser, useTestApp, type TestApp, type TestClient } from '../../../test/build-app.ts';
import { oneEmailFlow } from '../../../test/sequence-flows.ts';
import { sweepAccount } from './sunset.service.ts';

const DAY = 86_400_000;

async function createContact(client: TestClient, email: string): Promise<number> {
  const response = await client.post('/api/contacts', { email, firstName: 'F', lastName: 'L' });
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { id: number }).id;
}

/**
 * Makes the contact subscribed since `subscribedDaysAgo` and gives it `messages` campaign messages
 * sent `sentDaysAgo` days before `now` (one campaign each, as a real send would leave them).
 */
async function history(
  t: TestApp,
  userId: string,
  contactId: number,
  opts: { subscribedDaysAgo: number; messages: number; sentDaysAgo: number; lastActivityDaysAgo?: number },
  now: Date,
) {
  const db = t.ctx.db;
  const at = (days: number) => new Date(now.getTime() - days * DAY).toISOString();
  await db.execute(sql`UPDATE contacts SET subscription_date = ${at(opts.subscribedDaysAgo)},
    last_activity_at = ${opts.lastActivityDaysAgo === undefined ? null : at(opts.lastActivityDaysAgo)}
    WHERE id = ${contactId}`);
  for (let i = 0; i < opts.messages; i++) {
    const campaign = await db.execute(sql`INSERT INTO campaigns (user_id, name, subject, from_email, status)
      VALUES (${userId}, ${`Past ${contactId}-${i}`}, 'News', 'owner@example.com', 'sent') RETURNING id`);
    const campaignId = Number((campaign.rows[0] as { id: number }).id);
    await db.execute(sql`INSERT INTO campaign_sends (campaign_id, user_id, contact_id, email, status, sent_at)
      SELECT ${campaignId}, ${userId}, id, email, 'sent', ${at(opts.sentDaysAgo)} FROM contacts WHERE id = ${contactId}`);
  }
}

const standingOf = async (client: TestClient, contactId: number) => {
  const response = await client.get(`/api/contacts/${contactId}/sunset`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as ContactSunset;
};

describe('the sunset policy', () => {
  const t = useTestApp();

  it('is on by default; validates its settings; its sequence must be the account’s own', async () => {
    const { client } = await signUpUser(t());
    const policy = (await client.get('/api/sunset-policy')).json() as SunsetPolicy;
    expect(policy).toMatchObject({
      enabled: true,
      inactiveDays: 180,
      minMessages: 10,
      graceDays: 30,
      reengagementSequenceId: null,
      reengaging: 0,
      suppressed: 0,
      lastRunAt: null,
    });

    const base = { enabled: true, inactiveDays: 180, minMessages: 10, graceDays: 30, reengagementSequenceId: null };
    const bad = [
      [{ ...base, inactiveDays: 10 }, 'Days without engagement must be from 30 to 730'],
      [{ ...base, minMessages: 0 }, 'Messages received must be from 1 to 100'],
      [{ ...base, graceDays: 91 }, 'Days to re-engage must be from 7 to 90'],
      [{ ...base, graceDays: 7.5 }, 'Days to re-engage must be a whole number'],
      [{ ...base, enabled: 'yes' }, 'enabled must be true or false'],
    ] as const;
    for (const [body, message] of bad) {
      const response = await client.put('/api/sunset-policy', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.body).toContain(message);
    }
    const notAnObject = await client.put('/api/sunset-policy', [1]);
    expect(notAnObject.statusCode).toBe(400);
    expect(notAnObject.body).toContain('Send the sunset policy as an object');

    // Another account's sequence is not found, and nothing is saved.
    const other = await signUpUser(t());
    const theirs = await other.client.post('/api/email-sequences', { name: 'Theirs', flowData: oneEmailFlow() });
    expect(theirs.statusCode, theirs.body).toBe(201);
    const refused = await client.put('/api/sunset-policy', {
      ...base,
      reengagementSequenceId: (theirs.json() as { id: number }).id,
    });
    expect(refused.statusCode).toBe(404);
    expect(((await client.get('/api/sunset-policy')).json() as SunsetPolicy).reengagementSequenceId).toBeNull();

    const saved = await client.put('/api/sunset-policy', { ...base, enabled: false, inactiveDays: 90, graceDays: 14 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ enabled: false, inactiveDays: 90, graceDays: 14 });
    // The other account keeps its own defaults.
    expect(((await other.client.get('/api/sunset-policy')).json() as SunsetPolicy).enabled).toBe(true);
  });

  it('on a fake clock: re-engages the unengaged through the chosen sequence, releases whoever acts, then suppresses the rest', async () => {
    const { client, user } = await signUpUser(t(), { confirmEmail: true });
    const now = new Date();
    const sleeper = await createContact(client, 'sleeper@example.com');
    const waker = await createContact(client, 'waker@example.com');
    const fewMails = await createContact(client, 'few@example.com');
    const reader = await createContact(client, 'reader@example.com');
    const newcomer = await createContact(client, 'newcomer@example.com');
    await history(t(), user.id, sleeper, { subscribedDaysAgo: 400, messages: 10, sentDaysAgo: 60 }, now);
    await history(t(), user.id, waker, { subscribedDaysAgo: 400, messages: 12, sentDaysAgo: 60 }, now);
    await history(t(), user.id, fewMails, { subscribedDaysAgo: 400, messages: 9, sentDaysAgo: 60 }, now);
    await history(
      t(),
      user.id,
      reader,
      { subscribedDaysAgo: 400, messages: 10, sentDaysAgo: 60, lastActivityDaysAgo: 20 },
      now,
    );
    // Mailed often but subscribed for less than the policy's window: not judged yet.
    await history(t(), user.id, newcomer, { subscribedDaysAgo: 100, messages: 10, sentDaysAgo: 50 }, now);

    const created = await client.post('/api/email-sequences', {
      name: 'Still interested?',
      flowData: oneEmailFlow({ subject: 'Still want our news?' }),
      fromEmail: user.email,
      status: 'active',
    });
    expect(created.statusCode, created.body).toBe(201);
    const sequenceId = (created.json() as { id: number }).id;
    const saved = await client.put('/api/sunset-policy', {
      enabled: true,
      inactiveDays: 180,
      minMessages: 10,
      graceDays: 30,
      reengagementSequenceId: sequenceId,
    });
    expect(saved.json()).toMatchObject({ reengagementSequenceName: 'Still interested?' });

    // Day 0: the two unengaged contacts start their period and enter the sequence.
    expect(await sweepAccount(t().ctx, user.id, now)).toEqual({ released: 0, suppressed: 0, started: 2, enrolled: 2 });
    expect(await standingOf(client, sleeper)).toMatchObject({
      state: 'reengaging',
      since: now.toISOString(),
      suppressesAt: new Date(now.getTime() + 30 * DAY).toISOString(),
    });
    for (const id of [fewMails, reader, newcomer]) expect((await standingOf(client, id)).state).toBe('engaged');
    const enrolled = await t().ctx.db.execute(
      sql`SELECT contact_id FROM sequence_enrolments WHERE sequence_id = ${sequenceId} ORDER BY contact_id`,
    );
    expect(enrolled.rows.map((row) => Number((row as { contact_id: number }).contact_id))).toEqual([sleeper, waker]);
    // A second sweep the same day changes nothing and enrols nobody twice.
    expect(await sweepAccount(t().ctx, user.id, now)).toEqual({ released: 0, suppressed: 0, started: 0, enrolled: 0 });
    expect(((await client.get('/api/sunset-policy')).json() as SunsetPolicy).reengaging).toBe(2);

    // Day 10: the waker clicks (a human click marks the contact active).
    await t().ctx.db.execute(
      sql`UPDATE contacts SET last_activity_at = ${new Date(now.getTime() + 10 * DAY).toISOString()} WHERE id = ${waker}`,
    );
    const day31 = new Date(now.getTime() + 31 * DAY);
    expect(await sweepAccount(t().ctx, user.id, day31)).toEqual({
      released: 1,
      suppressed: 1,
      started: 0,
      enrolled: 0,
    });
    expect((await standingOf(client, waker)).state).toBe('engaged');
    expect((await standingOf(client, sleeper)).state).toBe('unengaged');

    const list = (await client.get('/api/suppressions')).json() as SuppressionsPage;
    expect(list.suppressions).toHaveLength(1);
    expect(list.suppressions[0]).toMatchObject({ email: 'sleeper@example.com', reason: 'unengaged' });
    expect(list.suppressions[0]?.detail).toContain('No human open or click in 180 days');
    // Suppressed: out of the sequence as well.
    const exited = await t().ctx.db.execute(
      sql`SELECT state, exit_reason FROM sequence_enrolments WHERE contact_id = ${sleeper}`,
    );
    expect(exited.rows[0]).toMatchObject({ state: 'exited', exit_reason: 'unengaged' });
    expect((await client.get('/api/sunset-policy')).json()).toMatchObject({ reengaging: 0, suppressed: 1 });
  });

  it('does nothing while off, and never touches another account', async () => {
    const off = await signUpUser(t());
    const bystander = await signUpUser(t());
    const now = new Date();
    const mine = await createContact(off.client, 'mine@example.com');
    const theirs = await createContact(bystander.client, 'theirs@example.com');
    await history(t(), off.user.id, mine, { subscribedDaysAgo: 400, messages: 10, sentDaysAgo: 30 }, now);
    await history(t(), bystander.user.id, theirs, { subscribedDaysAgo: 400, messages: 10, sentDaysAgo: 30 }, now);
    await off.client.put('/api/sunset-policy', {
      enabled: false,
      inactiveDays: 180,
      minMessages: 10,
      graceDays: 30,
      reengagementSequenceId: null,
    });
    expect(await sweepAccount(t().ctx, off.user.id, now)).toEqual({
      released: 0,
      suppressed: 0,
      started: 0,
      enrolled: 0,
    });
    expect((await standingOf(off.client, mine)).state).toBe('engaged');
    // The bystander's contact is untouched by the other account's sweep, and is not theirs to read.
    expect((await standingOf(bystander.client, theirs)).state).toBe('engaged');
    expect((await off.client.get(`/api/contacts/${theirs}/sunset`)).statusCode).toBe(404);
    // Its own sweep (defaults, no sequence) starts the period without enrolling anyone.
    expect(await sweepAccount(t().ctx, bystander.user.id, now)).toEqual({
      released: 0,
      suppressed: 0,
      started: 1,
      enrolled: 0,
    });
    expect((await standingOf(off.client, mine)).state).toBe('engaged');
  });
});
