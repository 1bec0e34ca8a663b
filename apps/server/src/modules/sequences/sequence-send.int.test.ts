import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { START_NODE_ID, type FlowData, type Sequence } from '@sendwell/contract/sequences';
import { startSmtpSink } from '../../../test/smtp-sink.ts';
import { signUpUser, useTestApp, type TestApp, type TestClient } from '../../../test/build-app.ts';
import { contacts, outboxMessages, sequenceSends, suppressions } from '../../db/schema/index.ts';
import { signSequenceToken } from '../../lib/signed-token.ts';
import { advanceAllDue } from './sequence-engine.ts';
import { sendSequenceEmails } from './sequence-batch.ts';
import { advanceSequencesJob, sendSequenceEmailsJob } from './sequences.jobs.ts';

const oneEmail: FlowData = {
  nodes: [
    { id: START_NODE_ID, type: 'input', position: { x: 400, y: 50 }, data: { label: 'Start' } },
    {
      id: 'email-1',
      type: 'email',
      position: { x: 400, y: 200 },
      data: {
        label: 'Welcome',
        subject: 'Welcome, {{firstName}}',
        blocks: [
          { id: 'b1', type: 'text', content: { text: 'Hello {{firstName}} from the sequence', tag: 'p' }, styles: {} },
          { id: 'b2', type: 'button', content: { text: 'Shop', url: 'https://shop.example/new' }, styles: {} },
        ],
        delay: '0',
      },
    },
  ],
  edges: [{ id: 'e1', source: START_NODE_ID, target: 'email-1' }],
};

/** A one-email active sequence with `emails` enrolled; answers its id and the contacts' ids. */
async function enrolled(t: TestApp, client: TestClient, userId: string, emails: string[]) {
  await client.patch('/api/auth/user', { postalAddress: '1 Main St' });
  const sequence = (
    await client.post('/api/email-sequences', {
      name: `Welcome ${emails[0]}`,
      flowData: oneEmail,
      status: 'active',
      fromEmail: 'news@acme.example',
    })
  ).json() as Sequence;
  const rows = await t.ctx.db
    .insert(contacts)
    .values(emails.map((email) => ({ userId, email, firstName: email.split('@')[0] ?? '' })))
    .returning({ id: contacts.id });
  const enrol = await client.post(`/api/email-sequences/${sequence.id}/enrolments`, {
    contactIds: rows.map((r) => r.id),
  });
  expect(enrol.statusCode, enrol.body).toBeLessThan(300);
  return { sequenceId: sequence.id, contactIds: rows.map((r) => r.id) };
}

/** Runs the sequence send jobs queued so far the way a worker would. */
async function runSequenceSendJobs(t: TestApp): Promise<number> {
  let ran = 0;
  for (;;) {
    const jobs = await t.ctx.queue.fetch<unknown>(sendSequenceEmailsJob.name, { batchSize: 50 });
    if (!jobs || jobs.length === 0) return ran;
    for (const job of jobs) {
      await sendSequenceEmailsJob.handler(t.ctx, sendSequenceEmailsJob.payload.parse(job.data));
      await t.ctx.queue.complete(sendSequenceEmailsJob.name, job.id);
      ran += 1;
    }
  }
}

const sendStatuses = async (t: TestApp, sequenceId: number) =>
  (
    await t.ctx.db
      .select({ email: sequenceSends.email, status: sequenceSends.status })
      .from(sequenceSends)
      .where(eq(sequenceSends.sequenceId, sequenceId))
  ).sort((a, b) => a.email.localeCompare(b.email));

describe('sequence email on the built-in catcher', () => {
  const t = useTestApp();

  it('an enrolled contact gets the step’s email in the Outbox exactly once; a suppressed one gets nothing', async () => {
    const { client, user } = await signUpUser(t());
    const { sequenceId } = await enrolled(t(), client, user.id, ['ann@x.io', 'sup@x.io']);
    const advanced = await advanceAllDue(t().ctx.db);
    expect(advanced.sendIds).toHaveLength(2);
    // Unsubscribed after the step was queued, before it left.
    await t().ctx.db.insert(suppressions).values({ userId: user.id, email: 'sup@x.io', reason: 'unsubscribe' });
    await sendSequenceEmails(t().ctx, sequenceId);
    // Sending again (a second wake, a retried job) sends nothing more.
    await sendSequenceEmails(t().ctx, sequenceId);
    const caught = await t().ctx.db.select().from(outboxMessages).where(eq(outboxMessages.userId, user.id));
    const sequenceMail = caught.filter((m) => m.subject.startsWith('Welcome'));
    expect(sequenceMail.map((m) => [m.toAddress, m.subject])).toEqual([['ann@x.io', 'Welcome, ann']]);
    expect(sequenceMail[0]?.raw).toContain('Hello ann from the sequence');
    expect(sequenceMail[0]?.raw).toContain('1 Main St');
    expect(sequenceMail[0]?.raw).toMatch(
      new RegExp(`^List-Id: ".*" <sequence-${sequenceId}\\.${user.id.replaceAll('-', '')}\\.[a-z0-9.-]+>\r?$`, 'm'),
    );
    expect(await sendStatuses(t(), sequenceId)).toEqual([
      { email: 'ann@x.io', status: 'sent' },
      { email: 'sup@x.io', status: 'suppressed' },
    ]);

    // The open pixel names the sequence send: loading it sets opened_at, which condition steps read.
    const [annSend] = await t().ctx.db.select().from(sequenceSends).where(eq(sequenceSends.email, 'ann@x.io'));
    const token = signSequenceToken(t().ctx.config.sessionSecret, annSend?.id ?? 0);
    expect(sequenceMail[0]?.raw.replace(/=\r?\n/g, '')).toContain(`/t/o/${token}`);
    expect(annSend?.openedAt).toBeNull();
    const pixel = await t().client().get(`/t/o/${token}`);
    expect(pixel.statusCode).toBe(200);
    const [opened] = await t()
      .ctx.db.select()
      .from(sequenceSends)
      .where(eq(sequenceSends.id, annSend?.id ?? 0));
    expect(opened?.openedAt).toBeInstanceOf(Date);
    // Its links name the send too: a click redirects to the step's link and sets clicked_at.
    const click = await t().client().get(`/t/c/${token}/0`);
    expect(click.statusCode).toBe(302);
    expect(click.headers.location).toBe('https://shop.example/new');
    expect((await t().client().get(`/t/c/${token}/7`)).statusCode).toBe(404);
    const [clicked] = await t()
      .ctx.db.select()
      .from(sequenceSends)
      .where(eq(sequenceSends.id, annSend?.id ?? 0));
    expect(clicked?.clickedAt).toBeInstanceOf(Date);
    // A campaign send's token is not a sequence send's, nor the other way round; a suppressed send was never opened.
    const [supSend] = await t().ctx.db.select().from(sequenceSends).where(eq(sequenceSends.email, 'sup@x.io'));
    const notSent = signSequenceToken(t().ctx.config.sessionSecret, supSend?.id ?? 0);
    expect((await t().client().get(`/t/o/${notSent}`)).statusCode).toBe(404);
  });

  it('the advancer wakes the sender: a queued step leaves through the sequences.send job', async () => {
    const { client, user } = await signUpUser(t());
    const { sequenceId } = await enrolled(t(), client, user.id, ['bob@x.io']);
    // The advancer's own job: its batch books the send job.
    await advanceSequencesJob.handler(t().ctx, {});
    expect(await runSequenceSendJobs(t())).toBeGreaterThan(0);
    expect(await sendStatuses(t(), sequenceId)).toEqual([{ email: 'bob@x.io', status: 'sent' }]);
    const [count] = (
      await t().ctx.db.execute(
        sql`SELECT count(*)::int AS n FROM outbox_messages WHERE user_id = ${user.id} AND to_address = 'bob@x.io'`,
      )
    ).rows as { n: number }[];
    expect(count?.n).toBe(1);
  });
});

describe('sequence email through an SMTP relay', () => {
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(async () => sink.close());
  const t = useTestApp(() => ({ SMTP_URL: sink.url, DNS_SERVERS: '127.0.0.1:9' }));

  it('signs the step’s email with the domain’s DKIM key and sends it once', async () => {
    const { client, user } = await signUpUser(t());
    const created = await client.post('/api/domains', { domain: 'acme.example' });
    expect(created.statusCode, created.body).toBe(201);
    const domain = created.json() as { id: number; dkimRecord: string };
    await t().ctx.database.raw.executeSql(
      `UPDATE domains SET spf_status = 'verified', dkim_status = 'verified', dmarc_status = 'verified', is_verified = true, verified_at = now(), warming_started_at = now() WHERE id = ${domain.id}`,
      [],
    );
    const [selector] = (
      await t().ctx.database.raw.executeSql(`SELECT dkim_selector FROM domains WHERE id = ${domain.id}`, [])
    ).rows as { dkim_selector: string }[];
    const { sequenceId } = await enrolled(t(), client, user.id, ['cy@x.io']);
    const before = sink.received.length;
    await advanceAllDue(t().ctx.db);
    await sendSequenceEmails(t().ctx, sequenceId);
    await sendSequenceEmails(t().ctx, sequenceId);
    const messages = sink.received.slice(before);
    expect(messages).toHaveLength(1);
    const result = await dkimVerify(Buffer.from(messages[0]?.raw ?? ''), {
      resolver: async (name: string, type: string) => {
        if (type === 'TXT' && name === `${selector?.dkim_selector}._domainkey.acme.example`)
          return [[domain.dkimRecord]];
        const error = new Error('not found') as Error & { code: string };
        error.code = 'ENOTFOUND';
        throw error;
      },
    });
    const signature = result.results[0];
    expect(signature?.status.result, JSON.stringify(signature?.status)).toBe('pass');
    expect(signature?.signingDomain).toBe('acme.example');
    expect(await sendStatuses(t(), sequenceId)).toEqual([{ email: 'cy@x.io', status: 'sent' }]);
  });
});
