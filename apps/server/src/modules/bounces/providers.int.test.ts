import { createHmac, createSign, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpUser, useTestApp, type TestClient } from '../../../test/build-app.ts';
import { sentCampaign } from '../../../test/sent-campaign.ts';
import { buildApp } from '../../app.ts';

type TestApp = ReturnType<typeof useTestApp>;

const FIXTURES = path.join(import.meta.dirname, '../../../test/fixtures/providers');
const TOPIC_ARN = 'arn:aws:sns:us-east-1:123456789012:ses-bounces';

/** A fixture in the provider's documented shape, its {{placeholders}} filled (JSON-escaped). */
function fixture(name: string, values: Record<string, string>): string {
  return readFileSync(path.join(FIXTURES, name), 'utf8').replace(/\{\{(\w+)\}\}/g, (_m, key: string) =>
    JSON.stringify(values[key] ?? '').slice(1, -1),
  );
}

// --- A stand-in for sns.<region>.amazonaws.com: the signing certificate and the SubscribeURL -----------
let snsServer: Server;
let snsOrigin = '';
let snsKey: KeyObject;
let snsCertPem = '';
const subscribeHits: string[] = [];
let certDir = '';

beforeAll(async () => {
  certDir = mkdtempSync(path.join(tmpdir(), 'sns-cert-'));
  const keyFile = path.join(certDir, 'key.pem');
  const certFile = path.join(certDir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=sns.amazonaws.com',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  snsCertPem = readFileSync(certFile, 'utf8');
  snsKey = (await import('node:crypto')).createPrivateKey(readFileSync(keyFile));
  snsServer = createServer((request, response) => {
    if (request.url?.startsWith('/SimpleNotificationService-')) {
      response.writeHead(200, { 'content-type': 'application/x-pem-file' }).end(snsCertPem);
    } else if (request.url?.startsWith('/?Action=ConfirmSubscription')) {
      subscribeHits.push(request.url);
      response.writeHead(200, { 'content-type': 'text/xml' }).end('<ConfirmSubscriptionResponse/>');
    } else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => snsServer.listen(0, '127.0.0.1', resolve));
  snsOrigin = `http://127.0.0.1:${(snsServer.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => snsServer.close(() => resolve()));
  rmSync(certDir, { recursive: true, force: true });
});

/** An SNS message signed as SNS signs it (SignatureVersion 1: SHA1withRSA, 2: SHA256withRSA). */
function snsMessage(fields: Record<string, string>, version: '1' | '2' = '1', certUrl?: string) {
  const message: Record<string, string> = {
    MessageId: '22b80b92-fdea-4c2c-8f9d-bdfb0c7bf324',
    TopicArn: TOPIC_ARN,
    Timestamp: new Date().toISOString(),
    SignatureVersion: version,
    SigningCertURL: certUrl ?? `${snsOrigin}/SimpleNotificationService-f3ecfb7224c7233fe7bb5f59f96de52f.pem`,
    ...fields,
  };
  const order =
    message.Type === 'Notification'
      ? ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type']
      : ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'];
  const text = order
    .filter((key) => message[key] !== undefined)
    .map((key) => `${key}\n${message[key]}\n`)
    .join('');
  message.Signature = createSign(version === '1' ? 'RSA-SHA1' : 'RSA-SHA256')
    .update(text)
    .sign(snsKey, 'base64');
  return message;
}

const post = (t: TestApp, url: string, body: string, headers: Record<string, string> = {}) =>
  t()
    .client()
    .request({ method: 'POST', url, payload: body, headers: { 'content-type': 'application/json', ...headers } });

const rows = async (t: TestApp, sql: string, params: unknown[]) =>
  (await t().ctx.database.raw.executeSql(sql, params)).rows as Record<string, unknown>[];

async function setUp(t: TestApp, name: string) {
  const { client, user } = await signUpUser(t());
  const { sends } = await sentCampaign(t(), client, name, 2);
  const token = ((await client.get('/api/webhook/email-address')).json() as { token: string }).token;
  return { client, user, sends, token };
}

const save = (client: TestClient, provider: string, secret: string) =>
  client.request({ method: 'PUT', url: `/api/bounce-providers/${provider}`, payload: { secret } });

describe('provider bounce webhooks', () => {
  const t = useTestApp(() => ({ SNS_CERT_ORIGIN: snsOrigin }));

  it('Amazon SES via SNS: confirms the subscription, acts on signed bounces and complaints, refuses tampered, stale and foreign ones', async () => {
    const { client, user, sends, token } = await setUp(t, 'Ses');
    const url = `/api/webhook/bounces/ses/${token}`;
    const [first, second] = sends;
    // Before a topic is saved, nothing is accepted.
    const early = snsMessage({ Type: 'Notification', Message: '{}' });
    expect(
      (await post(t, url, JSON.stringify(early), { 'content-type': 'text/plain; charset=UTF-8' })).statusCode,
    ).toBe(401);
    expect((await save(client, 'ses', 'not-an-arn')).statusCode).toBe(400);
    expect((await save(client, 'ses', TOPIC_ARN)).statusCode).toBe(200);

    const confirmation = snsMessage({
      Type: 'SubscriptionConfirmation',
      Message: `You have chosen to subscribe to the topic ${TOPIC_ARN}.`,
      Token: '2336412f37fb687f5d51e6e2425c464de12884d1',
      SubscribeURL: `${snsOrigin}/?Action=ConfirmSubscription&TopicArn=${TOPIC_ARN}&Token=2336412f37`,
    });
    const confirmed = await post(t, url, JSON.stringify(confirmation), { 'content-type': 'text/plain; charset=UTF-8' });
    expect(confirmed.json()).toEqual({ verdicts: [], subscribed: true });
    expect(subscribeHits).toHaveLength(1);

    const bounce = snsMessage({
      Type: 'Notification',
      Message: fixture('ses-bounce.json', { recipient: first?.email ?? '', messageId: first?.messageId ?? '' }),
    });
    const tampered = { ...bounce, Message: bounce.Message?.replace('Permanent', 'Transient') };
    expect((await post(t, url, JSON.stringify(tampered))).statusCode).toBe(401);
    const stale = snsMessage({ ...bounce, Timestamp: new Date(Date.now() - 2 * 3600_000).toISOString() });
    expect((await post(t, url, JSON.stringify(stale))).statusCode).toBe(401);
    const foreignCert = snsMessage(
      { Type: 'Notification', Message: bounce.Message ?? '' },
      '1',
      'https://evil.example/cert.pem',
    );
    expect((await post(t, url, JSON.stringify(foreignCert))).statusCode).toBe(401);
    const otherTopic = snsMessage({ ...bounce, TopicArn: 'arn:aws:sns:us-east-1:999999999999:other' });
    expect((await post(t, url, JSON.stringify(otherTopic))).statusCode).toBe(401);
    expect(await rows(t, 'SELECT 1 FROM suppressions WHERE user_id = $1', [user.id])).toHaveLength(0);

    const answer = await post(t, url, JSON.stringify(bounce), { 'content-type': 'text/plain; charset=UTF-8' });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({
      verdicts: [{ kind: 'bounce', reason: 'user-unknown', hard: true, recipient: first?.email, matched: true }],
    });
    // SNS retries: the same bounce again is counted once.
    expect((await post(t, url, JSON.stringify(bounce))).statusCode).toBe(200);
    expect(
      await rows(t, `SELECT type FROM email_events WHERE send_id = $1 AND type = 'bounce'`, [first?.id]),
    ).toHaveLength(1);

    // SignatureVersion 2 (SHA256withRSA), a complaint.
    const complaint = snsMessage(
      {
        Type: 'Notification',
        Message: fixture('ses-complaint.json', { recipient: second?.email ?? '', messageId: second?.messageId ?? '' }),
      },
      '2',
    );
    expect((await post(t, url, JSON.stringify(complaint))).json()).toEqual({
      verdicts: [{ kind: 'complaint', reason: null, hard: false, recipient: second?.email, matched: true }],
    });
    expect(
      await rows(t, 'SELECT email, reason FROM suppressions WHERE user_id = $1 ORDER BY email', [user.id]),
    ).toEqual([
      { email: first?.email, reason: 'bounce' },
      { email: second?.email, reason: 'complaint' },
    ]);
    expect(await rows(t, 'SELECT is_active FROM contacts WHERE id = $1', [second?.contactId])).toEqual([
      { is_active: false },
    ]);

    // Each action is on the contact's timeline; another account cannot read it.
    const timeline = await client.get(`/api/contacts/${first?.contactId}/timeline`);
    expect(timeline.json()).toEqual({
      events: [
        {
          type: 'bounce',
          reason: 'user-unknown',
          hard: true,
          machine: null,
          url: null,
          detail: 'user-unknown: 5.1.1 smtp; 550 5.1.1 user unknown',
          campaignId: first?.campaignId,
          campaignName: 'Ses',
          sequenceId: null,
          sequenceName: null,
          sourceName: null,
          at: expect.any(String),
        },
        expect.objectContaining({ type: 'sent', campaignId: first?.campaignId, campaignName: 'Ses' }),
      ],
      page: 1,
      hasMore: false,
      suppression: { reason: 'bounce', detail: expect.stringMatching(/^user-unknown/), since: expect.any(String) },
    });
    expect(
      ((await client.get(`/api/contacts/${second?.contactId}/timeline`)).json() as { events: { type: string }[] })
        .events,
    ).toMatchObject([{ type: 'complaint' }, { type: 'sent' }]);
    const stranger = await signUpUser(t());
    expect((await stranger.client.get(`/api/contacts/${first?.contactId}/timeline`)).statusCode).toBe(404);
    expect((await client.get('/api/contacts/abc/timeline')).statusCode).toBe(400);
  });

  it('SendGrid: verifies the ECDSA signature over timestamp + body; tampered and stale posts are refused', async () => {
    const { client, user, sends, token } = await setUp(t, 'Grid');
    const [first, second] = sends;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const verificationKey = publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
    expect((await save(client, 'sendgrid', 'abc')).statusCode).toBe(400);
    expect((await save(client, 'sendgrid', verificationKey)).statusCode).toBe(200);
    const body = fixture('sendgrid-events.json', {
      recipient: first?.email ?? '',
      messageId: first?.messageId ?? '',
      other: second?.email ?? '',
      otherMessageId: second?.messageId ?? '',
    });
    const signed = (payload: string, timestamp = Math.floor(Date.now() / 1000).toString()) => ({
      'x-twilio-email-event-webhook-timestamp': timestamp,
      'x-twilio-email-event-webhook-signature': createSign('sha256')
        .update(timestamp + payload)
        .sign(privateKey, 'base64'),
    });
    const url = `/api/webhook/bounces/sendgrid/${token}`;
    const headers = signed(body);
    expect((await post(t, url, body.replace('bounce', 'bouncE'), headers)).statusCode).toBe(401);
    expect((await post(t, url, body)).statusCode).toBe(401);
    const old = String(Math.floor(Date.now() / 1000) - 3600);
    expect((await post(t, url, body, signed(body, old))).statusCode).toBe(401);
    expect(await rows(t, 'SELECT 1 FROM suppressions WHERE user_id = $1', [user.id])).toHaveLength(0);

    const answer = await post(t, url, body, headers);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({
      verdicts: [
        { kind: 'bounce', reason: 'user-unknown', hard: true, recipient: first?.email, matched: true },
        { kind: 'complaint', reason: null, hard: false, recipient: second?.email, matched: true },
        { kind: 'other', reason: null, hard: false, recipient: first?.email, matched: false },
      ],
    });
    expect(
      await rows(t, 'SELECT email, reason FROM suppressions WHERE user_id = $1 ORDER BY email', [user.id]),
    ).toEqual([
      { email: first?.email, reason: 'bounce' },
      { email: second?.email, reason: 'complaint' },
    ]);
    expect((await post(t, url, '{"not":"an array"}', signed('{"not":"an array"}'))).statusCode).toBe(400);
  });

  it('Mailgun: checks the HMAC of timestamp + token; tampered and stale posts are refused', async () => {
    const { client, user, sends, token } = await setUp(t, 'Gun');
    const [first] = sends;
    const signingKey = 'key-3ax6xnjp29jd6fds4gc373sgvjxteol0';
    expect((await save(client, 'mailgun', signingKey)).statusCode).toBe(200);
    const body = (timestamp: number, key = signingKey) => {
      const nonce = `${timestamp}ab2f3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5`;
      return fixture('mailgun-failed.json', {
        timestamp: String(timestamp),
        token: nonce,
        signature: createHmac('sha256', key).update(`${timestamp}${nonce}`).digest('hex'),
        recipient: first?.email ?? '',
        bareMessageId: (first?.messageId ?? '').replace(/^<|>$/g, ''),
      });
    };
    const url = `/api/webhook/bounces/mailgun/${token}`;
    const now = Math.floor(Date.now() / 1000);
    expect((await post(t, url, body(now, 'key-wrong-wrong-wrong-wrong'))).statusCode).toBe(401);
    expect((await post(t, url, body(now).replace(`"${now}"`, `"${now + 1}"`))).statusCode).toBe(401);
    expect((await post(t, url, body(now - 3600))).statusCode).toBe(401);
    expect((await post(t, url, 'not json')).statusCode).toBe(400);
    expect(await rows(t, 'SELECT 1 FROM suppressions WHERE user_id = $1', [user.id])).toHaveLength(0);
    const answer = await post(t, url, body(now));
    expect(answer.json()).toEqual({
      verdicts: [{ kind: 'bounce', reason: 'user-unknown', hard: true, recipient: first?.email, matched: true }],
    });
    expect(await rows(t, 'SELECT email FROM suppressions WHERE user_id = $1', [user.id])).toEqual([
      { email: first?.email },
    ]);
  });

  it('Mailgun replay (issue 27, finding 6): a post whose token was seen answers 409, in every process; another account is not affected', async () => {
    const { client, user, sends, token } = await setUp(t, 'Replay');
    const [first] = sends;
    const signingKey = 'key-replayreplayreplayreplay0001';
    expect((await save(client, 'mailgun', signingKey)).statusCode).toBe(200);
    const now = Math.floor(Date.now() / 1000);
    const nonce = `${now}replayreplayreplayreplayreplayreplayreplay01`;
    const body = fixture('mailgun-failed.json', {
      timestamp: String(now),
      token: nonce,
      signature: createHmac('sha256', signingKey).update(`${now}${nonce}`).digest('hex'),
      recipient: first?.email ?? '',
      bareMessageId: (first?.messageId ?? '').replace(/^<|>$/g, ''),
    });
    const url = `/api/webhook/bounces/mailgun/${token}`;
    expect((await post(t, url, body)).statusCode).toBe(200);
    const replay = await post(t, url, body);
    expect(replay.statusCode, replay.body).toBe(409);
    expect(replay.json()).toEqual({ message: expect.stringMatching(/replay/) });
    // The token is in the database: a second app on the same database (another process) refuses it too.
    const other = await buildApp(t().ctx, { logger: false, serveWebApp: false });
    try {
      const elsewhere = await other.inject({
        method: 'POST',
        url,
        payload: body,
        headers: { 'content-type': 'application/json' },
      });
      expect(elsewhere.statusCode).toBe(409);
    } finally {
      await other.close();
    }
    // Another account's post with its own key and token is taken as usual.
    const second = await setUp(t, 'Replay2');
    expect((await save(second.client, 'mailgun', signingKey)).statusCode).toBe(200);
    const otherNonce = `${now}otherotherotherotherotherotherotherother01`;
    const otherBody = fixture('mailgun-failed.json', {
      timestamp: String(now),
      token: otherNonce,
      signature: createHmac('sha256', signingKey).update(`${now}${otherNonce}`).digest('hex'),
      recipient: second.sends[0]?.email ?? '',
      bareMessageId: (second.sends[0]?.messageId ?? '').replace(/^<|>$/g, ''),
    });
    expect((await post(t, `/api/webhook/bounces/mailgun/${second.token}`, otherBody)).statusCode).toBe(200);
    expect(await rows(t, 'SELECT 1 FROM suppressions WHERE user_id = $1', [user.id])).toHaveLength(1);
  });

  it('Postmark: the secret as basic-auth password or header; a wrong or replaced (stale) secret is refused', async () => {
    const { client, user, sends, token } = await setUp(t, 'Mark');
    const [first, second] = sends;
    const oldSecret = 'old-secret-0123456789';
    const secret = 'pm-secret-abcdefghijklmnop';
    expect((await save(client, 'postmark', 'short')).statusCode).toBe(400);
    expect((await save(client, 'postmark', oldSecret)).statusCode).toBe(200);
    expect((await save(client, 'postmark', secret)).statusCode).toBe(200);
    const url = `/api/webhook/bounces/postmark/${token}`;
    const bounce = fixture('postmark-bounce.json', { recipient: first?.email ?? '' });
    const basic = (password: string) => ({
      authorization: `Basic ${Buffer.from(`postmark:${password}`).toString('base64')}`,
    });
    expect((await post(t, url, bounce)).statusCode).toBe(401);
    expect((await post(t, url, bounce, basic(oldSecret))).statusCode).toBe(401);
    expect((await post(t, url, bounce, { 'x-sendwell-webhook-secret': `${secret}x` })).statusCode).toBe(401);
    expect(await rows(t, 'SELECT 1 FROM suppressions WHERE user_id = $1', [user.id])).toHaveLength(0);
    expect((await post(t, url, bounce, basic(secret))).json()).toEqual({
      verdicts: [{ kind: 'bounce', reason: 'user-unknown', hard: true, recipient: first?.email, matched: true }],
    });
    const complaint = fixture('postmark-spam-complaint.json', { recipient: second?.email ?? '' });
    expect((await post(t, url, complaint, { 'x-sendwell-webhook-secret': secret })).json()).toEqual({
      verdicts: [{ kind: 'complaint', reason: null, hard: false, recipient: second?.email, matched: true }],
    });
    // An event about an address this account never mailed changes nothing.
    const stranger = fixture('postmark-bounce.json', { recipient: 'stranger@nowhere.example' });
    expect((await post(t, url, stranger, basic(secret))).json()).toMatchObject({ verdicts: [{ matched: false }] });
  });

  it('keeps each account to its own settings and sends; bad input is a 4xx', async () => {
    const a = await setUp(t, 'Alpha');
    const b = await setUp(t, 'Beta');
    const secret = 'shared-looking-secret-123';
    expect((await save(a.client, 'postmark', secret)).statusCode).toBe(200);
    // B's token with A's secret: B has no Postmark secret, so it is refused.
    const bounceOfA = fixture('postmark-bounce.json', { recipient: a.sends[0]?.email ?? '' });
    expect(
      (await post(t, `/api/webhook/bounces/postmark/${b.token}`, bounceOfA, { 'x-sendwell-webhook-secret': secret }))
        .statusCode,
    ).toBe(401);
    // B sets the same secret: an event about A's recipient, posted to B's webhook, matches nothing of B's.
    expect((await save(b.client, 'postmark', secret)).statusCode).toBe(200);
    const crossed = await post(t, `/api/webhook/bounces/postmark/${b.token}`, bounceOfA, {
      'x-sendwell-webhook-secret': secret,
    });
    expect(crossed.json()).toMatchObject({ verdicts: [{ matched: false }] });
    expect(await rows(t, 'SELECT 1 FROM suppressions WHERE user_id = $1', [a.user.id])).toHaveLength(0);
    // Each sees only its own settings.
    const listed = (await a.client.get('/api/bounce-providers')).json() as {
      providers: { provider: string; configured: boolean; hint: string | null; webhookUrl: string }[];
    };
    expect(listed.providers.map((p) => [p.provider, p.configured])).toEqual([
      ['ses', false],
      ['sendgrid', false],
      ['mailgun', false],
      ['postmark', true],
    ]);
    expect(listed.providers[3]?.hint).toBe('-123');
    expect(listed.providers[3]?.webhookUrl).toContain(`/api/webhook/bounces/postmark/${a.token}`);
    expect(JSON.stringify(listed)).not.toContain(secret);
    expect((await b.client.delete('/api/bounce-providers/postmark')).statusCode).toBe(200);
    expect((await b.client.delete('/api/bounce-providers/postmark')).statusCode).toBe(404);
    expect(
      ((await a.client.get('/api/bounce-providers')).json() as { providers: { configured: boolean }[] }).providers[3]
        ?.configured,
    ).toBe(true);
    // Bad input.
    expect((await save(a.client, 'sparkpost', secret)).statusCode).toBe(400);
    expect(
      (await a.client.request({ method: 'PUT', url: '/api/bounce-providers/postmark', payload: {} })).statusCode,
    ).toBe(400);
    expect((await post(t, `/api/webhook/bounces/nope/${a.token}`, '{}')).statusCode).toBeGreaterThanOrEqual(400);
    expect((await post(t, `/api/webhook/bounces/postmark/not-a-token-at-all`, '{}')).statusCode).toBe(401);
    expect(
      (await post(t, `/api/webhook/bounces/postmark/${a.token}`, '', { 'x-sendwell-webhook-secret': secret }))
        .statusCode,
    ).toBe(400);
    expect(
      (await post(t, `/api/webhook/bounces/postmark/${a.token}`, '[1,2', { 'x-sendwell-webhook-secret': secret }))
        .statusCode,
    ).toBe(400);
    expect((await t().client().get('/api/bounce-providers')).statusCode).toBe(401);
  });

  it('never answers 5xx to arbitrary posts, even with every provider set up', async () => {
    const { client, token } = await setUp(t, 'Fuzz');
    const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    await save(client, 'ses', TOPIC_ARN);
    await save(client, 'sendgrid', publicKey.export({ format: 'der', type: 'spki' }).toString('base64'));
    await save(client, 'mailgun', 'key-3ax6xnjp29jd6fds4gc373sgvjxteol0');
    await save(client, 'postmark', 'pm-secret-abcdefghijklmnop');
    const secretHeaders = { 'x-sendwell-webhook-secret': 'pm-secret-abcdefghijklmnop' };
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('ses', 'sendgrid', 'mailgun', 'postmark'),
        fc.oneof(
          fc.json(),
          fc.string(),
          fc
            .record({
              Type: fc.string(),
              Signature: fc.string(),
              SigningCertURL: fc.string(),
              SignatureVersion: fc.string(),
            })
            .map((v) => JSON.stringify(v)),
          fc
            .record({
              signature: fc.record({ timestamp: fc.string(), token: fc.string(), signature: fc.string() }),
              'event-data': fc.object(),
            })
            .map((v) => JSON.stringify(v)),
          fc
            .record({ RecordType: fc.string(), Type: fc.string(), Email: fc.string(), Details: fc.string() })
            .map((v) => JSON.stringify(v)),
        ),
        fc.record({
          'x-twilio-email-event-webhook-signature': fc.string(),
          'x-twilio-email-event-webhook-timestamp': fc.string(),
        }),
        async (provider, body, twilio) => {
          const headers = Object.fromEntries(
            Object.entries({ ...twilio, ...secretHeaders }).filter(([, v]) => /^[\x20-\x7e]*$/.test(v)),
          );
          const response = await post(t, `/api/webhook/bounces/${provider}/${token}`, body, headers);
          expect(response.statusCode, `${provider} ${body}: ${response.body}`).toBeLessThan(500);
        },
      ),
      { numRuns: 60, seed: 20_261_124 },
    );
  });
});
