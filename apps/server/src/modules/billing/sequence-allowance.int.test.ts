import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sequence } from '@sendwell/contract/sequences';
import { oneEmailFlow } from '../../../test/sequence-flows.ts';
import { startSmtpSink } from '../../../test/smtp-sink.ts';
import { signUpUser, useTestApp, type TestApp, type TestClient } from '../../../test/build-app.ts';
import { contacts } from '../../db/schema/index.ts';
import { advanceAllDue } from '../sequences/sequence-engine.ts';
import { sendSequenceEmails } from '../sequences/sequence-batch.ts';

/**
 * Issue 20, "limits on … sequences, including the concurrent case": the plan catalogue has no
 * limit on the number of sequences or enrolments (spec §3 Pricing plan: subscribers, emails per
 * month, domains), so the limit sequences meet is the month's emails. Two sequences sending at
 * once with one email left: exactly one email leaves, the other waits queued (never dropped).
 * The single-sequence case (waiting, paused by billing, leaving later) is in
 * sequences/sequence-mail-lifecycle.int.test.ts.
 */

const oneEmail = oneEmailFlow();

let sink: Awaited<ReturnType<typeof startSmtpSink>>;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(async () => sink.close());

const rows = async <T = Record<string, unknown>>(t: () => TestApp, text: string, params: unknown[] = []) =>
  (await t().ctx.database.raw.executeSql(text, params)).rows as T[];

async function newSequence(client: TestClient, name: string): Promise<Sequence> {
  const created = await client.post('/api/email-sequences', {
    name,
    flowData: oneEmail,
    status: 'active',
    fromEmail: 'news@acme.example',
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json() as Sequence;
}

async function enrolNew(t: () => TestApp, client: TestClient, userId: string, sequenceId: number, emails: string[]) {
  const inserted = await t()
    .ctx.db.insert(contacts)
    .values(emails.map((email) => ({ userId, email })))
    .returning({ id: contacts.id });
  const response = await client.post(`/api/email-sequences/${sequenceId}/enrolments`, {
    contactIds: inserted.map((row) => row.id),
  });
  expect(response.statusCode, response.body).toBeLessThan(300);
}

describe('sequence mail against the monthly allowance, concurrently', () => {
  const t = useTestApp(() => ({ SMTP_URL: sink.url, DNS_SERVERS: '127.0.0.1:9' }));

  it('two sequences sending at once with one email left this month: exactly one email leaves', async () => {
    const { client, user } = await signUpUser(t(), { plan: 'starter' });
    await client.patch('/api/auth/user', { postalAddress: '1 Main St' });
    const first = await newSequence(client, 'First');
    const second = await newSequence(client, 'Second');
    // 14,999 of the Starter plan's 15,000 emails this month used by test mails.
    await t().ctx.database.raw.executeSql(
      `INSERT INTO campaign_test_sends (user_id, email) SELECT $1, 'me@x.io' FROM generate_series(1, 14999)`,
      [user.id],
    );
    await enrolNew(t, client, user.id, first.id, ['a1@x.io', 'a2@x.io']);
    await enrolNew(t, client, user.id, second.id, ['b1@x.io', 'b2@x.io']);
    await advanceAllDue(t().ctx.db);
    const before = sink.received.length;
    await Promise.all([sendSequenceEmails(t().ctx, first.id), sendSequenceEmails(t().ctx, second.id)]);
    expect(sink.received.slice(before)).toHaveLength(1);
    const statuses = await rows<{ status: string; n: number }>(
      t,
      `SELECT status, count(*)::int AS n FROM sequence_sends WHERE user_id = $1 GROUP BY status ORDER BY status`,
      [user.id],
    );
    expect(statuses.map((row) => `${row.status}:${row.n}`)).toEqual(['queued:3', 'sent:1']);
    expect((await client.get('/api/billing/usage')).json()).toMatchObject({
      emailsThisMonth: { used: 15000, limit: 15000 },
    });
  });
});
