import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpUser, useTestApp, type TestClient } from '../../../test/build-app.ts';
import { startSmtpSink } from '../../../test/smtp-sink.ts';
import { allJobs } from '../../jobs.ts';
import { startScheduledCampaign } from './campaign-send.service.ts';
import { sendBatchJob, startScheduledJob } from './campaigns.jobs.ts';

/** How far ahead the campaign is scheduled: long enough to watch it not start, short enough for a test. */
const LEAD_MS = 3000;
/** The start may trail the schedule by pg-boss's polling (0.5 s here) plus the send itself. */
const START_WITHIN_MS = 8000;

/** Creates a campaign to one list, scheduled for `scheduledAt`. */
function scheduleCampaign(
  client: TestClient,
  campaign: { name: string; subject: string; listId: number; scheduledAt: Date },
) {
  return client.post('/api/campaigns', {
    name: campaign.name,
    subject: campaign.subject,
    fromEmail: 'news@acme.example',
    content: { html: '' },
    blocks: [{ id: 'b1', type: 'text', content: { text: 'Hi {{firstName}}', tag: 'p' } }],
    listIds: [campaign.listId],
    status: 'scheduled',
    scheduledAt: campaign.scheduledAt.toISOString(),
  });
}

/**
 * A scheduled campaign is started by its own pg-boss job at its time (not by a test calling the
 * service), and its mail reaches a real SMTP server; before that time nothing is sent or even
 * queued for sending.
 */
describe('scheduled campaign', () => {
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(async () => sink.close());
  const t = useTestApp(() => ({ SMTP_URL: sink.url }));

  it(
    'starts at its scheduled time through its pg-boss job, not before, and its mail reaches the SMTP server',
    { timeout: 30_000 },
    async () => {
      const { ctx } = t();
      // Workers for the two jobs involved, with the app's own handlers, as a worker process runs them
      // (polling every 0.5 s, pg-boss's minimum, instead of its 2 s default, to keep the test short).
      for (const job of allJobs.filter((j) => j.name === startScheduledJob.name || j.name === sendBatchJob.name)) {
        await ctx.queue.work<object>(job.name, { pollingIntervalSeconds: 0.5 }, async (batch) => {
          for (const item of batch) await job.handler(ctx, job.payload.parse(item.data));
        });
      }

      const { client } = await signUpUser(t());
      await client.patch('/api/auth/user', { postalAddress: '1 Main St' });
      const list = (await client.post('/api/contact-lists', { name: 'Scheduled' })).json() as { id: number };
      const recipients = ['s0@x.io', 's1@x.io', 's2@x.io'];
      await client.post('/api/contacts/import-csv', {
        csvData: `email,firstName\n${recipients.map((e, i) => `${e},S${i}`).join('\n')}\n`,
        listId: list.id,
      });

      const scheduledAt = new Date(Date.now() + LEAD_MS);
      const created = await scheduleCampaign(client, {
        name: 'Later',
        subject: 'Scheduled hello',
        listId: list.id,
        scheduledAt,
      });
      expect(created.statusCode, created.body).toBe(201);
      const campaign = created.json() as { id: number; status: string };
      expect(campaign.status).toBe('scheduled');

      // Its start is a pg-boss job held until the scheduled time.
      const queued = await ctx.database.raw.executeSql(
        `SELECT start_after FROM pgboss.job WHERE name = $1 AND data->>'campaignId' = $2`,
        [startScheduledJob.name, String(campaign.id)],
      );
      expect(queued.rows).toHaveLength(1);
      expect(new Date((queued.rows[0] as { start_after: string | Date }).start_after).getTime()).toBe(
        scheduledAt.getTime(),
      );

      const ledgerRows = async () =>
        (
          (
            await ctx.database.raw.executeSql(`SELECT count(*)::int AS n FROM campaign_sends WHERE campaign_id = $1`, [
              campaign.id,
            ])
          ).rows[0] as { n: number }
        ).n;
      const mine = () => sink.received.filter((m) => m.parsed.subject === 'Scheduled hello');

      // Before its time: still scheduled, nothing resolved into the ledger, nothing at the SMTP server.
      let checksBefore = 0;
      while (Date.now() < scheduledAt.getTime() - 250) {
        expect((await client.get(`/api/campaigns/${campaign.id}`)).json().status).toBe('scheduled');
        expect(await ledgerRows()).toBe(0);
        expect(mine()).toHaveLength(0);
        checksBefore += 1;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(checksBefore).toBeGreaterThanOrEqual(5);

      // At its time: the job starts it and every recipient's message arrives.
      const deadline = scheduledAt.getTime() + START_WITHIN_MS;
      while (mine().length < recipients.length && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
      const arrived = mine();
      expect(arrived.flatMap((m) => m.to).sort()).toEqual(recipients);
      for (const message of arrived) {
        expect(message.receivedAt.getTime()).toBeGreaterThanOrEqual(scheduledAt.getTime());
        expect(message.receivedAt.getTime()).toBeLessThanOrEqual(deadline);
      }
      const ledger = async () =>
        (
          await ctx.database.raw.executeSql(
            `SELECT min(created_at) AS started, count(*) FILTER (WHERE status = 'sent')::int AS sent FROM campaign_sends WHERE campaign_id = $1`,
            [campaign.id],
          )
        ).rows[0] as { started: string | Date; sent: number };
      expect(new Date((await ledger()).started).getTime()).toBeGreaterThanOrEqual(scheduledAt.getTime());
      // Each message is recorded once the server has accepted it (after-accept), so a moment after it arrives.
      await expect.poll(async () => (await ledger()).sent, { timeout: 5000 }).toBe(recipients.length);

      await expect
        .poll(async () => (await client.get(`/api/campaigns/${campaign.id}`)).json(), { timeout: 5000 })
        .toMatchObject({ status: 'sent', totalSent: 3, scheduledAt: null });
    },
  );

  it('a start job that fires early leaves the campaign scheduled and queues itself again for the time', async () => {
    const { ctx } = t();
    const { client } = await signUpUser(t());
    await client.patch('/api/auth/user', { postalAddress: '1 Main St' });
    const list = (await client.post('/api/contact-lists', { name: 'Early' })).json() as { id: number };
    await client.post('/api/contacts/import-csv', { csvData: 'email\ne0@x.io\n', listId: list.id });
    const scheduledAt = new Date(Date.now() + 60 * 60 * 1000);
    const created = await scheduleCampaign(client, { name: 'Early', subject: 'Hi', listId: list.id, scheduledAt });
    expect(created.statusCode, created.body).toBe(201);
    const campaign = created.json() as { id: number };
    await startScheduledCampaign(ctx, campaign.id);
    expect(((await client.get(`/api/campaigns/${campaign.id}`)).json() as { status: string }).status).toBe('scheduled');
    const jobs = await ctx.database.raw.executeSql(
      `SELECT start_after FROM pgboss.job WHERE name = $1 AND data->>'campaignId' = $2`,
      [startScheduledJob.name, String(campaign.id)],
    );
    expect(jobs.rows).toHaveLength(2);
    for (const job of jobs.rows as { start_after: string | Date }[])
      expect(new Date(job.start_after).getTime()).toBe(scheduledAt.getTime());
  });

  // First-hour finding 3: a campaign scheduled with no recipients stayed 'scheduled' for ever.
  it('a scheduled campaign that cannot start at its time goes back to a draft and its owner is told why', async () => {
    const { ctx } = t();
    const { client } = await signUpUser(t());
    await client.patch('/api/auth/user', { postalAddress: '1 Main St' });
    const list = (await client.post('/api/contact-lists', { name: 'Empty' })).json() as { id: number };
    const created = await scheduleCampaign(client, {
      name: 'Nobody',
      subject: 'Hi',
      listId: list.id,
      scheduledAt: new Date(Date.now() + 1500),
    });
    expect(created.statusCode, created.body).toBe(201);
    const campaign = created.json() as { id: number };
    await new Promise((resolve) => setTimeout(resolve, 1600));
    await startScheduledCampaign(ctx, campaign.id);
    expect((await client.get(`/api/campaigns/${campaign.id}`)).json()).toMatchObject({
      status: 'draft',
      scheduledAt: null,
    });
    const notifications = (await client.get('/api/notifications')).json() as {
      notifications: { title: string; body: string }[];
    };
    expect(notifications.notifications[0]).toMatchObject({ title: '“Nobody” was not sent' });
    expect(notifications.notifications[0]?.body).toContain('no recipients');
    // A draft again: it can be edited and deleted.
    expect((await client.patch(`/api/campaigns/${campaign.id}`, { name: 'Somebody' })).statusCode).toBe(200);
    expect((await client.delete(`/api/campaigns/${campaign.id}`)).statusCode).toBe(204);
  });
});
