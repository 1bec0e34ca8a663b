import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { runSendJobs } from '../../../test/send-jobs.ts';
import { signUpUser, useTestApp, type TestApp, type TestClient } from '../../../test/build-app.ts';

const blocks = [
  { id: 't', type: 'text', content: { text: 'Hello {{firstName}}', tag: 'p' } },
  { id: 'b1', type: 'button', content: { text: 'Shop', url: 'https://shop.example/sale' } },
  { id: 'b2', type: 'button', content: { text: 'Teams', url: 'https://shop.example/teams' } },
];

/** Sends a campaign to `count` new addresses; answers its id and each message's pixel and click paths. */
async function sendCampaign(t: TestApp, client: TestClient, name: string, count: number) {
  const list = (await client.post('/api/contact-lists', { name })).json() as { id: number };
  const csv = `email,firstName\n${Array.from({ length: count }, (_, i) => `${name}${i}@x.io,R${i}`).join('\n')}\n`;
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
  const { rows } = await t.ctx.database.raw.executeSql(
    `SELECT raw FROM outbox_messages WHERE campaign_id = $1 ORDER BY id`,
    [campaign.id],
  );
  const messages = [];
  for (const { raw } of rows as { raw: string }[]) {
    const html = String((await simpleParser(raw)).html);
    const path = (url: string | undefined) => new URL(url ?? '').pathname;
    messages.push({
      pixel: path(/<img src="([^"]+\/t\/o\/[^"]+)"/.exec(html)?.[1]),
      clicks: [...html.matchAll(/href="([^"]+\/t\/c\/[^"]+)"/g)].map((m) => path(m[1])),
    });
  }
  expect(messages).toHaveLength(count);
  return { id: campaign.id, messages };
}

type ListItem = {
  id: number;
  totalSent: number;
  totalOpens: number;
  totalClicks: number;
  openRate: number;
  clickRate: number;
};

describe('open and click totals', () => {
  const t = useTestApp();

  it('agree between the campaign list, the campaign report and the dashboard, also when one message is opened several times at once', async () => {
    const { client } = await signUpUser(t());
    await client.patch('/api/auth/user', { postalAddress: '1 Main St' });
    const spring = await sendCampaign(t(), client, 'spring', 46);
    const summer = await sendCampaign(t(), client, 'summer', 20);
    const anon = t().client();
    const times = (n: number, url: string) => Promise.all(Array.from({ length: n }, () => anon.get(url)));
    // Read an hour after delivery: clicks on two links at once right after delivery are a link
    // scanner's burst (machine-traffic.int.test.ts), which no rate counts.
    await t().ctx.database.raw.executeSql(`UPDATE campaign_sends SET sent_at = sent_at - interval '1 hour'`);

    // spring: 11 recipients open, each pixel loaded three times at once; 5 of them click twice at once and once more elsewhere.
    for (const [i, message] of spring.messages.slice(0, 11).entries()) {
      expect((await times(3, message.pixel)).map((r) => r.statusCode)).toEqual([200, 200, 200]);
      if (i < 5) {
        await Promise.all([times(2, message.clicks[0] ?? ''), anon.get(message.clicks[1] ?? '')]);
      }
    }
    // summer: 7 open (twice at once), 2 click, one of whom never loaded the pixel.
    for (const message of summer.messages.slice(0, 7)) await times(2, message.pixel);
    await anon.get(summer.messages[0]?.clicks[1] ?? '');
    await anon.get(summer.messages[10]?.clicks[0] ?? '');

    const list = (await client.get('/api/campaigns')).json() as ListItem[];
    const expected = new Map([
      [spring.id, { totalSent: 46, totalOpens: 11, totalClicks: 5, openRate: 23.9, clickRate: 10.9 }],
      // The summer clicker who never loaded the pixel opened all the same (a click implies an open, issue 31).
      [summer.id, { totalSent: 20, totalOpens: 8, totalClicks: 2, openRate: 40, clickRate: 10 }],
    ]);
    for (const [id, totals] of expected) {
      const item = list.find((c) => c.id === id);
      expect(item).toMatchObject(totals);
      expect((await client.get(`/api/campaigns/${id}`)).json()).toMatchObject(totals);
      const report = (await client.get(`/api/campaigns/${id}/report`)).json();
      expect(report).toMatchObject({
        sent: totals.totalSent,
        delivered: totals.totalSent,
        uniqueOpens: totals.totalOpens,
        uniqueClicks: totals.totalClicks,
        openRate: totals.openRate,
        clickRate: totals.clickRate,
      });
    }

    // The dashboard: opens (clicks) over sent across the sent campaigns, here (11 + 8) / 66 and (5 + 2) / 66.
    const stats = (await client.get('/api/analytics/stats')).json();
    expect(stats).toMatchObject({ avgOpenRate: 28.8, avgMachineOpenRate: 0, avgClickRate: 10.6 });
    expect(stats.trends.openRate.current).toBe(28.8);
    expect(stats.trends.clickRate.current).toBe(10.6);

    // Each opener's contact counts the campaign once, however often and however simultaneously they opened.
    const { rows } = await t().ctx.database.raw.executeSql(
      `SELECT sum(total_emails_opened)::int AS opened, max(total_emails_opened) AS most,
              sum(total_emails_clicked)::int AS clicked, max(total_emails_clicked) AS "mostClicked"
       FROM contacts WHERE email LIKE 'spring%'`,
    );
    expect(rows[0]).toEqual({ opened: 11, most: 1, clicked: 5, mostClicked: 1 });
  });
});
