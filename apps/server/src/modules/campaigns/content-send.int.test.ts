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
});
