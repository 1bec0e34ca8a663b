import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { signUpUser, useTestApp } from '../../../test/build-app.ts';
import { campaignSends } from '../../db/schema/index.ts';
import * as ledger from './campaign-send.repo.ts';
import { recoverCampaignSends } from './campaign-send.service.ts';

/**
 * The after-accept mark (security finding 2): what a mark does when it is retried after its answer
 * was lost, and when the claim it names went stale meanwhile.
 */
describe('marking accepted messages sent', () => {
  const t = useTestApp();

  /** A started campaign to three recipients (its ledger written; no worker runs here) and its batch. */
  async function startedCampaign(name: string) {
    const { client } = await signUpUser(t());
    await client.patch('/api/auth/user', { postalAddress: '1 Main St' });
    const list = (await client.post('/api/contact-lists', { name })).json() as { id: number };
    const csv = `email\n${[0, 1, 2].map((i) => `${name.toLowerCase()}${i}@x.io`).join('\n')}\n`;
    await client.post('/api/contacts/import-csv', { csvData: csv, listId: list.id });
    const campaign = (
      await client.post('/api/campaigns', {
        name,
        subject: 'Hi',
        fromEmail: 'news@acme.example',
        content: { html: '' },
        blocks: [{ id: 'b1', type: 'text', content: { text: 'Hi', tag: 'p' } }],
        listIds: [list.id],
      })
    ).json() as { id: number };
    expect((await client.post(`/api/campaigns/${campaign.id}/send`)).statusCode).toBe(200);
    const range = await ledger.ledgerRange(t().ctx.db, campaign.id);
    return { campaignId: campaign.id, fromId: range?.min ?? 0, toId: range?.max ?? 0 };
  }

  it('a dropped connection doubles mail: a repeated mark still counts its rows, and a stale claim’s message is recorded unless another claim holds the row', async () => {
    const batch = await startedCampaign('Marks');
    const campaign = { id: batch.campaignId };
    const { db } = t().ctx;
    const [first, second, third] = await ledger.claimRows(db, batch, 'claim-a', 10);
    if (!first || !second || !third) throw new Error('three rows claimed');
    const message = (row: { id: number }, claimToken = 'claim-a') => ({
      id: row.id,
      claimToken,
      messageId: `<${row.id}@acme.example>`,
    });

    // A mark whose answer was lost (it had committed) and is tried again answers the same.
    expect([...(await ledger.campaignLedger(db).markSent([message(first)]))]).toEqual([first.id]);
    expect([...(await ledger.campaignLedger(db).markSent([message(first)]))]).toEqual([first.id]);

    // The claim goes stale while the database is away: its rows go back to the queue.
    await ledger.requeueStale(db, new Date(Date.now() + 60_000), { ...batch, ownClaimToken: 'claim-b' });
    // Another batch claims the third row before the second's record gets through.
    const [taken] = await ledger.claimRows(db, { ...batch, fromId: third.id }, 'claim-b', 1);
    expect(taken?.id).toBe(third.id);
    // The second row's message went: recorded, not sent again. The third is another claim's now.
    expect([...(await ledger.campaignLedger(db).markSent([message(second), message(third)]))]).toEqual([second.id]);

    const rows = await db
      .select({ id: campaignSends.id, status: campaignSends.status, claimToken: campaignSends.claimToken })
      .from(campaignSends)
      .where(eq(campaignSends.campaignId, campaign.id))
      .orderBy(campaignSends.id);
    expect(rows).toEqual([
      { id: first.id, status: 'sent', claimToken: 'claim-a' },
      { id: second.id, status: 'sent', claimToken: 'claim-a' },
      { id: third.id, status: 'sending', claimToken: 'claim-b' },
    ]);
  });

  it('a dropped connection: a campaign whose last progress report was lost is finished by the recovery sweep', async () => {
    const batch = await startedCampaign('Drained');
    const { db } = t().ctx;
    const rows = await ledger.claimRows(db, batch, 'claim-c', 10);
    await ledger
      .campaignLedger(db)
      .markSent(rows.map((row) => ({ id: row.id, claimToken: 'claim-c', messageId: `<${row.id}@acme.example>` })));
    // Every recipient is done, but the report that would have finished the campaign never arrived.
    expect((await ledger.findCampaignById(db, batch.campaignId))?.status).toBe('sending');
    await recoverCampaignSends(t().ctx);
    const finished = await ledger.findCampaignById(db, batch.campaignId);
    expect({ status: finished?.status, totalSent: finished?.totalSent }).toEqual({ status: 'sent', totalSent: 3 });
  });
});
