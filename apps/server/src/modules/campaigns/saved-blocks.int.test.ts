import { describe, expect, it } from 'vitest';
import { signUpUser, useTestApp } from '../../../test/build-app.ts';

const footer = [
  {
    id: 'cols',
    type: 'columns',
    content: {
      columns: [
        { blocks: [{ id: 'l', type: 'text', content: { text: 'Thanks, {{firstName|friend}}', tag: 'p' } }] },
        { blocks: [{ id: 'r', type: 'button', content: { text: 'Shop', url: 'https://shop.example' } }] },
      ],
    },
  },
];

describe('saved blocks', () => {
  const t = useTestApp();

  it('saves, lists by name, renames and deletes', async () => {
    const { client } = await signUpUser(t());
    expect((await client.get('/api/saved-blocks')).json()).toEqual([]);
    const created = await client.post('/api/saved-blocks', { name: '  Shop footer ', blocks: footer });
    expect(created.statusCode, created.body).toBe(201);
    const block = created.json();
    expect(block).toMatchObject({ name: 'Shop footer' });
    expect(block.blocks[0].content.columns[1].blocks[0]).toMatchObject({ type: 'button', styles: {} });
    await client.post('/api/saved-blocks', {
      name: 'A divider',
      blocks: [{ id: 'd', type: 'divider' }],
    });
    expect(((await client.get('/api/saved-blocks')).json() as { name: string }[]).map((b) => b.name)).toEqual([
      'A divider',
      'Shop footer',
    ]);
    const renamed = await client.patch(`/api/saved-blocks/${block.id}`, { name: 'Footer with shop' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().name).toBe('Footer with shop');
    expect((await client.delete(`/api/saved-blocks/${block.id}`)).statusCode).toBe(204);
    expect(((await client.get('/api/saved-blocks')).json() as { name: string }[]).map((b) => b.name)).toEqual([
      'A divider',
    ]);
    expect((await client.delete(`/api/saved-blocks/${block.id}`)).statusCode).toBe(404);
  });

  it("keeps each account's blocks to itself: another account gets 404 and sees none", async () => {
    const owner = await signUpUser(t());
    const other = await signUpUser(t());
    const block = (await owner.client.post('/api/saved-blocks', { name: 'Mine', blocks: footer })).json() as {
      id: number;
    };
    expect((await other.client.get('/api/saved-blocks')).json()).toEqual([]);
    const rename = await other.client.patch(`/api/saved-blocks/${block.id}`, { name: 'Taken' });
    expect(rename.statusCode).toBe(404);
    expect(rename.json().message).toBe('Saved block not found');
    expect((await other.client.delete(`/api/saved-blocks/${block.id}`)).statusCode).toBe(404);
    expect((await owner.client.get('/api/saved-blocks')).json()[0].name).toBe('Mine');
  });

  it('refuses bad input with 400 and keeps nothing', async () => {
    const { client } = await signUpUser(t());
    const cases: [unknown, string][] = [
      [{ name: '', blocks: footer }, 'Block name is required'],
      [{ name: 'x'.repeat(121), blocks: footer }, 'Block name must be at most 120 characters'],
      [{ name: 'Empty', blocks: [] }, 'Choose a block to save'],
      [{ name: 'Script', blocks: [{ id: 'b', type: 'button', content: { text: 'x', url: 'javascript:x' } }] }, 'URL'],
      [
        { name: 'Tag', blocks: [{ id: 't', type: 'text', content: { text: '{{password}}', tag: 'p' } }] },
        'Unknown merge tag {{password}}',
      ],
      [{ name: 'Kind', blocks: [{ id: 't', type: 'marquee', content: {} }] }, ''],
      [{ name: 'No blocks' }, 'Send the blocks to save'],
    ];
    for (const [body, message] of cases) {
      const response = await client.post('/api/saved-blocks', body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(response.body).toContain(message);
    }
    expect((await client.patch('/api/saved-blocks/abc', { name: 'x' })).statusCode).toBe(400);
    expect((await client.patch('/api/saved-blocks/1', { name: ' ' })).statusCode).toBe(400);
    expect((await client.get('/api/saved-blocks')).json()).toEqual([]);
    expect((await t().client().get('/api/saved-blocks')).statusCode).toBe(401);
  });
});
