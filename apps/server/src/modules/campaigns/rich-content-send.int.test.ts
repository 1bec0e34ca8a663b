import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSink } from '../../../test/smtp-sink.ts';
import { runSendJobs } from '../../../test/send-jobs.ts';
import { signUpUser, useTestApp, type TestClient } from '../../../test/build-app.ts';

const link = (href: string) => ({ type: 'link', attrs: { href } });
/** A rich text block, a social block and two columns, as the editor saves them (tiptap JSON). */
const blocks = [
  {
    id: 'rich',
    type: 'text',
    content: {
      text: 'Hi {{firstName|there}}, read the post.',
      tag: 'p',
      doc: {
        type: 'doc',
        content: [
          {
            type: 'paragraph',
            content: [
              { type: 'text', text: 'Hi {{firstName|there}}, read ', marks: [{ type: 'bold' }] },
              { type: 'text', text: 'the post', marks: [link('https://blog.example/post?a=1&b=2')] },
              { type: 'text', text: '.' },
            ],
          },
        ],
      },
    },
  },
  {
    id: 'cols',
    type: 'columns',
    content: {
      columns: [
        { blocks: [{ id: 'l', type: 'button', content: { text: 'Left', url: 'https://shop.example/left' } }] },
        { blocks: [{ id: 'r', type: 'heading', content: { text: 'Right', tag: 'h2' } }] },
      ],
    },
  },
];

describe('a sent campaign with rich content', () => {
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(async () => sink.close());
  // Nothing answers DNS here: the domain's records are marked verified directly below.
  const t = useTestApp(() => ({ SMTP_URL: sink.url, DNS_SERVERS: '127.0.0.1:9' }));

  async function campaignTo(client: TestClient, contacts: string) {
    const created = await client.post('/api/domains', { domain: 'rich.example' });
    const domain = created.json() as { id: number };
    await t().ctx.database.raw.executeSql(
      `UPDATE domains SET spf_status = 'verified', dkim_status = 'verified', dmarc_status = 'verified', is_verified = true, verified_at = now(), warming_started_at = now() WHERE id = ${domain.id}`,
      [],
    );
    await client.patch('/api/auth/user', { postalAddress: '1 Main St' });
    const list = (await client.post('/api/contact-lists', { name: 'Rich list' })).json() as { id: number };
    await client.post('/api/contacts/import-csv', { csvData: contacts, listId: list.id });
    const campaign = await client.post('/api/campaigns', {
      name: 'Rich',
      subject: 'News',
      fromEmail: 'news@rich.example',
      content: { html: '' },
      blocks,
      listIds: [list.id],
    });
    expect(campaign.statusCode, campaign.body).toBe(201);
    return (campaign.json() as { id: number }).id;
  }

  it('carries tracked rich-text links, merge tags with fallbacks, and columns over real SMTP', async () => {
    const { client } = await signUpUser(t());
    const id = await campaignTo(client, 'email,firstName\nann@x.io,Ann\nnoname@x.io,\n');
    const before = sink.received.length;
    expect((await client.post(`/api/campaigns/${id}/send`)).statusCode).toBe(200);
    await runSendJobs(t());
    const messages = sink.received.slice(before);
    expect(messages.map((m) => m.to[0]).sort()).toEqual(['ann@x.io', 'noname@x.io']);
    const ann = messages.find((m) => m.to[0] === 'ann@x.io');
    const html = String(ann?.parsed.html);
    const text = String(ann?.parsed.text);
    expect(html).toContain('<strong>Hi Ann, read </strong>');
    const richLink =
      /<a href="([^"]+)" target="_blank" style="color:#2563eb;text-decoration:underline;">the post<\/a>/.exec(
        html,
      )?.[1];
    expect(richLink).toMatch(/\/t\/c\/[^/]+\/\d+$/);
    expect(html).not.toContain('blog.example');
    expect(text).toContain(`Hi Ann, read the post (${richLink})`);
    expect(html).toContain('class="sw-col"');
    expect(html).toContain('<!--[if mso]><td width="300" valign="top"><![endif]-->');
    expect(String(messages.find((m) => m.to[0] === 'noname@x.io')?.parsed.html)).toContain('Hi there, read');

    // The click goes where the rich-text link points.
    const click = await t()
      .client()
      .get(new URL((richLink ?? '').replaceAll('&amp;', '&')).pathname);
    expect(click.statusCode).toBe(302);
    expect(click.headers.location).toBe('https://blog.example/post?a=1&b=2');
  });

  it('refuses rich text that is not allow-listed, and unknown merge tags in columns, with a 400', async () => {
    const { client } = await signUpUser(t());
    const base = { name: 'Bad', subject: 'x', fromEmail: 'news@rich.example', content: { html: '' } };
    const script = await client.post('/api/campaigns', {
      ...base,
      blocks: [
        {
          id: 'x',
          type: 'text',
          content: { text: 'x', tag: 'p', doc: { type: 'doc', content: [{ type: 'rawHtml', html: '<script>' }] } },
        },
      ],
    });
    expect(script.statusCode).toBe(400);
    const js = await client.post('/api/campaigns', {
      ...base,
      blocks: [
        {
          id: 'x',
          type: 'text',
          content: {
            text: 'x',
            tag: 'p',
            doc: {
              type: 'doc',
              content: [
                { type: 'paragraph', content: [{ type: 'text', text: 'x', marks: [link('javascript:alert(1)')] }] },
              ],
            },
          },
        },
      ],
    });
    expect(js.statusCode).toBe(400);
    const tag = await client.post('/api/campaigns', {
      ...base,
      blocks: [
        {
          id: 'c',
          type: 'columns',
          content: {
            columns: [
              { blocks: [{ id: 'h', type: 'heading', content: { text: '{{password}}', tag: 'h1' } }] },
              { blocks: [] },
            ],
          },
        },
      ],
    });
    expect(tag.statusCode).toBe(400);
    expect(tag.json().message).toContain('Unknown merge tag {{password}}');
    expect((await client.get('/api/campaigns')).json()).toEqual([]);
  });
});
