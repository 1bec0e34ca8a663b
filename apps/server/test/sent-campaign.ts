import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { campaignSends } from '../src/db/schema/index.ts';
import type { TestApp, TestClient } from './build-app.ts';
import { runSendJobs } from './send-jobs.ts';

/**
 * A campaign sent through the built-in catcher to `count` new contacts (name0@x.io, …); answers its
 * id and its sends, with the Message-IDs that bounce and complaint reports quote.
 */
export async function sentCampaign(t: TestApp, client: TestClient, name: string, count = 2) {
  await client.patch('/api/auth/user', { postalAddress: '1 Main St' });
  const list = (await client.post('/api/contact-lists', { name })).json() as { id: number };
  const rows = Array.from({ length: count }, (_, i) => `${name.toLowerCase()}${i}@x.io,R${i}`).join('\n');
  await client.post('/api/contacts/import-csv', { csvData: `email,firstName\n${rows}\n`, listId: list.id });
  const campaign = (
    await client.post('/api/campaigns', {
      name,
      subject: 'Hi',
      fromEmail: 'news@acme.example',
      content: { html: '' },
      blocks: [{ id: 'b1', type: 'text', content: { text: 'Hello', tag: 'p' } }],
      listIds: [list.id],
    })
  ).json() as { id: number };
  expect((await client.post(`/api/campaigns/${campaign.id}/send`)).statusCode).toBe(200);
  await runSendJobs(t);
  const sends = await t.ctx.db.select().from(campaignSends).where(eq(campaignSends.campaignId, campaign.id));
  expect(sends.map((send) => send.status)).toEqual(Array(count).fill('sent'));
  return { id: campaign.id, sends };
}
