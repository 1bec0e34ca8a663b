import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { arf, dsn } from '../../../test/feedback-reports.ts';
import { sentCampaign } from '../../../test/sent-campaign.ts';
import { signUpUser, useTestApp, type TestApp, type TestClient } from '../../../test/build-app.ts';
import { buildApp } from '../../app.ts';

type Address = { url: string; token: string };

/** The answer to a message that is no report about mail we sent. */
const NOTHING_OF_OURS = { kind: 'other', reason: null, hard: false, recipient: null, matched: false };

async function addressOf(client: TestClient): Promise<Address> {
  const response = await client.get('/api/webhook/email-address');
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Address;
}

type ReportAuth = { query?: string; headers?: Record<string, string> };

function postReport(t: TestApp, raw: string, auth: ReportAuth) {
  return t.client().request({
    method: 'POST',
    url: auth.query === undefined ? '/api/webhook/email' : `/api/webhook/email?token=${auth.query}`,
    headers: { 'content-type': 'message/rfc822', ...auth.headers },
    payload: raw,
  });
}

describe('one inbound secret for the whole installation (security finding 4)', () => {
  const t = useTestApp();

  it('gives each account an address of its own, the same each time until regenerated', async () => {
    const a = await signUpUser(t());
    const b = await signUpUser(t());
    const first = await addressOf(a.client);
    expect(first.url).toBe(`http://localhost:5000/api/webhook/email?token=${first.token}`);
    expect(first.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await addressOf(a.client)).toEqual(first);
    expect((await addressOf(b.client)).token).not.toBe(first.token);

    const regenerated = await a.client.post('/api/inbound/regenerate-address');
    expect(regenerated.statusCode, regenerated.body).toBe(200);
    const second = regenerated.json() as Address;
    expect(second.token).not.toBe(first.token);
    expect(await addressOf(a.client)).toEqual(second);
    const report = 'Subject: hello\r\n\r\nJust a note';
    expect((await postReport(t(), report, { query: first.token })).statusCode).toBe(401);
    expect((await postReport(t(), report, { query: second.token })).json()).toEqual(NOTHING_OF_OURS);

    // Signed-out callers get neither; another site cannot make a signed-in browser regenerate.
    expect((await t().client().get('/api/webhook/email-address')).statusCode).toBe(401);
    expect((await t().client().post('/api/inbound/regenerate-address')).statusCode).toBe(401);
    const crossSite = await a.client.request({
      method: 'POST',
      url: '/api/inbound/regenerate-address',
      headers: { origin: 'https://evil.example' },
    });
    expect(crossSite.statusCode).toBe(403);
    expect((await addressOf(a.client)).token).toBe(second.token);
  });

  it('stores the token only hashed and sealed', async () => {
    const { client, user } = await signUpUser(t());
    const { token } = await addressOf(client);
    const rows = (
      await t().ctx.database.raw.executeSql('SELECT token_hash, token_sealed FROM inbound_tokens WHERE user_id = $1', [
        user.id,
      ])
    ).rows as { token_hash: string; token_sealed: string }[];
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it("lets account B's token touch nothing of account A: a complaint or bounce about A's message is 'unmatched'", async () => {
    const a = await signUpUser(t());
    const b = await signUpUser(t());
    const campaign = await sentCampaign(t(), a.client, 'Victim');
    const [first, second] = campaign.sends;
    const tokenA = (await addressOf(a.client)).token;
    const tokenB = (await addressOf(b.client)).token;
    await t().ctx.database.raw.executeSql(`UPDATE campaigns SET status = 'sending' WHERE id = $1`, [campaign.id]);

    const complaint = arf(first?.messageId ?? '', first?.email ?? '');
    const bounce = dsn(second?.messageId ?? '', second?.email ?? '', '5.1.1');
    for (const raw of [complaint, bounce]) {
      const response = await postReport(t(), raw, { query: tokenB });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ matched: false });
    }
    const rawQuery = async (text: string) =>
      (await t().ctx.database.raw.executeSql(text, [a.user.id])).rows as Record<string, unknown>[];
    expect(await rawQuery(`SELECT 1 FROM suppressions WHERE user_id = $1`)).toEqual([]);
    expect(await rawQuery(`SELECT type FROM email_events WHERE user_id = $1 AND type <> 'sent'`)).toEqual([]);
    expect(await rawQuery(`SELECT 1 FROM contacts WHERE user_id = $1 AND NOT is_active`)).toEqual([]);
    expect((await a.client.get(`/api/campaigns/${campaign.id}`)).json().status).toBe('sending');
    const sendStatuses = await rawQuery(`SELECT status FROM campaign_sends WHERE user_id = $1`);
    expect(sendStatuses.map((row) => row.status)).toEqual(['sent', 'sent']);
    // Nothing about a pause or a complaint (the import's and the finished campaign's own notices aside).
    expect(
      await rawQuery(
        `SELECT 1 FROM notifications WHERE user_id = $1 AND title NOT LIKE '%was sent' AND title NOT LIKE 'Import finished%'`,
      ),
    ).toEqual([]);

    // A's own token records the same reports against A.
    expect((await postReport(t(), complaint, { query: tokenA })).json()).toEqual({
      kind: 'complaint',
      reason: null,
      hard: false,
      recipient: first?.email,
      matched: true,
    });
    expect((await postReport(t(), bounce, { query: tokenA })).json()).toEqual({
      kind: 'bounce',
      reason: 'user-unknown',
      hard: true,
      recipient: second?.email,
      matched: true,
    });
    expect(await rawQuery(`SELECT 1 FROM contacts WHERE user_id = $1 AND NOT is_active`)).toHaveLength(1);
    expect((await a.client.get(`/api/campaigns/${campaign.id}`)).json().status).toBe('paused');
  });

  it('takes the token in X-Sendwell-Token or Authorization: Bearer, and still in ?token=', async () => {
    const { client } = await signUpUser(t());
    const { token } = await addressOf(client);
    const note = 'Subject: hello\r\n\r\nJust a note';
    const accepted: ReportAuth[] = [
      { headers: { 'x-sendwell-token': token } },
      { headers: { authorization: `Bearer ${token}` } },
      { query: token },
    ];
    for (const auth of accepted) {
      const response = await postReport(t(), note, auth);
      expect(response.statusCode, JSON.stringify(auth)).toBe(200);
    }
    const refused: ReportAuth[] = [
      {},
      { headers: { 'x-sendwell-token': `${token}x` } },
      { headers: { authorization: `Basic ${token}` } },
      { query: token.slice(0, -1) },
      { query: encodeURIComponent(`${token}\u0000`) },
    ];
    for (const auth of refused) {
      const response = await postReport(t(), note, auth);
      expect(response.statusCode, JSON.stringify(auth)).toBe(401);
    }
  });

  it('no longer opens the webhook with the installation-wide token of before', async () => {
    const { client } = await signUpUser(t());
    await addressOf(client);
    // What every account was handed before: derived from SESSION_SECRET, the same for all.
    const installationToken = createHmac('sha256', t().ctx.config.sessionSecret)
      .update('sendwell inbound webhook')
      .digest('hex')
      .slice(0, 40);
    const response = await postReport(t(), 'Subject: x\r\n\r\ny', { query: installationToken });
    expect(response.statusCode).toBe(401);
  });

  it('keeps the token out of the request log', async () => {
    const { client } = await signUpUser(t());
    const { token } = await addressOf(client);
    const lines: string[] = [];
    const app = await buildApp(
      { ...t().ctx, config: { ...t().ctx.config, logLevel: 'info' } },
      { serveWebApp: false, logStream: { write: (line) => void lines.push(line) } },
    );
    await app.ready();
    try {
      const note = 'Subject: hello\r\n\r\nJust a note';
      for (const [url, headers] of [
        [`/api/webhook/email?token=${token}`, {}],
        [`/api/webhook/email?x=1&token=${token}&y=2`, {}],
        ['/api/webhook/email', { 'x-sendwell-token': token }],
        ['/api/webhook/email', { authorization: `Bearer ${token}` }],
      ] as const) {
        const response = await app.inject({
          method: 'POST',
          url,
          headers: { 'content-type': 'message/rfc822', ...headers },
          payload: note,
        });
        expect(response.statusCode).toBe(200);
      }
    } finally {
      await app.close();
    }
    const urls = lines.map((line) => (JSON.parse(line) as { req?: { url?: string } }).req?.url).filter(Boolean);
    expect(urls).toEqual([
      '/api/webhook/email?token=[REDACTED]',
      '/api/webhook/email?x=1&token=[REDACTED]&y=2',
      '/api/webhook/email',
      '/api/webhook/email',
    ]);
    expect(lines.join('\n')).not.toContain(token);
  });
});
