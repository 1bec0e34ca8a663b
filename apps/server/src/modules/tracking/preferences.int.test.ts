import { describe, expect, it } from 'vitest';
import { runSendJobs } from '../../../test/send-jobs.ts';
import { signUpUser, useTestApp, type TestApp, type TestClient } from '../../../test/build-app.ts';
import { legacyToken } from '../../../test/legacy-tokens.ts';
import { signRecipientToken } from '../../lib/signed-token.ts';

const blocks = [{ id: 'b1', type: 'text', content: { text: 'Hello {{firstName}}', tag: 'p' } }];
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** Sends a campaign to one address and returns the unsubscribe and preferences paths from the message itself. */
async function sentTo(t: TestApp, client: TestClient, email: string) {
  await client.patch('/api/auth/user', { postalAddress: '1 Main St' });
  const list = (await client.post('/api/contact-lists', { name: `Newsletter ${email.split('@')[0]}` })).json() as {
    id: number;
  };
  await client.post('/api/contacts/import-csv', { csvData: `email,firstName\n${email},Ann\n`, listId: list.id });
  const campaign = (
    await client.post('/api/campaigns', {
      name: 'News',
      subject: 'Hi',
      fromEmail: 'news@acme.example',
      fromName: 'Acme News',
      content: { html: '' },
      blocks,
      listIds: [list.id],
    })
  ).json() as { id: number };
  expect((await client.post(`/api/campaigns/${campaign.id}/send`)).statusCode).toBe(200);
  await runSendJobs(t);
  const [message] = (
    await t.ctx.database.raw.executeSql(`SELECT raw FROM outbox_messages WHERE to_address = $1`, [email])
  ).rows as { raw: string }[];
  const unsubscribe = new URL(/^List-Unsubscribe: <([^>]+)>/m.exec(message?.raw ?? '')?.[1] ?? '').pathname;
  const preferences = new URL(
    (
      /href="([^"]+\?preferences=1)"/.exec(message?.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=') ?? '')?.[1] ?? ''
    ).replaceAll('&amp;', '&'),
  );
  expect(`${preferences.pathname}`).toBe(unsubscribe);
  return { listId: list.id, unsubscribe, preferences: `${preferences.pathname}${preferences.search}` };
}

/** Where the address stands in the database: suppression reasons, whether the contact is active, unsubscribe events. */
async function stateOf(t: TestApp, email: string) {
  const sql = (text: string) => t.ctx.database.raw.executeSql(text, [email]).then((r) => r.rows);
  const suppressions = (await sql('SELECT reason FROM suppressions WHERE email = $1')) as { reason: string }[];
  const [contact] = (await sql('SELECT is_active FROM contacts WHERE email = $1')) as { is_active: boolean }[];
  const events = (await sql(
    `SELECT e.id FROM email_events e JOIN campaign_sends s ON s.id = e.send_id WHERE s.email = $1 AND e.type = 'unsubscribe'`,
  )) as unknown[];
  return {
    suppressions: suppressions.map((s) => s.reason),
    active: contact?.is_active,
    unsubscribeEvents: events.length,
  };
}

describe('unsubscribe and preferences pages', () => {
  const t = useTestApp();

  it('GET shows the masked address, the sender and a form, and changes nothing', async () => {
    const { client } = await signUpUser(t(), { company: 'Acme Ltd' });
    const { unsubscribe, preferences } = await sentTo(t(), client, 'ann@x.io');
    const anon = t().client();

    const confirm = await anon.get(unsubscribe);
    expect(confirm.statusCode).toBe(200);
    expect(confirm.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(confirm.headers['cache-control']).toBe('no-store');
    expect(confirm.headers['content-security-policy']).toContain("script-src 'self'");
    expect(confirm.body).toContain('<h1>Unsubscribe from Acme Ltd?</h1>');
    expect(confirm.body).toContain('Unsubscribe from all emails');
    expect(confirm.body).toContain(
      `<form method="post" action="${unsubscribe}"><input type="hidden" name="action" value="unsubscribe">`,
    );

    const prefs = await anon.get(preferences);
    expect(prefs.statusCode).toBe(200);
    expect(prefs.body).toContain('<h1>Email preferences</h1>');
    expect(prefs.body).toContain('a•••@x.io');
    expect(prefs.body).not.toContain('ann@x.io');
    expect(prefs.body).toContain('Acme Ltd &lt;news@acme.example&gt;');
    expect(prefs.body).toContain('>Subscribed<');
    expect(prefs.body).not.toContain('<script');

    expect(await stateOf(t(), 'ann@x.io')).toEqual({ suppressions: [], active: true, unsubscribeEvents: 0 });
  });

  it('the preferences page lists the lists the address is on; leaving one keeps the others and the subscription', async () => {
    const { client } = await signUpUser(t(), { company: 'Acme Ltd' });
    const { listId, preferences, unsubscribe } = await sentTo(t(), client, 'lea@x.io');
    const second = (await client.post('/api/contact-lists', { name: 'Garden tips' })).json() as { id: number };
    await client.post('/api/contacts/import-csv', { csvData: 'email\nlea@x.io\n', listId: second.id });
    const anon = t().client();

    const page = await anon.get(preferences);
    expect(page.body).toContain('<h2>Your lists</h2>');
    expect(page.body).toContain('Newsletter lea');
    expect(page.body).toContain('Garden tips');
    expect(page.body).toContain(`name="listId" value="${second.id}"`);

    const left = await anon.request({
      method: 'POST',
      url: unsubscribe,
      headers: FORM,
      payload: `action=leave-list&listId=${second.id}`,
    });
    expect(left.statusCode).toBe(200);
    expect(left.body).toContain('You left the list.');
    expect(left.body).not.toContain('Garden tips');
    expect(left.body).toContain('Newsletter lea');
    const lists = (await client.get('/api/contact-lists')).json() as { id: number; subscriberCount: number }[];
    expect(lists.find((list) => list.id === second.id)?.subscriberCount).toBe(0);
    expect(lists.find((list) => list.id === listId)?.subscriberCount).toBe(1);
    // Still subscribed: no suppression, the contact active.
    expect(await stateOf(t(), 'lea@x.io')).toEqual({ suppressions: [], active: true, unsubscribeEvents: 0 });

    // Another account's list id changes nothing.
    const other = await signUpUser(t());
    const foreign = (await other.client.post('/api/contact-lists', { name: 'Not yours' })).json() as { id: number };
    const refused = await anon.request({
      method: 'POST',
      url: unsubscribe,
      headers: FORM,
      payload: `action=leave-list&listId=${foreign.id}`,
    });
    expect(refused.body).toContain('You were not on that list any more.');
    const bad = await anon.request({ method: 'POST', url: unsubscribe, headers: FORM, payload: 'action=leave-list' });
    expect(bad.statusCode).toBe(400);
  });

  it('POST unsubscribes once however often it is sent, by form, one-click or a bare POST', async () => {
    const { client } = await signUpUser(t(), { company: 'Acme Ltd' });
    const { unsubscribe, preferences } = await sentTo(t(), client, 'bob@x.io');
    const anon = t().client();

    const first = await anon.request({
      method: 'POST',
      url: unsubscribe,
      headers: FORM,
      payload: 'action=unsubscribe',
    });
    expect(first.statusCode).toBe(200);
    expect(first.body).toContain('<h1>You are unsubscribed</h1>');
    expect(first.body).toContain('b•••@x.io will not receive any more email from Acme Ltd.');
    expect(first.body).toContain('name="action" value="resubscribe"');
    expect(await stateOf(t(), 'bob@x.io')).toEqual({
      suppressions: ['unsubscribe'],
      active: false,
      unsubscribeEvents: 1,
    });

    const oneClick = await anon.request({
      method: 'POST',
      url: unsubscribe,
      headers: { ...FORM, origin: 'https://mail.provider.example' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode).toBe(200);
    expect((await anon.request({ method: 'POST', url: unsubscribe })).statusCode).toBe(200);
    expect(await stateOf(t(), 'bob@x.io')).toEqual({
      suppressions: ['unsubscribe'],
      active: false,
      unsubscribeEvents: 1,
    });

    const prefs = await anon.get(preferences);
    expect(prefs.body).toContain('>Unsubscribed<');
    expect(prefs.body).toContain('Resubscribe to Acme Ltd');
    expect(prefs.body).not.toContain('value="unsubscribe"');
  });

  it('POST action=resubscribe undoes the recipient’s own unsubscribe, idempotently, and mail reaches them again', async () => {
    const { client } = await signUpUser(t(), { company: 'Acme Ltd' });
    const { unsubscribe, preferences, listId } = await sentTo(t(), client, 'cy@x.io');
    const anon = t().client();
    await anon.request({ method: 'POST', url: unsubscribe, headers: FORM, payload: 'action=unsubscribe' });

    const back = await anon.request({ method: 'POST', url: unsubscribe, headers: FORM, payload: 'action=resubscribe' });
    expect(back.statusCode).toBe(200);
    expect(back.body).toContain('<h1>You are subscribed again</h1>');
    expect(back.body).toContain(`href="${unsubscribe}?preferences=1"`);
    expect(await stateOf(t(), 'cy@x.io')).toEqual({ suppressions: [], active: true, unsubscribeEvents: 1 });
    const again = await anon.request({
      method: 'POST',
      url: unsubscribe,
      headers: FORM,
      payload: 'action=resubscribe',
    });
    expect(again.statusCode).toBe(200);
    expect(await stateOf(t(), 'cy@x.io')).toEqual({ suppressions: [], active: true, unsubscribeEvents: 1 });
    expect((await anon.get(preferences)).body).toContain('>Subscribed<');

    const next = (
      await client.post('/api/campaigns', {
        name: 'Next',
        subject: 'Hi',
        fromEmail: 'news@acme.example',
        content: { html: '' },
        blocks,
        listIds: [listId],
      })
    ).json() as { id: number };
    expect((await client.post(`/api/campaigns/${next.id}/send`)).json().totalRecipients).toBe(1);
  });

  it('does not lift a bounce, nor reactivate a contact the sender turned off, from a link in an email', async () => {
    const { client } = await signUpUser(t(), { company: 'Acme Ltd' });
    const bounced = await sentTo(t(), client, 'dee@x.io');
    await t().ctx.database.raw.executeSql(
      `INSERT INTO suppressions (user_id, email, reason) SELECT user_id, email, 'bounce' FROM contacts WHERE email = $1`,
      ['dee@x.io'],
    );
    const anon = t().client();
    const prefs = await anon.get(bounced.preferences);
    expect(prefs.body).toContain('Stopped: mail bounced');
    expect(prefs.body).not.toContain('<form');
    const refused = await anon.request({
      method: 'POST',
      url: bounced.unsubscribe,
      headers: FORM,
      payload: 'action=resubscribe',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toContain('Cannot resubscribe here');
    expect((await stateOf(t(), 'dee@x.io')).suppressions).toEqual(['bounce']);

    const turnedOff = await sentTo(t(), client, 'eve@x.io');
    await t().ctx.database.raw.executeSql(`UPDATE contacts SET is_active = false WHERE email = $1`, ['eve@x.io']);
    expect(
      (await anon.request({ method: 'POST', url: turnedOff.unsubscribe, headers: FORM, payload: 'action=resubscribe' }))
        .statusCode,
    ).toBe(200);
    expect(await stateOf(t(), 'eve@x.io')).toEqual({ suppressions: [], active: false, unsubscribeEvents: 0 });
  });

  it('answers 404 to forged, foreign-purpose and unknown tokens and 400 to an unknown action, changing nothing', async () => {
    const { client } = await signUpUser(t());
    const { unsubscribe } = await sentTo(t(), client, 'fay@x.io');
    const anon = t().client();
    const token = unsubscribe.slice('/u/'.length);
    const [payload, signature] = token.split('.');
    const sendId = Number(Buffer.from(payload ?? '', 'base64url').toString());
    const forged = [
      `/u/${payload}.${signature?.slice(0, -2)}AA`,
      `/u/${Buffer.from(String(sendId + 1)).toString('base64url')}.${signature}`,
      `/u/${legacyToken(t().ctx.config.sessionSecret, 'open', [sendId])}`,
      `/u/${legacyToken('another-secret-another-secret-another-1', 'unsubscribe', [sendId])}`,
      `/u/${signRecipientToken('another-secret-another-secret-another-1', sendId)}`,
      `/u/${legacyToken(t().ctx.config.sessionSecret, 'unsubscribe', [999_999])}`,
      `/u/${signRecipientToken(t().ctx.config.sessionSecret, 999_999)}`,
      '/u/not-a-token',
    ];
    for (const url of forged) {
      const page = await anon.get(url);
      expect(page.statusCode, url).toBe(404);
      expect(page.body).toContain('Link not recognised');
      expect((await anon.get(`${url}?preferences=1`)).statusCode, url).toBe(404);
      expect(
        (await anon.request({ method: 'POST', url, headers: FORM, payload: 'action=unsubscribe' })).statusCode,
        url,
      ).toBe(404);
      expect(
        (await anon.request({ method: 'POST', url, headers: FORM, payload: 'action=resubscribe' })).statusCode,
        url,
      ).toBe(404);
    }
    const unknown = await anon.request({
      method: 'POST',
      url: unsubscribe,
      headers: FORM,
      payload: 'action=delete-everything',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('Request not understood');
    expect(await stateOf(t(), 'fay@x.io')).toEqual({ suppressions: [], active: true, unsubscribeEvents: 0 });
  });
});
