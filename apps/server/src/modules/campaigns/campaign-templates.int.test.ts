import { describe, expect, it } from 'vitest';
import { signUpUser, useTestApp, type TestClient } from '../../../test/build-app.ts';

const blocks = [
  { id: 'b1', type: 'text', content: { text: 'Autumn News', tag: 'h1' }, styles: { textAlign: 'center' } },
  {
    id: 'b2',
    type: 'text',
    content: { text: 'Hi {{firstName|there}}, the leaves are turning.', tag: 'p' },
    styles: {},
  },
  { id: 'b3', type: 'button', content: { text: 'Read on', url: 'https://news.example.com/autumn' }, styles: {} },
];

async function makeCampaign(client: TestClient, extra: Record<string, unknown> = {}) {
  const response = await client.post('/api/campaigns', {
    name: 'Autumn',
    subject: 'Autumn, {{firstName|friend}}',
    preheader: 'What is new this season',
    fromEmail: 'news@acme.example',
    fromName: 'Acme News',
    content: { html: '' },
    blocks,
    ...extra,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: number; name: string; blocks: unknown[]; content: { html: string } };
}

describe('duplicate, templates and the own-HTML preview', () => {
  const t = useTestApp();

  describe('duplicating a campaign', () => {
    it('makes a new draft "Copy of …" with the same content, sender and recipients', async () => {
      const { client } = await signUpUser(t());
      const list = (await client.post('/api/contact-lists', { name: 'Readers' })).json() as { id: number };
      const source = await makeCampaign(client, { listIds: [list.id] });
      const response = await client.post(`/api/campaigns/${source.id}/duplicate`);
      expect(response.statusCode, response.body).toBe(201);
      const copy = response.json();
      expect(copy.id).not.toBe(source.id);
      expect(copy).toMatchObject({
        name: 'Copy of Autumn',
        subject: 'Autumn, {{firstName|friend}}',
        preheader: 'What is new this season',
        fromEmail: 'news@acme.example',
        fromName: 'Acme News',
        status: 'draft',
        listIds: [list.id],
        totalSent: 0,
        sentAt: null,
        scheduledAt: null,
      });
      expect(copy.blocks).toEqual(source.blocks);
      expect(copy.content.html).toBe(source.content.html);
      const names = ((await client.get('/api/campaigns')).json() as { name: string }[]).map((c) => c.name);
      expect(names.sort()).toEqual(['Autumn', 'Copy of Autumn']);
      // The copy is a draft of its own: editing it leaves the source as it was.
      expect((await client.patch(`/api/campaigns/${copy.id}`, { name: 'Winter' })).statusCode).toBe(200);
      expect((await client.get(`/api/campaigns/${source.id}`)).json().name).toBe('Autumn');
    });

    it('keeps a long name within the limit', async () => {
      const { client } = await signUpUser(t());
      const source = await makeCampaign(client, { name: 'N'.repeat(200) });
      const copy = (await client.post(`/api/campaigns/${source.id}/duplicate`)).json();
      expect(copy.name).toHaveLength(200);
      expect(copy.name.startsWith('Copy of NNN')).toBe(true);
    });

    it("answers 404 for another account's campaign 400 for ids that cannot be one, and copies nothing", async () => {
      const owner = await signUpUser(t());
      const other = await signUpUser(t());
      const source = await makeCampaign(owner.client);
      const refused = await other.client.post(`/api/campaigns/${source.id}/duplicate`);
      expect(refused.statusCode).toBe(404);
      expect(refused.json().message).toBe('Campaign not found');
      expect((await other.client.post('/api/campaigns/abc/duplicate')).statusCode).toBe(400);
      expect((await other.client.post('/api/campaigns/99999999999/duplicate')).statusCode).toBe(400);
      expect((await other.client.get('/api/campaigns')).json()).toEqual([]);
      expect((await owner.client.get('/api/campaigns')).json()).toHaveLength(1);
    });

    it('needs a session', async () => {
      expect((await t().client().post('/api/campaigns/1/duplicate')).statusCode).toBe(401);
    });
  });

  describe('the preview of a campaign in its own HTML', () => {
    it("renders the HTML with the user's merge tags and adds the footer when it has no {{unsubscribe}}", async () => {
      const { client } = await signUpUser(t());
      const response = await client.post('/api/campaigns/preview', {
        blocks: [],
        subject: 'Hi',
        html: '<h1>Hello {{firstName|there}}</h1><p><a href="https://shop.example.org/x">Shop</a></p>',
      });
      expect(response.statusCode, response.body).toBe(200);
      const { html, text } = response.json();
      expect(html).toContain('<h1>Hello ');
      expect(html).not.toContain('{{firstName');
      expect(html).toContain('https://shop.example.org/x');
      expect(html.toLowerCase()).toContain('unsubscribe');
      expect(text).toContain('Hello');
    });

    it('refuses an HTML body over the size limit with a 4xx (the request body limit answers first: 413)', async () => {
      const { client } = await signUpUser(t());
      const response = await client.post('/api/campaigns/preview', { blocks: [], html: 'x'.repeat(2_000_001) });
      expect(response.statusCode).toBe(413);
    });
  });

  describe('campaign templates', () => {
    it('round trip: a campaign saved as a template starts a new campaign with the same blocks', async () => {
      const { client } = await signUpUser(t());
      const campaign = await makeCampaign(client);
      const saved = await client.post('/api/campaign-templates', {
        name: '  Seasonal letter ',
        subject: 'Autumn, {{firstName|friend}}',
        preheader: 'What is new this season',
        blocks: campaign.blocks,
      });
      expect(saved.statusCode, saved.body).toBe(201);
      expect(saved.json()).toMatchObject({ name: 'Seasonal letter', html: '', blocks: campaign.blocks });

      const [template] = (await client.get('/api/campaign-templates')).json() as {
        id: number;
        subject: string;
        preheader: string;
        blocks: unknown[];
      }[];
      expect(template?.blocks).toEqual(campaign.blocks);
      const started = await makeCampaign(client, {
        name: 'From the template',
        subject: template?.subject,
        preheader: template?.preheader,
        blocks: template?.blocks,
      });
      expect(started.blocks).toEqual(campaign.blocks);
      expect(started.content.html).toBe(campaign.content.html);
    });

    it('keeps a raw-HTML template as HTML, renames and deletes', async () => {
      const { client } = await signUpUser(t());
      const html = '<h1>Hello {{firstName|there}}</h1><p><a href="{{unsubscribe}}">Unsubscribe</a></p>';
      const created = (await client.post('/api/campaign-templates', { name: 'Own HTML', html })).json();
      expect(created).toMatchObject({ name: 'Own HTML', html, blocks: [] });
      const renamed = await client.patch(`/api/campaign-templates/${created.id}`, { name: 'My HTML' });
      expect(renamed.statusCode).toBe(200);
      expect(renamed.json().name).toBe('My HTML');
      expect((await client.delete(`/api/campaign-templates/${created.id}`)).statusCode).toBe(204);
      expect((await client.get('/api/campaign-templates')).json()).toEqual([]);
      expect((await client.delete(`/api/campaign-templates/${created.id}`)).statusCode).toBe(404);
    });

    it.each([
      [{ blocks }, 'name', 'Template name is required'],
      [{ name: '   ', blocks }, 'name', 'Template name is required'],
      [{ name: 'x'.repeat(121), blocks }, 'name', 'Template name must be at most 120 characters'],
      [{ name: 'Empty' }, 'blocks', 'A template needs some content: add a block or write some HTML'],
      [
        { name: 'Bad', blocks: [{ id: 'x', type: 'button', content: { text: 'Go', url: 'javascript:alert(1)' } }] },
        'blocks.0.content.url',
        'Enter a full http:// or https:// URL',
      ],
    ])('refuses %j with 400 and stores nothing', async (body, field, message) => {
      const { client } = await signUpUser(t());
      const response = await client.post('/api/campaign-templates', body);
      expect(response.statusCode).toBe(400);
      expect(response.json().fields[field]).toBe(message);
      expect((await client.get('/api/campaign-templates')).json()).toEqual([]);
    });

    it('refuses an unknown merge tag and a bad rename', async () => {
      const { client } = await signUpUser(t());
      const tagged = await client.post('/api/campaign-templates', { name: 'T', subject: 'Hi {{password}}', blocks });
      expect(tagged.statusCode).toBe(400);
      expect(tagged.json().message).toContain('Unknown merge tag {{password}}');
      const created = (await client.post('/api/campaign-templates', { name: 'T', blocks })).json();
      const rename = await client.patch(`/api/campaign-templates/${created.id}`, { name: '' });
      expect(rename.statusCode).toBe(400);
      expect(rename.json().fields.name).toBe('Template name is required');
      expect((await client.get('/api/campaign-templates')).json()[0].name).toBe('T');
    });

    it('is per account: another account neither lists, renames nor deletes a template (404)', async () => {
      const owner = await signUpUser(t());
      const other = await signUpUser(t());
      const created = (await owner.client.post('/api/campaign-templates', { name: 'Mine', blocks })).json();
      expect((await other.client.get('/api/campaign-templates')).json()).toEqual([]);
      const rename = await other.client.patch(`/api/campaign-templates/${created.id}`, { name: 'Stolen' });
      expect(rename.statusCode).toBe(404);
      expect(rename.json().message).toBe('Template not found');
      expect((await other.client.delete(`/api/campaign-templates/${created.id}`)).statusCode).toBe(404);
      expect((await owner.client.get('/api/campaign-templates')).json()).toMatchObject([
        { id: created.id, name: 'Mine' },
      ]);
    });

    it('needs a session', async () => {
      expect((await t().client().get('/api/campaign-templates')).statusCode).toBe(401);
    });
  });
});
