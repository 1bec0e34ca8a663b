import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import {
  OVERVIEW_DATE_INVALID,
  OVERVIEW_RANGE_REVERSED,
  OVERVIEW_RANGE_TOO_LONG,
  type OverviewResponse,
} from '@sendwell/contract/analytics';
import { campaigns, contacts, emailEvents, emailSequences, sequenceSends } from '../../db/schema/index.ts';
import { runSendJobs } from '../../../test/send-jobs.ts';
import { signUpUser, useTestApp, type TestApp, type TestClient } from '../../../test/build-app.ts';

/**
 * /analytics (issue 31 part 3): every figure comes from the daily rollups the database keeps as
 * rows arrive (migration 0036); these tests drive the real send, pixel and click paths, then check
 * the overview against what was recorded and the rollups against a rebuild from the stored rows.
 */

const LINKS = ['https://shop.example/a', 'https://shop.example/b'];
const READER =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const today = () => new Date().toISOString().slice(0, 10);
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

async function sendCampaign(t: TestApp, client: TestClient, emails: string[], name: string, fromEmail: string) {
  await client.patch('/api/auth/user', { postalAddress: '1 Main St' });
  const list = (await client.post('/api/contact-lists', { name: `${name} list` })).json() as { id: number };
  const csv = `email,firstName\n${emails.map((email) => `${email},R`).join('\n')}\n`;
  await client.post('/api/contacts/import-csv', { csvData: csv, listId: list.id });
  const campaign = (
    await client.post('/api/campaigns', {
      name,
      subject: 'Hi',
      fromEmail,
      content: { html: '' },
      blocks: [
        { id: 't', type: 'text', content: { text: 'Hello', tag: 'p' } },
        { id: 'b1', type: 'button', content: { text: 'A', url: LINKS[0] } },
        { id: 'b2', type: 'button', content: { text: 'B', url: LINKS[1] } },
      ],
      listIds: [list.id],
    })
  ).json() as { id: number };
  expect((await client.post(`/api/campaigns/${campaign.id}/send`)).statusCode).toBe(200);
  await runSendJobs(t);
  return campaign.id;
}

async function urlsOf(t: TestApp, email: string) {
  const { rows } = await t.ctx.database.raw.executeSql(`SELECT raw FROM outbox_messages WHERE to_address = $1`, [
    email,
  ]);
  const html = String((await simpleParser((rows[0] as { raw: string }).raw)).html);
  const path = (url: string | undefined) => new URL((url ?? '').replaceAll('&amp;', '&')).pathname;
  return {
    pixel: path(/<img src="([^"]+\/t\/o\/[^"]+)"/.exec(html)?.[1]),
    clicks: [...new Set([...html.matchAll(/href="([^"]+\/t\/c\/[^"]+)"/g)].map((m) => path(m[1])))],
  };
}

const hit = (client: TestClient, url: string, userAgent: string, remoteAddress = '203.0.113.7') =>
  client.request({ method: 'GET', url, remoteAddress, headers: { 'user-agent': userAgent } });

async function overview(client: TestClient, from = daysAgo(6), to = today()): Promise<OverviewResponse> {
  const response = await client.get(`/api/analytics/overview?from=${from}&to=${to}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as OverviewResponse;
}

/** The rollup tables, sorted, as plain rows. */
async function rollups(t: TestApp) {
  const read = async (sql: string) => (await t.ctx.database.raw.executeSql(sql, [])).rows;
  return {
    mail: await read(`SELECT * FROM analytics_mail_daily ORDER BY user_id, day, domain`),
    contacts: await read(`SELECT * FROM analytics_contacts_daily ORDER BY user_id, day`),
    links: await read(`SELECT * FROM analytics_link_daily ORDER BY user_id, day, url`),
  };
}

/** The running totals the triggers kept equal a rebuild from the stored rows (the migration's backfill). */
async function expectRollupsMatchRebuild(t: TestApp) {
  const running = await rollups(t);
  await t.ctx.database.raw.executeSql(`SELECT analytics_rebuild_rollups()`, []);
  const rebuilt = await rollups(t);
  // Rows the triggers left at zero (a count taken back) are not rebuilt; compare the counted rows.
  const counted = (rows: unknown[]) =>
    rows.filter((row) =>
      Object.entries(row as Record<string, unknown>).some(
        ([key, value]) => typeof value === 'number' && value !== 0 && key !== 'day',
      ),
    );
  expect(counted(running.mail)).toEqual(rebuilt.mail);
  expect(counted(running.contacts)).toEqual(rebuilt.contacts);
  expect(counted(running.links)).toEqual(rebuilt.links);
}

describe('GET /api/analytics/overview', () => {
  const t = useTestApp();

  it('needs a session and refuses bad ranges with 400 and the field at fault', async () => {
    expect((await t().client().get(`/api/analytics/overview?from=${today()}&to=${today()}`)).statusCode).toBe(401);
    const { client } = await signUpUser(t());
    const cases: [string, string, string][] = [
      ['from=2026-03-10&to=2026-03-01', 'from', OVERVIEW_RANGE_REVERSED],
      ['from=2025-01-01&to=2026-01-02', 'to', OVERVIEW_RANGE_TOO_LONG],
      ['from=2026-02-30&to=2026-03-01', 'from', OVERVIEW_DATE_INVALID],
      ['from=yesterday&to=2026-03-01', 'from', OVERVIEW_DATE_INVALID],
      ['from=2026-03-01', 'to', OVERVIEW_DATE_INVALID],
      ['from=2026-03-01T00:00:00Z&to=2026-03-02', 'from', OVERVIEW_DATE_INVALID],
    ];
    for (const [query, field, message] of cases) {
      const response = await client.get(`/api/analytics/overview?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().fields?.[field], query).toBe(message);
    }
    // 366 days (a leap year's worth) is the longest range answered.
    expect((await client.get('/api/analytics/overview?from=2024-01-01&to=2024-12-31')).statusCode).toBe(200);
  });

  it('answers an empty account with zeros for every day and says it has sent nothing', async () => {
    const { client } = await signUpUser(t());
    const body = await overview(client);
    expect(body.hasSentMail).toBe(false);
    expect(body.days).toHaveLength(7);
    expect(body.days.every((day) => day.sent === 0 && day.opened === 0)).toBe(true);
    expect(body.totals).toMatchObject({ sent: 0, openRate: null, clickRate: null, contactsAdded: 0 });
    expect(body).toMatchObject({ domains: [], topCampaigns: [], topLinks: [] });
  });

  it('counts what was recorded: human opens without machine ones, clicks without scanners, per domain, list growth; another account sees none of it', async () => {
    const a = await signUpUser(t());
    const b = await signUpUser(t());
    const emails = ['ann@x.io', 'bob@x.io', 'cat@x.io', 'dan@x.io', 'eve@x.io'];
    const id = await sendCampaign(t(), a.client, emails, 'Launch', 'news@acme.example');
    // Delivered half an hour ago, before any event: an event counts on its message's day, so moving
    // sent_at after events were counted (across midnight UTC) would split them from their message.
    await t().ctx.database.raw.executeSql(
      `UPDATE campaign_sends SET sent_at = sent_at - interval '30 minutes' WHERE campaign_id = $1`,
      [id],
    );
    // The UTC day the mail counts on (yesterday when the test runs in the first half hour of a day).
    const { rows: sentDays } = await t().ctx.database.raw.executeSql(
      `SELECT to_char(max(sent_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day FROM campaign_sends WHERE campaign_id = $1`,
      [id],
    );
    const sentDay = (sentDays[0] as { day: string }).day;
    const anon = t().client();
    // ann: a reader's open. bob: Apple's proxy pre-fetch only (a machine open). cat: proxy, then a
    // reader's click later (promoted). dan: a link scanner's click only. eve: nothing.
    await hit(anon, (await urlsOf(t(), 'ann@x.io')).pixel, READER);
    await hit(anon, (await urlsOf(t(), 'bob@x.io')).pixel, 'Mozilla/5.0', '17.58.101.3');
    await hit(anon, (await urlsOf(t(), 'cat@x.io')).pixel, 'Mozilla/5.0', '17.58.101.3');
    await hit(anon, (await urlsOf(t(), 'dan@x.io')).clicks[0] ?? '', 'Mimecast Link Scanner/1.0');
    expect((await hit(anon, (await urlsOf(t(), 'cat@x.io')).clicks[1] ?? '', READER)).statusCode).toBe(302);
    // What came back: eve hard-bounced (after it was delivered), dan complained, ann unsubscribed; a soft bounce is no failure.
    const { rows: sends } = await t().ctx.database.raw.executeSql(
      `SELECT id, email, contact_id FROM campaign_sends WHERE campaign_id = $1`,
      [id],
    );
    const send = (email: string) =>
      sends.find((row) => (row as { email: string }).email === email) as {
        id: number;
        contact_id: number;
      };
    const event = (email: string, type: string, detail: string | null = null) => ({
      userId: a.user.id,
      campaignId: id,
      sendId: Number(send(email).id),
      contactId: send(email).contact_id,
      type,
      detail,
    });
    await t()
      .ctx.db.insert(emailEvents)
      .values([
        event('eve@x.io', 'bounce', 'user unknown'),
        event('bob@x.io', 'bounce', 'soft: mailbox full'),
        event('dan@x.io', 'complaint', 'abuse'),
        event('ann@x.io', 'unsubscribe'),
      ]);

    const body = await overview(a.client);
    expect(body.hasSentMail).toBe(true);
    expect(body.totals).toMatchObject({
      sent: 5,
      delivered: 4,
      opened: 2, // ann (open), cat (promoted by her click)
      machineOpened: 1, // bob
      clicked: 1, // cat; dan's scanner is left out
      bounced: 1,
      complaints: 1,
      unsubscribes: 1,
      openRate: 40,
      machineOpenRate: 20,
      clickRate: 20,
      bounceRate: 20,
      complaintRate: 25,
      unsubscribeRate: 25,
      contactsAdded: 5,
      contactsLost: 3,
    });
    const day = body.days.find((d) => d.day === sentDay);
    expect(day).toMatchObject({ sent: 5, delivered: 4, opened: 2, machineOpened: 1, clicked: 1 });
    expect(body.domains).toEqual([
      {
        domain: 'acme.example',
        sent: 5,
        delivered: 4,
        bounced: 1,
        complaints: 1,
        bounceRate: 20,
        complaintRate: 25,
        reputation: 'poor',
      },
    ]);
    expect(body.listGrowth.find((d) => d.day === today())).toEqual({
      day: today(),
      added: 5,
      unsubscribed: 1,
      bounced: 1,
      complained: 1,
      net: 2,
    });
    expect(body.topLinks).toEqual([{ url: LINKS[1], clicks: 1 }]);
    // 5 sent is under the ranking's minimum volume.
    expect(body.topCampaigns).toEqual([]);

    // The campaign report counts the same messages.
    const report = (await a.client.get(`/api/campaigns/${id}/report`)).json();
    expect(report).toMatchObject({ uniqueOpens: body.totals.opened, machineOpens: body.totals.machineOpened });

    // B sees none of A's mail, links or contacts.
    const other = await overview(b.client);
    expect(other.hasSentMail).toBe(false);
    expect(other.totals).toMatchObject({ sent: 0, opened: 0, contactsAdded: 0, contactsLost: 0 });
    expect(other).toMatchObject({ domains: [], topLinks: [], topCampaigns: [] });

    await expectRollupsMatchRebuild(t());
  });

  it('takes a click back when a scanner’s burst flags it (an update of the event), and keeps the rollups equal to a rebuild', async () => {
    const a = await signUpUser(t());
    await sendCampaign(t(), a.client, ['gus@x.io'], 'Burst', 'news@acme.example');
    const anon = t().client();
    const gus = await urlsOf(t(), 'gus@x.io');
    // Both links at once, right after delivery: the first click is recorded a reader's, then flagged with the second.
    await hit(anon, gus.clicks[0] ?? '', READER);
    await hit(anon, gus.clicks[1] ?? '', READER);
    const { rows } = await t().ctx.database.raw.executeSql(
      `SELECT count(*)::int AS n FROM email_events WHERE user_id = $1 AND type = 'click' AND machine`,
      [a.user.id],
    );
    expect(rows).toEqual([{ n: 2 }]);
    const body = await overview(a.client);
    expect(body.totals).toMatchObject({ sent: 1, opened: 0, clicked: 0, machineOpened: 0 });
    expect(body.topLinks).toEqual([]);
    await expectRollupsMatchRebuild(t());
  });

  it('adds sequence mail to the same figures, keeps days apart, and ranks campaigns with enough volume', async () => {
    const a = await signUpUser(t());
    const db = t().ctx.db;
    const [sequence] = await db
      .insert(emailSequences)
      .values({
        userId: a.user.id,
        name: 'Welcome',
        fromEmail: 'hello@seq.example',
        flowData: { nodes: [], edges: [] },
      })
      .returning();
    const [contact] = await db
      .insert(contacts)
      .values({ userId: a.user.id, email: 'seq@x.io', createdAt: new Date(`${daysAgo(3)}T12:00:00Z`) })
      .returning();
    const sentAt = new Date(`${daysAgo(2)}T09:00:00Z`);
    const sequenceRows = await db
      .insert(sequenceSends)
      .values(
        [0, 1, 2].map((step) => ({
          userId: a.user.id,
          sequenceId: sequence!.id,
          step,
          nodeId: `n${step}`,
          contactId: contact!.id,
          email: 'seq@x.io',
          status: 'sent',
          sentAt,
        })),
      )
      .returning();
    const seqEvent = (
      row: (typeof sequenceRows)[number],
      type: string,
      machine = false,
      detail: string | null = null,
    ) => ({
      userId: a.user.id,
      sequenceId: sequence!.id,
      sequenceSendId: row.id,
      contactId: contact!.id,
      type,
      machine,
      detail,
    });
    // One event at a time, as tracking records them.
    await db.insert(emailEvents).values(seqEvent(sequenceRows[0]!, 'open', true));
    await db.insert(emailEvents).values(seqEvent(sequenceRows[1]!, 'open'));
    await db.insert(emailEvents).values(seqEvent(sequenceRows[1]!, 'click', false, 'https://seq.example/go'));
    await db.insert(emailEvents).values(seqEvent(sequenceRows[2]!, 'click', true, 'https://seq.example/go'));
    // A campaign finished yesterday with enough volume to rank (its counters, as tracking keeps them).
    const [ranked] = await db
      .insert(campaigns)
      .values({
        userId: a.user.id,
        name: 'Ranked',
        subject: 'Hi',
        fromEmail: 'a@acme.example',
        status: 'sent',
        totalSent: 40,
        totalOpens: 10,
        totalClicks: 4,
        sentAt: new Date(`${daysAgo(1)}T10:00:00Z`),
      })
      .returning();

    const body = await overview(a.client);
    expect(body.days.find((d) => d.day === daysAgo(2))).toMatchObject({
      sent: 3,
      opened: 1,
      machineOpened: 1,
      clicked: 1,
    });
    expect(body.days.find((d) => d.day === today())).toMatchObject({ sent: 0 });
    expect(body.domains).toEqual([expect.objectContaining({ domain: 'seq.example', sent: 3, reputation: 'good' })]);
    expect(body.topLinks).toEqual([{ url: 'https://seq.example/go', clicks: 1 }]);
    expect(body.listGrowth.find((d) => d.day === daysAgo(3))).toMatchObject({ added: 1 });
    expect(body.topCampaigns).toEqual([
      { id: ranked!.id, name: 'Ranked', sentAt: expect.any(String), sent: 40, openRate: 25, clickRate: 10 },
    ]);
    // A range that leaves those days out counts none of it.
    const before = await overview(a.client, daysAgo(20), daysAgo(10));
    expect(before.totals.sent).toBe(0);
    expect(before.hasSentMail).toBe(true);

    await expectRollupsMatchRebuild(t());
  });
});
