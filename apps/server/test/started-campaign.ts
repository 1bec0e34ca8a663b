import { expect } from 'vitest';
import { signUpUser, type TestApp } from './build-app.ts';

/**
 * A campaign to `recipients` contacts (`<prefix><n>@x.io`), started: its ledger written and its
 * batches queued. Answers its id.
 */
export async function startBigCampaign(t: TestApp, recipients: number, prefix: string): Promise<number> {
  const { client } = await signUpUser(t);
  await client.patch('/api/auth/user', { postalAddress: '1 Main St' });
  const list = (await client.post('/api/contact-lists', { name: 'Big send' })).json() as { id: number };
  const csv = `email,firstName\n${Array.from({ length: recipients }, (_, i) => `${prefix}${i}@x.io,N${i}`).join('\n')}\n`;
  expect((await client.post('/api/contacts/import-csv', { csvData: csv, listId: list.id })).json().imported).toBe(
    recipients,
  );
  const campaign = (
    await client.post('/api/campaigns', {
      name: 'Big send',
      subject: 'Hello {{firstName}}',
      fromEmail: 'news@acme.example',
      content: { html: '' },
      blocks: [{ id: 'b1', type: 'text', content: { text: 'Hi {{firstName}}', tag: 'p' } }],
      listIds: [list.id],
    })
  ).json() as { id: number };
  expect((await client.post(`/api/campaigns/${campaign.id}/send`)).json().totalRecipients).toBe(recipients);
  return campaign.id;
}
