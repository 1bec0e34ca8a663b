import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { legacyToken } from '../../../test/legacy-tokens.ts';
import { runSendJobs } from '../../../test/send-jobs.ts';
import { signUpUser, useTestApp, type TestApp, type TestClient } from '../../../test/build-app.ts';
import { png, upload } from '../../../test/image-upload.ts';
import { signRecipientToken } from '../../lib/signed-token.ts';
import { withoutTracking } from './tracking.service.ts';

const LINKS = ['https://shop.example/hero', 'https://shop.example/sale?x=1&y=2', 'https://shop.example/teams'];
const blocks = [
  { id: 't', type: 'text', content: { text: 'Hello {{firstName}}', tag: 'p' } },
  { id: 'i', type: 'image', content: { src: 'https://cdn.example/hero.png', alt: 'Hero', href: LINKS[0] } },
  { id: 'b1', type: 'button', content: { text: 'Shop the sale', url: LINKS[1] } },
  { id: 'b2', type: 'button', content: { text: 'Teams', url: LINKS[2] } },
  { id: 'b3', type: 'button', content: { text: 'The sale again', url: LINKS[1] } },
];
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** Sends a three-link campaign to the addresses; answers its id. */
async function sendCampaign(
  t: TestApp,
  client: TestClient,
  emails: string[],
  name = 'Spring',
  campaignBlocks: unknown[] = blocks,
) {
  await client.patch('/api/auth/user', { postalAddress: '1 Main St' });
  const list = (await client.post('/api/contact-lists', { name: `${name} list` })).json() as { id: number };
  const csv = `email,firstName\n${emails.map((email, i) => `${email},R${i}`).join('\n')}\n`;
  await client.post('/api/contacts/import-csv', { csvData: csv, listId: list.id });
  const campaign = (
    await client.post('/api/campaigns', {
      name,
      subject: 'Hi',
      fromEmail: 'news@acme.example',
      content: { html: '' },
      blocks: campaignBlocks,
      listIds: [list.id],
    })
  ).json() as { id: number };
  const sent = await client.post(`/api/campaigns/${campaign.id}/send`);
  expect(sent.statusCode, sent.body).toBe(200);
  await runSendJobs(t);
  return campaign.id;
}

/** The tracking URLs (paths) of the message sent to `email`, read from the message as sent. */
async function urlsOf(t: TestApp, email: string) {
  const [row] = (await t.ctx.database.raw.executeSql(`SELECT raw FROM outbox_messages WHERE to_address = $1`, [email]))
    .rows as { raw: string }[];
  const raw = row?.raw ?? '';
  // What every client but Outlook on Windows reads (Outlook's VML buttons repeat the buttons' links).
  const html = String((await simpleParser(raw)).html).replace(/<!--\[if mso\]>[\s\S]*?<!\[endif\]-->/g, '');
  const path = (url: string | undefined) => new URL((url ?? '').replaceAll('&amp;', '&')).pathname;
  return {
    pixel: path(/<img src="([^"]+\/t\/o\/[^"]+)"/.exec(html)?.[1]),
    clicks: [...html.matchAll(/href="([^"]+\/t\/c\/[^"]+)"/g)].map((m) => path(m[1])),
    unsubscribe: path(/^List-Unsubscribe: <([^>]+)>/m.exec(raw)?.[1]),
    sendId: Number(
      (
        (await t.ctx.database.raw.executeSql(`SELECT id FROM campaign_sends WHERE email = $1`, [email])).rows[0] as {
          id: string;
        }
      ).id,
    ),
  };
}

async function linkIdsOf(t: TestApp, campaignId: number): Promise<number[]> {
  const { rows } = await t.ctx.database.raw.executeSql(
    `SELECT id FROM campaign_links WHERE campaign_id = $1 ORDER BY id`,
    [campaignId],
  );
  return (rows as { id: number }[]).map((r) => Number(r.id));
}

describe('tracking links', () => {
  const t = useTestApp();

  it('carry one token per recipient: the pixel, every click (index in the path) and the unsubscribe link', async () => {
    const { client } = await signUpUser(t());
    await sendCampaign(t(), client, ['ann@x.io', 'bob@x.io']);
    const ann = await urlsOf(t(), 'ann@x.io');
    const bob = await urlsOf(t(), 'bob@x.io');
    const token = ann.unsubscribe.slice('/u/'.length);
    expect(token).toBe(signRecipientToken(t().ctx.config.sessionSecret, ann.sendId));
    expect(ann.pixel).toBe(`/t/o/${token}`);
    // Four buttons and images, three distinct links: the repeated one has the same index.
    expect(ann.clicks).toEqual([0, 1, 2, 1].map((i) => `/t/c/${token}/${i}`));
    expect(bob.unsubscribe).not.toBe(ann.unsubscribe);
  });

  it('everything a sent mail loads from the app may be loaded by another origin (a webmail, the sandboxed preview)', async () => {
    const { client } = await signUpUser(t());
    const image = (await upload(client, '/api/upload/image', 'logo.png', 'image/png', await png())).json() as {
      url: string;
    };
    const withImages = [
      ...blocks,
      { id: 'u', type: 'image', content: { src: image.url, alt: 'Logo' } },
      // The editor's sample image, as it places it: on the app's own address.
      {
        id: 's',
        type: 'image',
        content: { src: `${t().ctx.config.publicUrl}/sample-images/spring-flowers.jpg`, alt: 'Flowers' },
      },
      // Social links' icons ship with the web app too.
      { id: 'x', type: 'social', content: { links: [{ network: 'x', url: 'https://x.com/acme' }] } },
    ];
    await sendCampaign(t(), client, ['viewer@x.io'], 'Loaded', withImages);
    const [row] = (
      await t().ctx.database.raw.executeSql(`SELECT raw FROM outbox_messages WHERE to_address = $1`, ['viewer@x.io'])
    ).rows as { raw: string }[];
    const html = String((await simpleParser(row?.raw ?? '')).html);
    const origin = new URL(t().ctx.config.publicUrl).origin;
    const loaded = [...html.matchAll(/\bsrc="([^"]+)"/g)]
      .map((match) => new URL((match[1] ?? '').replaceAll('&amp;', '&')))
      .filter((url) => url.origin === origin)
      .map((url) => url.pathname);
    expect(loaded).toEqual([
      expect.stringMatching(/^\/uploads\//),
      '/sample-images/spring-flowers.jpg',
      '/images/social/x.png',
      expect.stringMatching(/^\/t\/o\//),
    ]);
    const anon = t().client();
    for (const path of loaded) {
      const response = await anon.get(path);
      // The sample images and icons are the web build's (not served by this test app); the header is on every answer.
      if (!/^\/(sample-)?images\//.test(path)) expect(response.statusCode, path).toBe(200);
      expect(response.headers['cross-origin-resource-policy'], path).toBe('cross-origin');
    }
    // The app's own pages and API stay same-origin.
    expect((await anon.get('/api/pricing/plans')).headers['cross-origin-resource-policy']).toBe('same-origin');
  });

  it('work in a campaign made through the API with only content.html: merge tags, tracked links, pixel, text part', async () => {
    const { client } = await signUpUser(t());
    await client.patch('/api/auth/user', { postalAddress: '1 Main St' });
    const list = (await client.post('/api/contact-lists', { name: 'Raw' })).json() as { id: number };
    await client.post('/api/contacts/import-csv', { csvData: 'email,firstName\nraw@x.io,Rae\n', listId: list.id });
    const html = `<html><head><style>p { color: #222222; }</style></head><body><p>Hi {{firstName|there}},</p>
      <p>See <a href="${LINKS[1]?.replaceAll('&', '&amp;')}">the sale</a>.</p></body></html>`;
    const unknownTag = await client.post('/api/campaigns', {
      name: 'Raw',
      subject: 'Raw',
      fromEmail: 'news@acme.example',
      content: { html: html.replace('{{firstName|there}}', '{{nickname}}') },
      listIds: [list.id],
    });
    expect(unknownTag.statusCode).toBe(400);
    expect(unknownTag.json().message).toMatch(/^Unknown merge tag \{\{nickname\}\}/);
    const created = await client.post('/api/campaigns', {
      name: 'Raw',
      subject: 'Raw for {{firstName}}',
      fromEmail: 'news@acme.example',
      content: { html },
      listIds: [list.id],
    });
    expect(created.statusCode, created.body).toBe(201);
    const campaignId = (created.json() as { id: number }).id;
    expect((await client.post(`/api/campaigns/${campaignId}/send`)).statusCode).toBe(200);
    await runSendJobs(t());

    const [row] = (
      await t().ctx.database.raw.executeSql(`SELECT raw FROM outbox_messages WHERE to_address = $1`, ['raw@x.io'])
    ).rows as { raw: string }[];
    const mail = await simpleParser(row?.raw ?? '');
    expect(mail.subject).toBe('Raw for Rae');
    expect(String(mail.html)).toContain('<p style="color: #222222;">Hi Rae,</p>');
    expect(mail.text).toMatch(/^Hi Rae,\n\nSee the sale \[http:\/\/[^\]]+\/t\/c\/[^\]]+\/0\]\./);
    expect(mail.text).toContain('1 Main St');
    const urls = await urlsOf(t(), 'raw@x.io');
    expect(urls.pixel).toMatch(/^\/t\/o\//);
    expect(urls.clicks).toHaveLength(1);
    expect(urls.unsubscribe).toMatch(/^\/u\//);
    const click = await t()
      .client()
      .get(urls.clicks[0] ?? '');
    expect(click.statusCode).toBe(302);
    expect(click.headers.location).toBe(LINKS[1]);
  });

  it('record an open, and clicks that redirect to the link at the index, each counted once per recipient', async () => {
    const { client } = await signUpUser(t());
    const campaignId = await sendCampaign(t(), client, ['cy@x.io', 'dee@x.io', 'eve@x.io']);
    const cy = await urlsOf(t(), 'cy@x.io');
    const dee = await urlsOf(t(), 'dee@x.io');
    const anon = t().client();

    // Read a while after delivery: three links clicked within seconds of delivery would be a
    // link scanner's burst (machine-traffic.int.test.ts), not a reader's.
    await t().ctx.database.raw.executeSql(
      `UPDATE campaign_sends SET sent_at = sent_at - interval '10 minutes' WHERE campaign_id = $1`,
      [campaignId],
    );
    const pixel = await anon.get(cy.pixel);
    expect(pixel.statusCode).toBe(200);
    expect(pixel.headers['content-type']).toBe('image/gif');
    expect(pixel.headers['cache-control']).toBe('no-store, max-age=0');
    await anon.get(cy.pixel);
    for (const [i, url] of LINKS.entries()) {
      const redirect = await anon.get(cy.clicks[i] ?? '');
      expect(redirect.statusCode).toBe(302);
      expect(redirect.headers.location).toBe(url);
      expect(redirect.headers['cache-control']).toBe('no-store');
    }
    expect((await anon.get(dee.clicks[1] ?? '')).headers.location).toBe(LINKS[1]);

    // Dee never loaded the pixel, but her click implies an open (issue 31): 2 opened, 2 clicked.
    const campaign = (await client.get(`/api/campaigns/${campaignId}`)).json();
    expect(campaign).toMatchObject({ totalSent: 3, totalOpens: 2, totalClicks: 2 });
    const report = (await client.get(`/api/campaigns/${campaignId}/report`)).json();
    expect(report).toMatchObject({ uniqueOpens: 2, uniqueClicks: 2, clickToOpenRate: 100 });
    expect(report.topLinks).toEqual([
      { url: LINKS[1], clicks: 2, uniqueClicks: 2 },
      { url: LINKS[0], clicks: 1, uniqueClicks: 1 },
      { url: LINKS[2], clicks: 1, uniqueClicks: 1 },
    ]);
    const contact = (await client.get('/api/contacts?search=cy@x.io')).json()[0];
    expect(contact).toMatchObject({ totalEmailsOpened: 1, totalEmailsClicked: 1 });
  });

  it('every open-pixel hit inserts an event row without limit: loads of one message within 10 minutes are one open, a load after that another', async () => {
    const { client } = await signUpUser(t());
    const campaignId = await sendCampaign(t(), client, ['ida@x.io', 'jon@x.io'], 'Pixel');
    const ida = await urlsOf(t(), 'ida@x.io');
    const anon = t().client();
    const opens = async () =>
      Number(
        (
          (
            await t().ctx.database.raw.executeSql(
              `SELECT count(*)::int AS n FROM email_events WHERE send_id = $1 AND type = 'open'`,
              [ida.sendId],
            )
          ).rows[0] as { n: number }
        ).n,
      );
    for (let i = 0; i < 20; i += 1) expect((await anon.get(ida.pixel)).statusCode).toBe(200);
    const atOnce = await Promise.all(Array.from({ length: 5 }, () => anon.get(ida.pixel)));
    expect(atOnce.map((r) => r.headers['content-type'])).toEqual(Array(5).fill('image/gif'));
    expect(await opens()).toBe(1);

    // Eleven minutes on (the event is moved back instead of waiting): the next load is a new open.
    await t().ctx.database.raw.executeSql(
      `UPDATE email_events SET created_at = created_at - interval '11 minutes' WHERE send_id = $1`,
      [ida.sendId],
    );
    await anon.get(ida.pixel);
    await anon.get(ida.pixel);
    expect(await opens()).toBe(2);

    // Unique figures are unchanged, and the report's timeline counts the two opens the log holds.
    expect((await client.get(`/api/campaigns/${campaignId}`)).json()).toMatchObject({ totalOpens: 1 });
    const report = (await client.get(`/api/campaigns/${campaignId}/report`)).json();
    expect(report.uniqueOpens).toBe(1);
    expect(report.timeline.reduce((sum: number, hour: { opens: number }) => sum + hour.opens, 0)).toBe(2);
  });

  it('unsubscribe with the same token: the page (GET) and an RFC 8058 one-click POST', async () => {
    const { client } = await signUpUser(t(), { company: 'Acme Ltd' });
    await sendCampaign(t(), client, ['fay@x.io']);
    const fay = await urlsOf(t(), 'fay@x.io');
    const anon = t().client();
    const page = await anon.get(fay.unsubscribe);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<h1>Unsubscribe from Acme Ltd?</h1>');
    const oneClick = await anon.request({
      method: 'POST',
      url: fay.unsubscribe,
      headers: { ...FORM, origin: 'https://mail.provider.example' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode).toBe(200);
    expect(oneClick.body).toContain('<h1>You are unsubscribed</h1>');
    expect((await client.get('/api/contacts?search=fay@x.io')).json()[0].isActive).toBe(false);
  });

  it('keep working in mail sent with the older tokens, one per purpose, each on its own route only', async () => {
    const { client } = await signUpUser(t(), { company: 'Acme Ltd' });
    const campaignId = await sendCampaign(t(), client, ['gus@x.io', 'hal@x.io']);
    const { sendId } = await urlsOf(t(), 'gus@x.io');
    const linkIds = await linkIdsOf(t(), campaignId);
    const secret = t().ctx.config.sessionSecret;
    const old = (purpose: 'open' | 'click' | 'unsubscribe', ids: number[]) => legacyToken(secret, purpose, ids);
    const anon = t().client();

    expect((await anon.get(`/t/o/${old('open', [sendId])}`)).headers['content-type']).toBe('image/gif');
    const click = await anon.get(`/t/c/${old('click', [sendId, linkIds[2] as number])}`);
    expect(click.statusCode).toBe(302);
    expect(click.headers.location).toBe(LINKS[2]);
    expect((await anon.get(`/u/${old('unsubscribe', [sendId])}?preferences=1`)).body).toContain(
      '<h1>Email preferences</h1>',
    );
    const oneClick = await anon.request({
      method: 'POST',
      url: `/u/${old('unsubscribe', [sendId])}`,
      headers: FORM,
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode).toBe(200);
    expect(oneClick.body).toContain('<h1>You are unsubscribed</h1>');
    expect((await client.get(`/api/campaigns/${campaignId}`)).json()).toMatchObject({ totalOpens: 1, totalClicks: 1 });

    // An old token works only where it was made for; a new token only in the new click form.
    const hal = await urlsOf(t(), 'hal@x.io');
    const halToken = hal.unsubscribe.slice('/u/'.length);
    for (const url of [
      `/u/${old('open', [hal.sendId])}`,
      `/u/${old('click', [hal.sendId, linkIds[0] as number])}`,
      `/t/o/${old('unsubscribe', [hal.sendId])}`,
      `/t/c/${old('open', [hal.sendId])}`,
      `/t/c/${old('click', [hal.sendId, linkIds[0] as number])}/0`,
      `/t/c/${halToken}`,
      // A link of another campaign, by id, through an old click token of this send.
      `/t/c/${old('click', [hal.sendId, 999_999])}`,
    ])
      expect((await anon.get(url)).statusCode, url).toBe(404);
    expect((await client.get('/api/contacts?search=hal@x.io')).json()[0]).toMatchObject({
      isActive: true,
      totalEmailsOpened: 0,
      totalEmailsClicked: 0,
    });
  });

  it('answer 404, never 500, to forged tokens and indexes out of range or malformed, recording nothing', async () => {
    const { client } = await signUpUser(t());
    const campaignId = await sendCampaign(t(), client, ['ivy@x.io']);
    const ivy = await urlsOf(t(), 'ivy@x.io');
    const token = ivy.unsubscribe.slice('/u/'.length);
    const [payload, mac] = token.split('.') as [string, string];
    const secret = t().ctx.config.sessionSecret;
    const forged = [
      `${payload}.${mac.slice(0, -2)}${mac.endsWith('AA') ? 'BA' : 'AA'}`,
      `${Buffer.from(String(ivy.sendId + 1)).toString('base64url')}.${mac}`,
      signRecipientToken('another-secret-another-secret-another-1', ivy.sendId),
      signRecipientToken(secret, 999_999_999),
      'not-a-token',
      'a.b.c',
      '%00',
      'x'.repeat(100),
    ];
    const anon = t().client();
    for (const bad of forged) {
      for (const url of [`/t/o/${bad}`, `/t/c/${bad}/0`, `/t/c/${bad}`]) {
        const response = await anon.get(url);
        expect(response.statusCode, url).toBe(404);
        expect(response.json(), url).toEqual({ message: 'Not found' });
      }
      expect((await anon.get(`/u/${bad}`)).statusCode, bad).toBe(404);
      expect((await anon.request({ method: 'POST', url: `/u/${bad}`, headers: FORM, payload: '' })).statusCode).toBe(
        404,
      );
    }
    for (const index of [
      '3',
      '4',
      '999999',
      '1000000',
      '-1',
      '01',
      '1.0',
      '1e2',
      'x',
      '0x1',
      '%20',
      '99999999999999999999',
    ])
      expect((await anon.get(`/t/c/${token}/${index}`)).statusCode, index).toBe(404);
    expect((await anon.get(`/t/c/${token}/0/extra`)).statusCode).toBe(404);
    // Longer than any token (Fastify's 100-character limit for a path parameter): 414, as before.
    expect((await anon.get(`/t/c/${'x'.repeat(101)}/0`)).statusCode).toBe(414);
    expect((await client.get(`/api/campaigns/${campaignId}`)).json()).toMatchObject({ totalOpens: 0, totalClicks: 0 });
    expect((await client.get('/api/contacts?search=ivy@x.io')).json()[0].isActive).toBe(true);
  });

  it('are taken out of a message viewed by its sender, in the current and the older format', async () => {
    const { client } = await signUpUser(t());
    const campaignId = await sendCampaign(t(), client, ['jo@x.io']);
    const jo = await urlsOf(t(), 'jo@x.io');
    const [hero, sale] = await linkIdsOf(t(), campaignId);
    const secret = t().ctx.config.sessionSecret;
    const base = t().ctx.config.publicUrl;
    const html = [
      `<img src="${base}${jo.pixel}" width="1" height="1" alt="">`,
      `<a href="${base}${jo.clicks[1]}">new</a>`,
      `<img src="${base}/t/o/${legacyToken(secret, 'open', [jo.sendId])}" alt="">`,
      `<a href="${base}/t/c/${legacyToken(secret, 'click', [jo.sendId, hero as number])}">old</a>`,
      `<a href="${base}/t/c/${signRecipientToken('another-secret-another-secret-another-1', jo.sendId)}/0">foreign</a>`,
      `<a href="${base}/t/c/${legacyToken(secret, 'click', [jo.sendId, (sale as number) + 1000])}">unknown link</a>`,
    ].join('\n');
    const untracked = (await withoutTracking(t().ctx.db, secret, html, campaignId)).split('\n');
    expect(untracked[0]).toBe('');
    expect(untracked[1]).toBe('<a href="https://shop.example/sale?x=1&amp;y=2">new</a>');
    expect(untracked[2]).toBe('');
    expect(untracked[3]).toBe('<a href="https://shop.example/hero">old</a>');
    expect(untracked.slice(4)).toEqual(html.split('\n').slice(4));
  });
});
