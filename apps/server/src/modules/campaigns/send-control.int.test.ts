import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { signUpUser, useTestApp, type TestClient } from '../../../test/build-app.ts';
import { runSendJobs } from '../../../test/send-jobs.ts';
import { startSmtpSink } from '../../../test/smtp-sink.ts';
import { campaignSends } from '../../db/schema/index.ts';

/** Each recipient's answer is held back this long, so a send of RECIPIENTS takes several seconds. */
const RCPT_DELAY_MS = 40;
const RECIPIENTS = 150;
/** The bound: a pause or cancel is seen by the engine within it, however long the send. */
const STOPS_WITHIN_MS = 5000;

async function campaignTo(client: TestClient, name: string, count: number): Promise<number> {
  await client.patch('/api/auth/user', { postalAddress: '1 Main St' });
  const list = (await client.post('/api/contact-lists', { name })).json() as { id: number };
  const rows = Array.from({ length: count }, (_, i) => `${name.toLowerCase()}${i}@x.io,R${i}`).join('\n');
  await client.post('/api/contacts/import-csv', { csvData: `email,firstName\n${rows}\n`, listId: list.id });
  const created = await client.post('/api/campaigns', {
    name,
    subject: 'Hi',
    fromEmail: 'news@acme.example',
    content: { html: '' },
    blocks: [{ id: 'b1', type: 'text', content: { text: 'Hello {{firstName}}', tag: 'p' } }],
    listIds: [list.id],
  });
  return (created.json() as { id: number }).id;
}

async function waitFor(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Pause, resume and cancel of a campaign that is really sending, over a slow SMTP server: the
 * engine stops claiming within seconds, what was claimed goes back (or is canceled), and resuming
 * sends each remaining recipient once.
 */
describe('control of a send', () => {
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  beforeAll(async () => {
    sink = await startSmtpSink({ answerRcptAfterMs: () => RCPT_DELAY_MS });
  });
  afterAll(async () => sink.close());
  const t = useTestApp(() => ({ SMTP_URL: sink.url, SMTP_MAX_CONNECTIONS: '2' }));
  const receivedBy = (name: string) => sink.received.filter((m) => m.to[0]?.startsWith(name.toLowerCase()));

  it('pauses mid-send within 5 s, and resuming sends each recipient exactly once', { timeout: 120_000 }, async () => {
    const { client } = await signUpUser(t());
    const id = await campaignTo(client, 'Pausing', RECIPIENTS);
    expect((await client.post(`/api/campaigns/${id}/send`)).statusCode).toBe(200);
    const sending = runSendJobs(t());
    await waitFor(() => receivedBy('Pausing').length >= 10, 'the first messages');

    const paused = await client.post(`/api/campaigns/${id}/pause`);
    expect(paused.statusCode, paused.body).toBe(200);
    expect(paused.json()).toMatchObject({ status: 'paused' });
    const pausedAt = Date.now();
    // The batch job returns once its senders saw the pause and its claims went back to the queue.
    await sending;
    expect(Date.now() - pausedAt).toBeLessThan(STOPS_WITHIN_MS);
    const atPause = receivedBy('Pausing').length;
    expect(atPause).toBeLessThan(RECIPIENTS);
    const rows = await t().ctx.db.select().from(campaignSends).where(eq(campaignSends.campaignId, id));
    // Claimed rows went back to the queue; rows already sent stay sent.
    expect(rows.filter((row) => row.status === 'sending')).toEqual([]);
    expect(rows.filter((row) => row.status === 'sent')).toHaveLength(atPause);
    expect(rows.filter((row) => row.status === 'queued')).toHaveLength(RECIPIENTS - atPause);
    // While paused nothing goes, even if a worker runs.
    await runSendJobs(t());
    expect(receivedBy('Pausing')).toHaveLength(atPause);

    const resumed = await client.post(`/api/campaigns/${id}/resume`);
    expect(resumed.json()).toMatchObject({ status: 'sending' });
    await runSendJobs(t());
    const received = receivedBy('Pausing').map((m) => m.to[0]);
    expect(received).toHaveLength(RECIPIENTS);
    expect(new Set(received).size).toBe(RECIPIENTS);
    expect((await client.get(`/api/campaigns/${id}`)).json()).toMatchObject({
      status: 'sent',
      totalSent: RECIPIENTS,
      totalRecipients: RECIPIENTS,
    });
  });

  it(
    'cancels mid-send within 5 s: nothing more goes out and no recipient is left queued',
    { timeout: 120_000 },
    async () => {
      const { client } = await signUpUser(t());
      const id = await campaignTo(client, 'Canceling', RECIPIENTS);
      await client.post(`/api/campaigns/${id}/send`);
      const sending = runSendJobs(t());
      await waitFor(() => receivedBy('Canceling').length >= 10, 'the first messages');

      const canceled = await client.post(`/api/campaigns/${id}/cancel`);
      expect(canceled.json()).toMatchObject({ status: 'canceled' });
      const canceledAt = Date.now();
      await sending;
      expect(Date.now() - canceledAt).toBeLessThan(STOPS_WITHIN_MS);
      const atCancel = receivedBy('Canceling').length;
      expect(atCancel).toBeLessThan(RECIPIENTS);

      const rows = await t().ctx.db.select().from(campaignSends).where(eq(campaignSends.campaignId, id));
      expect(rows.filter((row) => row.status === 'sent')).toHaveLength(atCancel);
      // The rows the batch held when the cancel came are canceled too, not back in the queue.
      expect(rows.filter((row) => row.status === 'canceled')).toHaveLength(RECIPIENTS - atCancel);
      await runSendJobs(t());
      expect(receivedBy('Canceling')).toHaveLength(atCancel);
      expect((await client.post(`/api/campaigns/${id}/resume`)).statusCode).toBe(409);
    },
  );

  it('answers 409 with the reason for a control the status does not allow, and 404 for another account', async () => {
    const { client } = await signUpUser(t());
    const draft = await campaignTo(client, 'Wrong', 2);
    const pauseDraft = await client.post(`/api/campaigns/${draft}/pause`);
    expect(pauseDraft.statusCode).toBe(409);
    expect(pauseDraft.json().message).toBe('This campaign is a draft: only a sending campaign can be paused.');
    expect((await client.post(`/api/campaigns/${draft}/resume`)).json().message).toBe(
      'This campaign is a draft: only a paused campaign can be resumed.',
    );
    expect((await client.post(`/api/campaigns/${draft}/cancel`)).json().message).toBe(
      'This campaign is a draft: only a scheduled, sending or paused campaign can be canceled.',
    );

    await client.post(`/api/campaigns/${draft}/send`);
    await runSendJobs(t());
    expect((await client.get(`/api/campaigns/${draft}`)).json().status).toBe('sent');
    const resumeSent = await client.post(`/api/campaigns/${draft}/resume`);
    expect(resumeSent.statusCode).toBe(409);
    expect(resumeSent.json().message).toBe('This campaign is already sent: only a paused campaign can be resumed.');
    expect((await client.post(`/api/campaigns/${draft}/cancel`)).statusCode).toBe(409);

    // A scheduled campaign can be canceled (its start job then does nothing), not paused.
    const later = await campaignTo(client, 'Later', 1);
    const scheduled = await client.patch(`/api/campaigns/${later}`, {
      status: 'scheduled',
      scheduledAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect(scheduled.json().status).toBe('scheduled');
    expect((await client.post(`/api/campaigns/${later}/pause`)).statusCode).toBe(409);

    // Another account's campaign does not exist for it, whatever the control, and stays as it was.
    const other = await signUpUser(t());
    for (const action of ['pause', 'resume', 'cancel']) {
      const answer = await other.client.post(`/api/campaigns/${later}/${action}`);
      expect(answer.statusCode, action).toBe(404);
      expect(answer.json().message).toBe('Campaign not found');
    }
    expect((await client.get(`/api/campaigns/${later}`)).json().status).toBe('scheduled');
    expect((await client.post(`/api/campaigns/${later}/cancel`)).json().status).toBe('canceled');
    expect((await client.post(`/api/campaigns/${later}/cancel`)).statusCode).toBe(409);
  });
});
