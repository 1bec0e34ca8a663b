import { describe, expect, it } from 'vitest';
import type { SuppressionsPage } from '@sendwell/contract/suppressions';
import { signUpUser, useTestApp, type TestApp, type TestClient } from '../../../test/build-app.ts';
import { dsn } from '../../../test/feedback-reports.ts';
import { sentCampaign } from '../../../test/sent-campaign.ts';
import { suppress } from '../delivery/index.ts';

async function webhookToken(client: TestClient): Promise<string> {
  return ((await client.get('/api/webhook/email-address')).json() as { token: string }).token;
}

/** A hard-bounce DSN for the send, through the account's inbound webhook (as the mail server hands it on). */
async function bounceThroughWebhook(t: TestApp, client: TestClient, messageId: string, email: string) {
  const answer = await t.client().request({
    method: 'POST',
    url: '/api/webhook/email',
    headers: { 'content-type': 'message/rfc822', 'x-sendwell-token': await webhookToken(client) },
    payload: dsn(messageId, email, '5.1.1'),
  });
  expect(answer.json()).toMatchObject({ kind: 'bounce', hard: true, matched: true });
}

const list = async (client: TestClient, query = '') => {
  const response = await client.get(`/api/suppressions${query}`);
  expect(response.statusCode).toBe(200);
  return response.json() as SuppressionsPage;
};

describe('the suppression list API', () => {
  const t = useTestApp();

  it('lists who is suppressed, why, since when and from which campaign; searches, exports and removes', async () => {
    const { client, user } = await signUpUser(t());
    const { id: campaignId, sends } = await sentCampaign(t(), client, 'Spring', 2);
    const [first] = sends;
    await bounceThroughWebhook(t(), client, first?.messageId ?? '', first?.email ?? '');
    await suppress(t().ctx.db, user.id, 'left@y.io', 'unsubscribe');

    const all = await list(client);
    expect(all.total).toBe(2);
    expect(all.page).toBe(1);
    const bounced = all.suppressions.find((row) => row.email === first?.email);
    expect(bounced).toMatchObject({ reason: 'bounce', campaignId, campaignName: 'Spring' });
    expect(bounced?.detail).toMatch(/^user-unknown: 5\.1\.1/);
    expect(Date.parse(bounced?.createdAt ?? '')).toBeGreaterThan(Date.now() - 60_000);
    expect(all.suppressions.find((row) => row.email === 'left@y.io')).toMatchObject({
      reason: 'unsubscribe',
      detail: null,
      campaignId: null,
      campaignName: null,
    });

    const searched = await list(client, '?search=LEFT');
    expect(searched.suppressions.map((row) => row.email)).toEqual(['left@y.io']);
    expect(searched.total).toBe(1);
    // LIKE wildcards in a search are literal characters.
    expect((await list(client, '?search=%25')).total).toBe(0);
    expect((await list(client, '?page=2')).suppressions).toEqual([]);

    const csv = await client.get('/api/suppressions/export');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toContain('suppressions.csv');
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('email,reason,detail,campaign,suppressed_at');
    expect(lines).toHaveLength(3);
    expect(lines.find((line) => line.startsWith(first?.email ?? '-'))).toMatch(
      /,bounce,user-unknown: 5\.1\.1.*,Spring,20/,
    );

    expect((await client.delete(`/api/suppressions/${bounced?.id}`)).statusCode).toBe(204);
    expect((await list(client)).suppressions.map((row) => row.email)).toEqual(['left@y.io']);
    expect((await client.delete(`/api/suppressions/${bounced?.id}`)).statusCode).toBe(404);
  });

  it("gives account B a 404 on account A's suppressions and an empty list", async () => {
    const a = await signUpUser(t());
    const b = await signUpUser(t());
    await suppress(t().ctx.db, a.user.id, 'gone@x.io', 'complaint');
    const [row] = (await list(a.client)).suppressions;
    expect(row?.email).toBe('gone@x.io');

    expect((await list(b.client)).total).toBe(0);
    expect((await b.client.get('/api/suppressions/export')).body.trim().split('\r\n')).toHaveLength(1);
    expect((await b.client.delete(`/api/suppressions/${row?.id}`)).statusCode).toBe(404);
    expect((await list(a.client)).total).toBe(1);
  });

  it('answers bad input with a clear 4xx and needs a session', async () => {
    const { client } = await signUpUser(t());
    for (const query of ['?page=abc', '?page=0', '?page=1.5', `?search=${'x'.repeat(201)}`]) {
      const response = await client.get(`/api/suppressions${query}`);
      expect(response.statusCode, query).toBe(400);
    }
    expect((await client.get('/api/suppressions?page=abc')).json().message).toContain('page must be a number');
    // An id that cannot be a row's is refused as input; a well-formed unknown one is not found.
    for (const id of ['abc', '0', '-1', '99999999999'])
      expect((await client.delete(`/api/suppressions/${id}`)).statusCode, id).toBe(400);
    expect((await client.delete('/api/suppressions/2147483647')).statusCode).toBe(404);

    const anonymous = t().client();
    expect((await anonymous.get('/api/suppressions')).statusCode).toBe(401);
    expect((await anonymous.get('/api/suppressions/export')).statusCode).toBe(401);
    expect((await anonymous.delete('/api/suppressions/1')).statusCode).toBe(401);
  });
});
