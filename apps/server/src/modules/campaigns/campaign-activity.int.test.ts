import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { runSendJobs } from '../../../test/send-jobs.ts';
import { signUpUser, useTestApp, type TestApp, type TestClient } from '../../../test/build-app.ts';

/** The report's who-lists and their CSV export (issue 31): the owner's only, bad queries 400. */

const READER =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15';
const blocks = [{ id: 'b', type: 'button', content: { text: 'Shop', url: 'https://shop.example/sale' } }];

async function sendCampaign(t: TestApp, client: TestClient, emails: string[], name: string) {
  await client.patch('/api/auth/user', { postalAddress: '1 Main St' });
  const list = (await client.post('/api/contact-lists', { name: `${name} list` })).json() as { id: number };
  const csv = `email,firstName,lastName\n${emails.map((email, i) => `${email},Reader${i},Smith`).join('\n')}\n`;
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
  await t.ctx.database.raw.executeSql(
    `UPDATE campaign_sends SET sent_at = now() - interval '1 hour' WHERE campaign_id = $1`,
    [campaign.id],
  );
  return campaign.id;
}

async function urlsOf(t: TestApp, email: string) {
  const { rows } = await t.ctx.database.raw.executeSql(`SELECT raw FROM outbox_messages WHERE to_address = $1`, [
    email,
  ]);
  const raw = (rows[0] as { raw: string }).raw;
  const html = String((await simpleParser(raw)).html);
  const path = (url: string | undefined) => new URL((url ?? '').replaceAll('&amp;', '&')).pathname;
  return {
    pixel: path(/<img src="([^"]+\/t\/o\/[^"]+)"/.exec(html)?.[1]),
    click: path(/href="([^"]+\/t\/c\/[^"]+)"/.exec(html)?.[1]),
    unsubscribe: path(/^List-Unsubscribe: <([^>]+)>/m.exec(raw)?.[1]),
  };
}

describe('campaign report who-lists', () => {
  const t = useTestApp();

  it('name who opened, clicked, bounced (with reason) and unsubscribed; searchable, paged and exported as CSV, to the owner only', async () => {
    const owner = await signUpUser(t());
    const id = await sendCampaign(t(), owner.client, ['ann@x.io', 'bob@x.io', 'cat@x.io', 'dan@x.io'], 'Spring sale');
    const anon = t().client();
    const get = (client: TestClient, url: string) =>
      client.request({ method: 'GET', url, headers: { 'user-agent': READER } });
    const ann = await urlsOf(t(), 'ann@x.io');
    const bob = await urlsOf(t(), 'bob@x.io');
    const cat = await urlsOf(t(), 'cat@x.io');
    await get(anon, ann.pixel);
    await get(anon, ann.pixel); // within the repeat window: still one open
    await get(anon, bob.click); // no image loaded: an open implied by the click
    await get(anon, cat.pixel);
    expect((await anon.request({ method: 'POST', url: cat.unsubscribe })).statusCode).toBe(200);
    // A mailbox-full bounce report for dan (modules/bounces writes these rows).
    await t().ctx.database.raw.executeSql(
      `INSERT INTO email_events (user_id, campaign_id, send_id, contact_id, type, reason, detail)
       SELECT user_id, campaign_id, id, contact_id, 'bounce', 'mailbox_full', '552 5.2.2 Mailbox full'
       FROM campaign_sends WHERE email = 'dan@x.io'`,
    );

    const list = async (query: string) => {
      const response = await owner.client.get(`/api/campaigns/${id}/activity?${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as {
        items: { email: string; name: string; count: number; detail: string | null }[];
        total: number;
      };
    };
    const opened = await list('kind=opened');
    expect(opened.total).toBe(3);
    expect(opened.items.map((i) => i.email).sort()).toEqual(['ann@x.io', 'bob@x.io', 'cat@x.io']);
    expect(opened.items.find((i) => i.email === 'bob@x.io')).toMatchObject({ detail: 'Implied by a click', count: 1 });
    expect(opened.items.find((i) => i.email === 'ann@x.io')).toMatchObject({ name: 'Reader0 Smith', detail: null });
    expect((await list('kind=clicked')).items).toEqual([
      expect.objectContaining({ email: 'bob@x.io', detail: 'https://shop.example/sale', count: 1 }),
    ]);
    expect((await list('kind=bounced')).items).toEqual([
      expect.objectContaining({ email: 'dan@x.io', detail: 'mailbox_full: 552 5.2.2 Mailbox full' }),
    ]);
    expect((await list('kind=unsubscribed')).items.map((i) => i.email)).toEqual(['cat@x.io']);
    expect((await list('kind=complained')).total).toBe(0);
    // Search by address or name; LIKE's wildcards are taken literally.
    expect((await list('kind=opened&search=BOB')).items.map((i) => i.email)).toEqual(['bob@x.io']);
    expect((await list('kind=opened&search=reader2')).items.map((i) => i.email)).toEqual(['cat@x.io']);
    expect((await list('kind=opened&search=%25')).total).toBe(0);
    // Paged: two per page.
    const first = await list('kind=opened&pageSize=2&page=1');
    const second = await list('kind=opened&pageSize=2&page=2');
    expect(first.items).toHaveLength(2);
    expect(second.items).toHaveLength(1);
    expect(first.total).toBe(3);
    expect(new Set([...first.items, ...second.items].map((i) => i.email)).size).toBe(3);

    const csv = await owner.client.get(`/api/campaigns/${id}/activity.csv?kind=opened`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="Spring-sale-opened.csv"');
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('email,name,first_at,count,detail');
    expect(lines).toHaveLength(4);
    expect(lines.find((line) => line.startsWith('"bob@x.io"'))).toMatch(/"Implied by a click"$/);

    // Another account sees nothing of it: 404, not an empty list or file.
    const other = await signUpUser(t());
    expect((await other.client.get(`/api/campaigns/${id}/activity?kind=opened`)).statusCode).toBe(404);
    expect((await other.client.get(`/api/campaigns/${id}/activity.csv?kind=opened`)).statusCode).toBe(404);
    expect((await t().client().get(`/api/campaigns/${id}/activity?kind=opened`)).statusCode).toBe(401);
    expect((await t().client().get(`/api/campaigns/${id}/activity.csv?kind=opened`)).statusCode).toBe(401);

    // Bad queries are 400 with a message, never 500.
    for (const query of [
      '',
      'kind=everyone',
      'kind=opened&page=0',
      'kind=opened&page=x',
      'kind=opened&pageSize=101',
      'kind=opened&pageSize=1.5',
      `kind=opened&search=${'a'.repeat(201)}`,
    ]) {
      const response = await owner.client.get(`/api/campaigns/${id}/activity?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().message, query).toEqual(expect.any(String));
    }
    expect((await owner.client.get(`/api/campaigns/${id}/activity.csv?kind=nobody`)).statusCode).toBe(400);
    expect((await owner.client.get(`/api/campaigns/abc/activity?kind=opened`)).statusCode).toBe(400);
  });
});
