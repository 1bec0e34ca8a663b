import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { runSendJobs } from '../../../test/send-jobs.ts';
import { signUpUser, useTestApp, type TestApp, type TestClient } from '../../../test/build-app.ts';

/**
 * Counting right (issue 31): a click implies an open; Apple Mail Privacy Protection's pre-fetches
 * are machine opens, kept out of the open rate until a click shows a reader; link scanners' clicks
 * are bot clicks, kept out of the click rate. All through the real /t/o/ and /t/c/ routes.
 */

const LINKS = ['https://shop.example/a', 'https://shop.example/b'];
const blocks = [
  { id: 't', type: 'text', content: { text: 'Hello', tag: 'p' } },
  { id: 'b1', type: 'button', content: { text: 'A', url: LINKS[0] } },
  { id: 'b2', type: 'button', content: { text: 'B', url: LINKS[1] } },
];
const READER =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

async function sendCampaign(t: TestApp, client: TestClient, emails: string[], name: string) {
  await client.patch('/api/auth/user', { postalAddress: '1 Main St' });
  const list = (await client.post('/api/contact-lists', { name: `${name} list` })).json() as { id: number };
  const csv = `email,firstName\n${emails.map((email) => `${email},R`).join('\n')}\n`;
  await client.post('/api/contacts/import-csv', { csvData: csv, listId: list.id });
  const campaign = (
    await client.post('/api/campaigns', {
      name,
      subject: 'Hi',
      fromEmail: 'news@acme.example',
      content: { html: '' },
      blocks,
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
    // Each link once: a button's link stands twice in the HTML (its Outlook-only copy too).
    clicks: [...new Set([...html.matchAll(/href="([^"]+\/t\/c\/[^"]+)"/g)].map((m) => path(m[1])))],
  };
}

/** Moves the campaign's delivery back, so what follows comes that long after it. */
async function deliveredAgo(t: TestApp, campaignId: number, minutes: number) {
  await t.ctx.database.raw.executeSql(
    `UPDATE campaign_sends SET sent_at = now() - make_interval(mins => $2) WHERE campaign_id = $1`,
    [campaignId, minutes],
  );
}

const hit = (client: TestClient, url: string, userAgent: string, remoteAddress = '203.0.113.7') =>
  client.request({ method: 'GET', url, remoteAddress, headers: { 'user-agent': userAgent } });

async function machineFlags(t: TestApp, campaignId: number) {
  const { rows } = await t.ctx.database.raw.executeSql(
    `SELECT type, machine FROM email_events WHERE campaign_id = $1 AND type IN ('open', 'click') ORDER BY id`,
    [campaignId],
  );
  return rows as { type: string; machine: boolean }[];
}

describe('human and machine opens and clicks', () => {
  const t = useTestApp();

  it('a click implies an open: a reader who clicked without loading images counts as opened, click-to-open never above 100%', async () => {
    const { client } = await signUpUser(t());
    const id = await sendCampaign(t(), client, ['ann@x.io', 'bob@x.io', 'cat@x.io', 'dan@x.io'], 'Implied');
    await deliveredAgo(t(), id, 30);
    const anon = t().client();
    // ann opens and clicks; bob and cat only click (images off); dan does nothing.
    await hit(anon, (await urlsOf(t(), 'ann@x.io')).pixel, READER);
    await hit(anon, (await urlsOf(t(), 'ann@x.io')).clicks[0] ?? '', READER);
    await hit(anon, (await urlsOf(t(), 'bob@x.io')).clicks[1] ?? '', READER);
    await hit(anon, (await urlsOf(t(), 'cat@x.io')).clicks[0] ?? '', READER);

    const report = (await client.get(`/api/campaigns/${id}/report`)).json();
    expect(report).toMatchObject({
      delivered: 4,
      uniqueOpens: 3,
      uniqueClicks: 3,
      machineOpens: 0,
      botClicks: 0,
      openRate: 75,
      clickRate: 75,
      clickToOpenRate: 100,
    });
    const item = ((await client.get('/api/campaigns')).json() as { id: number }[]).find((c) => c.id === id);
    expect(item).toMatchObject({ totalOpens: 3, totalClicks: 3, openRate: 75, machineOpens: 0, machineOpenRate: 0 });
    const cat = (await client.get('/api/contacts?search=cat@x.io')).json()[0];
    expect(cat).toMatchObject({ totalEmailsOpened: 1, totalEmailsClicked: 1 });
  });

  it("Apple Mail Privacy Protection's pre-fetch is a machine open, out of the human rate, until a click promotes it", async () => {
    const { client } = await signUpUser(t());
    const id = await sendCampaign(t(), client, ['eve@x.io', 'fay@x.io'], 'Apple');
    const anon = t().client();
    const eve = await urlsOf(t(), 'eve@x.io');
    const fay = await urlsOf(t(), 'fay@x.io');
    // The proxy: its bare user agent from one of Apple's addresses, as the message arrives.
    const proxied = await hit(anon, eve.pixel, 'Mozilla/5.0', '17.58.101.3');
    expect(proxied.statusCode).toBe(200);
    expect(proxied.headers['content-type']).toBe('image/gif');
    // Apple's address alone, with a client's user agent, is the proxy too.
    await hit(
      anon,
      fay.pixel,
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15',
      '17.1.2.3',
    );
    expect(await machineFlags(t(), id)).toEqual([
      { type: 'open', machine: true },
      { type: 'open', machine: true },
    ]);

    let report = (await client.get(`/api/campaigns/${id}/report`)).json();
    expect(report).toMatchObject({ uniqueOpens: 0, machineOpens: 2, openRate: 0, machineOpenRate: 100 });
    let item = ((await client.get('/api/campaigns')).json() as { id: number }[]).find((c) => c.id === id);
    expect(item).toMatchObject({ totalOpens: 0, openRate: 0, machineOpens: 2, machineOpenRate: 100 });
    let stats = (await client.get('/api/analytics/stats')).json();
    expect(stats).toMatchObject({ avgOpenRate: 0, avgMachineOpenRate: 100 });
    expect((await client.get('/api/contacts?search=eve@x.io')).json()[0]).toMatchObject({ totalEmailsOpened: 0 });

    // Eve clicks later, as a reader: her open is a human one now.
    await deliveredAgo(t(), id, 45);
    expect((await hit(anon, eve.clicks[1] ?? '', READER)).headers.location).toBe(LINKS[1]);
    report = (await client.get(`/api/campaigns/${id}/report`)).json();
    expect(report).toMatchObject({
      uniqueOpens: 1,
      machineOpens: 1,
      uniqueClicks: 1,
      openRate: 50,
      machineOpenRate: 50,
    });
    item = ((await client.get('/api/campaigns')).json() as { id: number }[]).find((c) => c.id === id);
    expect(item).toMatchObject({ totalOpens: 1, machineOpens: 1, totalClicks: 1 });
    stats = (await client.get('/api/analytics/stats')).json();
    expect(stats).toMatchObject({ avgOpenRate: 50, avgMachineOpenRate: 50, avgClickRate: 50 });
    expect((await client.get('/api/contacts?search=eve@x.io')).json()[0]).toMatchObject({
      totalEmailsOpened: 1,
      totalEmailsClicked: 1,
    });
  });

  it("a link scanner's clicks (its user agent, or every link within seconds of delivery) are flagged and left out of the click rate", async () => {
    const { client } = await signUpUser(t());
    const id = await sendCampaign(t(), client, ['gus@x.io', 'hal@x.io', 'ivy@x.io'], 'Scanner');
    const anon = t().client();
    const gus = await urlsOf(t(), 'gus@x.io');
    const hal = await urlsOf(t(), 'hal@x.io');
    // A security gateway names itself; the redirect works all the same.
    const scanned = await hit(anon, gus.clicks[0] ?? '', 'Mimecast Link Scanner/1.0');
    expect(scanned.statusCode).toBe(302);
    expect(scanned.headers.location).toBe(LINKS[0]);
    // Another follows both links of hal's message at once, right after delivery, with a browser's user agent.
    await Promise.all(hal.clicks.map((url) => hit(anon, url, READER)));
    await hit(anon, hal.clicks[0] ?? '', READER);

    expect((await machineFlags(t(), id)).every((event) => event.machine)).toBe(true);
    const report = (await client.get(`/api/campaigns/${id}/report`)).json();
    expect(report).toMatchObject({ uniqueClicks: 0, botClicks: 2, uniqueOpens: 0, clickRate: 0, topLinks: [] });
    const item = ((await client.get('/api/campaigns')).json() as { id: number }[]).find((c) => c.id === id);
    expect(item).toMatchObject({ totalClicks: 0, totalOpens: 0 });

    // ivy clicks one link ten minutes after delivery: a reader.
    await deliveredAgo(t(), id, 10);
    await hit(anon, (await urlsOf(t(), 'ivy@x.io')).clicks[1] ?? '', READER);
    expect((await client.get(`/api/campaigns/${id}/report`)).json()).toMatchObject({
      uniqueClicks: 1,
      uniqueOpens: 1,
      botClicks: 2,
      topLinks: [{ url: LINKS[1], clicks: 1, uniqueClicks: 1 }],
    });
  });
});
