import { describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { signUpUser, useTestApp, type TestClient } from '../test/build-app.ts';
import { arf, dsn } from '../test/feedback-reports.ts';
import { sentCampaign } from '../test/sent-campaign.ts';

/**
 * Security finding 6, "500 for bad input": each input below answered 500 (Postgres refused it, or
 * mailparser gave up) where it now answers 400 naming the field, or 413 where size is the problem.
 */
const NUL = '\u0000';
const INT32_OVERFLOW = 2 ** 31;

type Answer = { message: string; fields?: Record<string, string> };

/** A 400 whose fields name `field` with `message` (and whose message says the same for the first field). */
function expectRefusedField(response: LightMyRequestResponse, field: string, message: string | RegExp) {
  expect(response.statusCode, response.body).toBe(400);
  const answer = response.json() as Answer;
  expect(answer.fields?.[field], response.body).toMatch(message);
}

const NUL_REFUSED = /must not contain NUL characters/;

describe('500 for bad input (security finding 6)', () => {
  const t = useTestApp();

  async function fixtures(client: TestClient) {
    const list = (await client.post('/api/contact-lists', { name: 'Fixtures' })).json() as { id: number };
    const contact = (await client.post('/api/contacts', { email: 'f@x.io', firstName: 'F', lastName: 'X' })).json() as {
      id: number;
    };
    const campaign = (
      await client.post('/api/campaigns', {
        name: 'C',
        subject: 'S',
        fromEmail: 'news@acme.example',
        content: { html: 'x' },
      })
    ).json() as { id: number };
    return { list, contact, campaign };
  }

  it('NUL characters in any text field answer 400 naming the field', async () => {
    const { client } = await signUpUser(t());
    const { contact, campaign } = await fixtures(client);
    const cases: [string, string, unknown, string][] = [
      ['POST', '/api/contacts', { email: 'n@x.io', firstName: `A${NUL}`, lastName: 'B' }, 'firstName'],
      ['POST', '/api/contacts', { email: 'n@x.io', firstName: 'A', lastName: 'B', notes: `n${NUL}` }, 'notes'],
      ['POST', '/api/contacts', { email: 'n@x.io', firstName: 'A', lastName: 'B', tags: ['ok', `t${NUL}`] }, 'tags.1'],
      ['PATCH', `/api/contacts/${contact.id}`, { company: `c${NUL}` }, 'company'],
      ['POST', '/api/contact-lists', { name: `L${NUL}` }, 'name'],
      [
        'POST',
        '/api/campaigns',
        { name: `C${NUL}`, subject: 'S', fromEmail: 'news@acme.example', content: { html: 'x' } },
        'name',
      ],
      [
        'POST',
        '/api/campaigns',
        { name: 'C', subject: 'S', fromEmail: 'news@acme.example', content: { html: `x${NUL}` } },
        'content.html',
      ],
      [
        'PATCH',
        `/api/campaigns/${campaign.id}`,
        { blocks: [{ id: 'b', type: 'text', content: { text: `x${NUL}`, tag: 'p' } }] },
        'blocks.0.content.text',
      ],
      [
        'POST',
        '/api/contact-segments/preview',
        { conditions: { operator: 'AND', rules: [{ field: 'firstName', operator: 'contains', value: `a${NUL}` }] } },
        'conditions.rules.0.value',
      ],
      [
        'POST',
        '/api/contact-segments',
        {
          name: 'S',
          conditions: {
            operator: 'AND',
            rules: [{ id: `x${NUL}`, field: 'firstName', operator: 'contains', value: 'a' }],
          },
        },
        'conditions.rules.0.id',
      ],
      ['PATCH', '/api/auth/user', { postalAddress: `x${NUL}` }, 'postalAddress'],
      ['POST', '/api/contacts/import-csv', { csvData: `email\na${NUL}@x.io\n` }, 'csvData'],
    ];
    for (const [method, url, payload, field] of cases) {
      const response = await client.request({ method: method as 'POST', url, payload: payload as object });
      expectRefusedField(response, field, NUL_REFUSED);
      expect((response.json() as Answer).message, `${method} ${url}`).toBe(`${field} must not contain NUL characters`);
    }
  });

  it('NUL characters in sign-up, sign-in and the unlimited set-up answer 400 naming the field', async () => {
    const anon = t().client();
    expectRefusedField(
      await anon.post('/api/auth/login', { email: `a${NUL}@x.io`, password: 'secret12' }),
      'email',
      NUL_REFUSED,
    );
    expectRefusedField(
      await anon.post('/api/auth/signup', {
        email: 'nul@x.io',
        password: 'secret12',
        confirmPassword: 'secret12',
        firstName: `A${NUL}`,
        lastName: 'B',
      }),
      'firstName',
      NUL_REFUSED,
    );
    expectRefusedField(
      await anon.post('/api/admin/setup-unlimited-user', { email: `a${NUL}`, password: 'x' }),
      'email',
      NUL_REFUSED,
    );
  });

  it('NUL characters in a search answer 400 naming the query parameter', async () => {
    const { client } = await signUpUser(t());
    expectRefusedField(await client.get('/api/contacts?search=a%00b'), 'search', NUL_REFUSED);
    expectRefusedField(await client.get('/api/outbox?search=a%00b'), 'search', NUL_REFUSED);
    expectRefusedField(
      await client.request({
        method: 'POST',
        url: '/api/contacts/import-csv?newListName=a%00b&createNewList=true',
        headers: { 'content-type': 'text/csv' },
        payload: 'email\na@x.io\n',
      }),
      'newListName',
      NUL_REFUSED,
    );
  });

  it('ids of 2^31 and more in paths answer 400 "Not found" on the id', async () => {
    const { client } = await signUpUser(t());
    for (const url of [
      `/api/contacts/${INT32_OVERFLOW}`,
      `/api/campaigns/${INT32_OVERFLOW}`,
      `/api/domains/${INT32_OVERFLOW}`,
      `/api/contact-lists/${INT32_OVERFLOW}/contacts`,
      `/api/contact-segments/${INT32_OVERFLOW}/contacts`,
      `/api/outbox/${INT32_OVERFLOW}`,
    ]) {
      expectRefusedField(await client.get(url), 'id', 'Not found');
    }
    // The largest int4 is still an id: it is simply not one of the user's rows.
    expect((await client.get(`/api/contacts/${INT32_OVERFLOW - 1}`)).statusCode).toBe(404);
  });

  it('ids of 2^31 and more in bodies and queries answer 400 naming the field', async () => {
    const { client } = await signUpUser(t());
    const { list, contact } = await fixtures(client);
    const cases: [string, string, unknown, string][] = [
      [
        'POST',
        '/api/contacts',
        { email: 'i@x.io', firstName: 'A', lastName: 'B', listIds: [INT32_OVERFLOW] },
        'listIds.0',
      ],
      ['POST', '/api/contacts/bulk-delete', { contactIds: [contact.id, INT32_OVERFLOW] }, 'contactIds.1'],
      ['POST', '/api/contacts/bulk-add-to-list', { contactIds: [contact.id], listId: INT32_OVERFLOW }, 'listId'],
      [
        'POST',
        '/api/contacts/bulk-remove-from-list',
        { contactIds: [INT32_OVERFLOW], listId: list.id },
        'contactIds.0',
      ],
      ['POST', '/api/contact-lists', { name: 'Big', contactIds: [INT32_OVERFLOW] }, 'contactIds.0'],
      [
        'POST',
        '/api/campaigns',
        { name: 'C', subject: 'S', fromEmail: 'news@acme.example', content: { html: 'x' }, listIds: [INT32_OVERFLOW] },
        'listIds.0',
      ],
      [
        'POST',
        '/api/campaigns',
        {
          name: 'C',
          subject: 'S',
          fromEmail: 'news@acme.example',
          content: { html: 'x' },
          segmentIds: [INT32_OVERFLOW],
        },
        'segmentIds.0',
      ],
      ['POST', '/api/analytics/purchases', { email: 'f@x.io', amount: 5, campaignId: INT32_OVERFLOW }, 'campaignId'],
      ['POST', '/api/contacts/import-csv', { csvData: 'email\na@x.io\n', listId: INT32_OVERFLOW }, 'listId'],
    ];
    for (const [method, url, payload, field] of cases) {
      const response = await client.request({ method: method as 'POST', url, payload: payload as object });
      expectRefusedField(response, field, /.+/);
    }
    expectRefusedField(await client.get(`/api/contacts?listId=${INT32_OVERFLOW}`), 'listId', /.+/);
    expectRefusedField(await client.get(`/api/contacts/export.csv?listId=${INT32_OVERFLOW}`), 'listId', /.+/);
    expectRefusedField(
      await client.request({
        method: 'POST',
        url: `/api/contacts/import-csv?listId=${INT32_OVERFLOW}`,
        headers: { 'content-type': 'text/csv' },
        payload: 'email\na@x.io\n',
      }),
      'listId',
      /.+/,
    );
  });

  it('segment rule numbers past int32 answer 400 naming the rule value', async () => {
    const { client } = await signUpUser(t());
    for (const [operator, value] of [
      ['equals', '99999999999'],
      ['greater_than', '99999999999.5'],
      ['less_than', '9'.repeat(180)],
      ['less_equal', '-2147483649'],
    ]) {
      const conditions = { operator: 'AND', rules: [{ field: 'engagementScore', operator, value }] };
      expectRefusedField(
        await client.post('/api/contact-segments/preview', { conditions }),
        'conditions.rules.0.value',
        "The value for 'engagementScore' must be between -2147483648 and 2147483647",
      );
      expectRefusedField(
        await client.post('/api/contact-segments', { name: `S ${operator}`, conditions }),
        'conditions.rules.0.value',
        /between/,
      );
    }
    // The bounds themselves are numbers an integer column holds.
    const atTheBound = {
      operator: 'AND',
      rules: [{ field: 'engagementScore', operator: 'less_than', value: '2147483647' }],
    };
    expect((await client.post('/api/contact-segments/preview', { conditions: atTheBound })).statusCode).toBe(200);
  });

  it('dates like 9999-12-31 or year 0 answer 400 naming the field, or work where they are dates we hold', async () => {
    const { client } = await signUpUser(t());
    const { campaign } = await fixtures(client);
    const dateRule = (operator: string, value: string) => ({
      conditions: { operator: 'AND', rules: [{ field: 'createdAt', operator, value }] },
    });
    for (const value of ['0000-01-01', '1899-12-31', '9999-12-31T23:00:00-12:00']) {
      expectRefusedField(
        await client.post('/api/contact-segments/preview', dateRule('date_before', value)),
        'conditions.rules.0.value',
        'The value for \'createdAt\' must be a date from 1900-01-01 to 9999-12-31 (YYYY-MM-DD) or "N days ago"',
      );
    }
    // The last day there is: nothing was created after it, and nothing fails.
    const after = await client.post('/api/contact-segments/preview', dateRule('date_after', '9999-12-31'));
    expect(after.statusCode, after.body).toBe(200);
    expect(after.json().count).toBe(0);
    const before = await client.post('/api/contact-segments/preview', dateRule('date_before', '9999-12-31'));
    expect(before.json().count).toBe(1);

    const scheduled = {
      name: 'Later',
      subject: 'S',
      fromEmail: 'news@acme.example',
      content: { html: 'x' },
      status: 'scheduled',
    };
    for (const scheduledAt of ['9999-12-31T23:59:59-12:00', '+010000-01-01T00:00:00Z']) {
      expectRefusedField(
        await client.post('/api/campaigns', { ...scheduled, scheduledAt }),
        'scheduledAt',
        /Schedule time must be/,
      );
      expectRefusedField(
        await client.patch(`/api/campaigns/${campaign.id}`, { status: 'scheduled', scheduledAt }),
        'scheduledAt',
        /Schedule time must be/,
      );
    }
    const last = await client.post('/api/campaigns', { ...scheduled, scheduledAt: '9999-12-31T23:59:59Z' });
    expect(last.statusCode, last.body).toBe(201);
  });

  it('a CSV with a NUL after 8 KB answers 400 naming the row', async () => {
    const { client } = await signUpUser(t());
    const rows = Array.from({ length: 600 }, (_, i) => `r${i}@x.io,Row ${i}`);
    const csv = `email,firstName\n${rows.join('\n')}\nbad${NUL}@x.io,Nul\nlast@x.io,Last\n`;
    expect(Buffer.byteLength(csv)).toBeGreaterThan(8192);
    for (const response of [
      await client.request({
        method: 'POST',
        url: '/api/contacts/import-csv',
        headers: { 'content-type': 'text/csv' },
        payload: csv,
      }),
      await client.request({
        method: 'POST',
        url: '/api/contacts/import-csv',
        headers: { 'content-type': 'text/csv', accept: 'application/x-ndjson' },
        payload: csv,
      }),
    ]) {
      const text = response.statusCode === 200 ? response.body.trim().split('\n').at(-1) : response.body;
      const answer = JSON.parse(text ?? '{}') as { message: string; status?: number };
      if (response.statusCode === 200) expect(answer.status).toBe(400);
      else expect(response.statusCode).toBe(400);
      expect(answer.message).toBe(
        'The CSV could not be read near row 602: it holds a NUL character, which text never has (is it a binary file?)',
      );
    }
  });

  it('MIME nested, wide or with huge headers: 413 past the parser limits, read within them, never 500', async () => {
    const { client } = await signUpUser(t());
    const { token } = (await client.get('/api/webhook/email-address')).json() as { token: string };
    const post = (raw: string) =>
      t()
        .client()
        .request({
          method: 'POST',
          url: '/api/webhook/email',
          headers: { 'content-type': 'message/rfc822', 'x-sendwell-token': token },
          payload: raw,
        });
    const nested = (depth: number) => {
      let head = '';
      let tail = '';
      for (let i = 0; i < depth; i += 1) {
        head += `Content-Type: multipart/mixed; boundary="b${i}"\r\n\r\n--b${i}\r\n`;
        tail = `\r\n--b${i}--\r\n${tail}`;
      }
      return `Subject: deep\r\n${head}Content-Type: text/plain\r\n\r\nhello${tail}`;
    };
    const manyParts = (count: number) =>
      'Subject: parts\r\nContent-Type: multipart/mixed; boundary="b"\r\n\r\n' +
      Array.from({ length: count }, (_, i) => `--b\r\nContent-Type: text/plain\r\n\r\npart ${i}\r\n`).join('') +
      '--b--\r\n';
    // The inbound pipeline parses every message once (mailparser, modules/inbound/mime.ts): past its
    // limits the sender hears 413; within them a message that is no report gets the classifier's 'other'.
    const tooManyParts = { message: 'The message has more than 1000 MIME parts' };
    for (const raw of [nested(5000), manyParts(100_000)]) {
      const response = await post(raw);
      expect(response.statusCode, response.body).toBe(413);
      expect(response.json()).toEqual(tooManyParts);
    }
    for (const raw of [
      `Subject: ${'x'.repeat(2 * 1024 * 1024)}\r\n\r\nbody`,
      `${Array.from({ length: 100_000 }, (_, i) => `X-Header-${i}: v`).join('\r\n')}\r\n\r\nbody`,
    ]) {
      const huge = await post(raw);
      expect(huge.statusCode).toBe(413);
      expect(huge.json()).toEqual({ message: 'A header block of the message is larger than 1 MB' });
    }
    const nothing = { kind: 'other', reason: null, hard: false, recipient: null, matched: false };
    for (const raw of [nested(200), manyParts(900)]) {
      const response = await post(raw);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual(nothing);
    }
  });

  it('NUL characters in a bounce or complaint report are not stored: no match, or the report without them', async () => {
    const { client, user } = await signUpUser(t());
    const { sends } = await sentCampaign(t(), client, 'Reported');
    const [first] = sends;
    const { token } = (await client.get('/api/webhook/email-address')).json() as { token: string };
    const post = (raw: string) =>
      t()
        .client()
        .request({
          method: 'POST',
          url: '/api/webhook/email',
          headers: { 'content-type': 'message/rfc822', 'x-sendwell-token': token },
          payload: raw,
        });
    const withNul = (first?.messageId ?? '').replace('@', `${NUL}@`);
    const unmatched = await post(arf(withNul, first?.email ?? ''));
    expect(unmatched.statusCode, unmatched.body).toBe(200);
    expect(unmatched.json()).toMatchObject({ kind: 'complaint', matched: false });
    const bounce = await post(dsn(first?.messageId ?? '', first?.email ?? '', `5.1.1${NUL}`));
    expect(bounce.statusCode, bounce.body).toBe(200);
    expect(bounce.json()).toMatchObject({ kind: 'bounce', reason: 'user-unknown', hard: true, matched: true });
    const events = await t().ctx.database.raw.executeSql(
      `SELECT detail FROM email_events WHERE user_id = $1 AND type = 'bounce'`,
      [user.id],
    );
    expect(events.rows).toEqual([{ detail: 'user-unknown: 5.1.1 550 5.1.1 User unknown' }]);
  });
});
