import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSink } from '../../../test/smtp-sink.ts';
import { runSendJobs } from '../../../test/send-jobs.ts';
import { signUpUser, useTestApp, type TestClient } from '../../../test/build-app.ts';

// Issue 30 parts 1 and 6 through a real send: the contact fields as merge tags, and conditional blocks.

describe('campaign content per recipient, sent', () => {
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(async () => sink.close());
  // Nothing answers DNS here: the domain's records are marked verified directly below.
  const t = useTestApp(() => ({ SMTP_URL: sink.url, DNS_SERVERS: '127.0.0.1:9' }));

  async function listWith(client: TestClient, csv: string): Promise<number> {
    const created = await client.post('/api/domains', { domain: 'content.example' });
    const domain = created.json() as { id: number };
    await t().ctx.database.raw.executeSql(
      `UPDATE domains SET spf_status = 'verified', dkim_status = 'verified', dmarc_status = 'verified', is_verified = true, verified_at = now(), warming_started_at = now() WHERE id = ${domain.id}`,
      [],
    );
    await client.patch('/api/auth/user', { postalAddress: '1 Main St' });
    const list = (await client.post('/api/contact-lists', { name: 'Readers' })).json() as { id: number };
    const imported = await client.post('/api/contacts/import-csv', { csvData: csv, listId: list.id });
    expect(imported.statusCode, imported.body).toBeLessThan(300);
    return list.id;
  }

  async function sendTo(client: TestClient, listId: number, blocks: unknown[], subject = 'News') {
    const campaign = await client.post('/api/campaigns', {
      name: 'Content',
      subject,
      fromEmail: 'news@content.example',
      content: { html: '' },
      blocks,
      listIds: [listId],
    });
    expect(campaign.statusCode, campaign.body).toBe(201);
    const id = (campaign.json() as { id: number }).id;
    const before = sink.received.length;
    expect((await client.post(`/api/campaigns/${id}/send`)).statusCode).toBe(200);
    await runSendJobs(t());
    const messages = sink.received.slice(before);
    const of = (email: string) => {
      const message = messages.find((m) => m.to[0] === email);
      return {
        html: String(message?.parsed.html),
        text: String(message?.parsed.text),
        subject: message?.parsed.subject,
      };
    };
    return { id, count: messages.length, of };
  }

  it('fills job title and location, with fallbacks for contacts without them', async () => {
    const { client } = await signUpUser(t());
    const listId = await listWith(
      client,
      'email,firstName,jobTitle,location\nann@x.io,Ann,Head of Marketing,Berlin\nbob@x.io,Bob,,\n',
    );
    const sent = await sendTo(
      client,
      listId,
      [
        {
          id: 't',
          type: 'text',
          content: { text: 'As {{jobTitle|a reader}} in {{location|your town}}, {{firstName}}', tag: 'p' },
        },
      ],
      'For {{location|you}}',
    );
    expect(sent.count).toBe(2);
    expect(sent.of('ann@x.io').html).toContain('As Head of Marketing in Berlin, Ann');
    expect(sent.of('ann@x.io').text).toContain('As Head of Marketing in Berlin, Ann');
    expect(sent.of('ann@x.io').subject).toBe('For Berlin');
    expect(sent.of('bob@x.io').html).toContain('As a reader in your town, Bob');
    expect(sent.of('bob@x.io').subject).toBe('For you');
  });

  it('sends conditional blocks only to their segment or field rule: two contacts, two different bodies', async () => {
    const { client } = await signUpUser(t());
    const listId = await listWith(
      client,
      'email,firstName,company,location\nann@x.io,Ann,Acme,Berlin\nbob@x.io,Bob,Other,Paris\n',
    );
    const segment = await client.post('/api/contact-segments', {
      name: 'Acme people',
      conditions: { operator: 'AND', rules: [{ id: '1', field: 'company', operator: 'equals', value: 'Acme' }] },
    });
    expect(segment.statusCode, segment.body).toBe(201);
    const segmentId = (segment.json() as { id: number; contactCount: number }).id;
    expect(segment.json().contactCount).toBe(1);
    const blocks = [
      { id: 'all', type: 'text', content: { text: 'For everyone', tag: 'p' } },
      {
        id: 'vip',
        type: 'text',
        content: { text: 'Acme-only offer', tag: 'p' },
        condition: { kind: 'segment', segmentId, match: 'in' },
      },
      {
        id: 'rest',
        type: 'button',
        content: { text: 'Join Acme', url: 'https://acme.example/join' },
        condition: { kind: 'segment', segmentId, match: 'notIn' },
      },
      {
        id: 'cols',
        type: 'columns',
        content: {
          columns: [
            {
              blocks: [
                {
                  id: 'paris',
                  type: 'text',
                  content: { text: 'Bonjour Paris', tag: 'p' },
                  condition: { kind: 'field', field: 'location', op: 'equals', value: 'paris' },
                },
              ],
            },
            { blocks: [{ id: 'always', type: 'text', content: { text: 'Right column', tag: 'p' } }] },
          ],
        },
      },
    ];
    const sent = await sendTo(client, listId, blocks);
    expect(sent.count).toBe(2);
    const ann = sent.of('ann@x.io');
    const bob = sent.of('bob@x.io');
    for (const part of [ann.html, ann.text]) {
      expect(part).toContain('For everyone');
      expect(part).toContain('Acme-only offer');
      expect(part).not.toContain('Join Acme');
      expect(part).not.toContain('Bonjour Paris');
      expect(part).toContain('Right column');
    }
    for (const part of [bob.html, bob.text]) {
      expect(part).toContain('For everyone');
      expect(part).not.toContain('Acme-only offer');
      expect(part).toContain('Join Acme');
      expect(part).toContain('Bonjour Paris');
    }

    // The preview: everyone sees every block; a chosen contact sees what they will get.
    const contacts = (await client.get('/api/contacts')).json() as
      { id: number; email: string }[] | { contacts: { id: number; email: string }[] };
    const list = Array.isArray(contacts) ? contacts : contacts.contacts;
    const annId = list.find((c) => c.email === 'ann@x.io')?.id;
    const everyone = (await client.post('/api/campaigns/preview', { blocks, subject: 'x' })).json().html as string;
    expect(everyone).toContain('Acme-only offer');
    expect(everyone).toContain('Join Acme');
    const asAnn = await client.post('/api/campaigns/preview', {
      blocks,
      subject: 'Hi {{firstName}}',
      contactId: annId,
    });
    expect(asAnn.statusCode, asAnn.body).toBe(200);
    expect(asAnn.json().html).toContain('Acme-only offer');
    expect(asAnn.json().html).not.toContain('Join Acme');
    expect(asAnn.json().html).toContain('<title>Hi Ann</title>');
  });

  it("refuses a condition on another account's segment, and a preview as another account's contact", async () => {
    const owner = await signUpUser(t());
    const other = await signUpUser(t());
    const segment = (
      await owner.client.post('/api/contact-segments', {
        name: 'Mine',
        conditions: { operator: 'AND', rules: [{ id: '1', field: 'company', operator: 'equals', value: 'Acme' }] },
      })
    ).json() as { id: number };
    const refused = await other.client.post('/api/campaigns', {
      name: 'Theirs',
      subject: 'x',
      fromEmail: 'news@content.example',
      content: { html: '' },
      blocks: [
        {
          id: 'x',
          type: 'text',
          content: { text: 'Hidden', tag: 'p' },
          condition: { kind: 'segment', segmentId: segment.id, match: 'in' },
        },
      ],
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(
      'A block is shown to a segment that does not exist. Choose one of your segments.',
    );
    const bad = await other.client.post('/api/campaigns', {
      name: 'Bad',
      subject: 'x',
      fromEmail: 'news@content.example',
      content: { html: '' },
      blocks: [
        {
          id: 'x',
          type: 'text',
          content: { text: 'Hidden', tag: 'p' },
          condition: { kind: 'field', field: 'password', op: 'equals', value: 'x' },
        },
      ],
    });
    expect(bad.statusCode).toBe(400);
    expect((await other.client.get('/api/campaigns')).json()).toEqual([]);

    const contact = await owner.client.post('/api/contacts', { email: 'ann@x.io', firstName: 'Ann', lastName: 'Lee' });
    expect(contact.statusCode, contact.body).toBe(201);
    const preview = await other.client.post('/api/campaigns/preview', {
      blocks: [{ id: 'a', type: 'text', content: { text: 'Hi {{firstName}}', tag: 'p' } }],
      contactId: (contact.json() as { id: number }).id,
    });
    expect(preview.statusCode).toBe(404);
    expect(preview.json().message).toBe('Contact not found');
    expect((await other.client.post('/api/campaigns/preview', { blocks: [], contactId: 'abc' })).statusCode).toBe(400);
  });
});
