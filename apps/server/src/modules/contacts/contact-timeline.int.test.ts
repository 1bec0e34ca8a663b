import { describe, expect, it } from 'vitest';
import type { ContactTimeline } from '@sendwell/contract/contacts';
import {
  campaignLinks,
  campaigns,
  campaignSends,
  contacts,
  emailEvents,
  emailSequences,
  leadFormSubmissions,
  leads,
  leadSources,
  sequenceEnrolments,
  sequenceSends,
} from '../../db/schema/index.ts';
import { signUpUser, useTestApp } from '../../../test/build-app.ts';

/** The per-contact timeline (issue 31 part 2): everything that happened with one contact, newest first, paged, the owner's only. */
describe('GET /api/contacts/:id/timeline', () => {
  const t = useTestApp();
  const at = (minute: number) => new Date(Date.UTC(2026, 2, 1, 9, minute));

  async function contactWithHistory() {
    const owner = await signUpUser(t());
    const db = t().ctx.db;
    const userId = owner.user.id;
    const [contact] = await db
      .insert(contacts)
      .values({ userId, email: 'ada@x.io', createdAt: at(0) })
      .returning();
    const contactId = contact!.id;
    const [source] = await db
      .insert(leadSources)
      .values({ userId, name: 'Newsletter form', type: 'form', slug: `form-${userId}` })
      .returning();
    await db.insert(leadFormSubmissions).values({
      userId,
      sourceId: source!.id,
      email: 'ada@x.io',
      formVersion: 1,
      consentText: 'Yes, mail me',
      submittedAt: at(1),
      confirmedAt: at(2),
    });
    await db.insert(leads).values({ userId, sourceId: source!.id, email: 'ada@x.io', contactId, createdAt: at(3) });
    const [campaign] = await db
      .insert(campaigns)
      .values({ userId, name: 'Spring', subject: 'Hi', fromEmail: 'a@acme.example', status: 'sent', sentAt: at(4) })
      .returning();
    const [link] = await db
      .insert(campaignLinks)
      .values({ campaignId: campaign!.id, url: 'https://acme.example/shop' })
      .returning();
    const [send] = await db
      .insert(campaignSends)
      .values({ campaignId: campaign!.id, userId, contactId, email: 'ada@x.io', status: 'sent', sentAt: at(4) })
      .returning();
    const event = (type: string, minute: number, extra: Partial<typeof emailEvents.$inferInsert> = {}) => ({
      userId,
      campaignId: campaign!.id,
      sendId: send!.id,
      contactId,
      type,
      createdAt: at(minute),
      ...extra,
    });
    await db.insert(emailEvents).values(event('open', 5, { machine: true }));
    await db.insert(emailEvents).values(event('open', 6));
    await db.insert(emailEvents).values(event('click', 7, { linkId: link!.id }));
    const [sequence] = await db
      .insert(emailSequences)
      .values({ userId, name: 'Welcome', flowData: { nodes: [], edges: [] } })
      .returning();
    await db.insert(sequenceEnrolments).values({
      userId,
      sequenceId: sequence!.id,
      version: 1,
      contactId,
      currentNodeId: 'end',
      state: 'exited',
      exitReason: 'unsubscribed',
      enteredAt: at(8),
      finishedAt: at(11),
    });
    await db.insert(sequenceSends).values({
      userId,
      sequenceId: sequence!.id,
      step: 1,
      nodeId: 'email-1',
      contactId,
      email: 'ada@x.io',
      status: 'sent',
      sentAt: at(9),
    });
    await db.insert(emailEvents).values(event('unsubscribe', 10));
    return { ...owner, contactId, campaignId: campaign!.id, sequenceId: sequence!.id };
  }

  it('lists mail, opens (human or machine), clicks, sequences, forms and lead captures newest first, a page at a time', async () => {
    const { client, contactId, campaignId, sequenceId } = await contactWithHistory();
    const response = await client.get(`/api/contacts/${contactId}/timeline?pageSize=50`);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as ContactTimeline;
    expect(body.events.map((e) => e.type)).toEqual([
      'sequence-left',
      'unsubscribe',
      'sent',
      'sequence-entered',
      'click',
      'open',
      'open',
      'sent',
      'lead',
      'form',
    ]);
    expect(body.events[0]).toMatchObject({ sequenceId, sequenceName: 'Welcome', detail: 'unsubscribed' });
    expect(body.events[2]).toMatchObject({ type: 'sent', sequenceName: 'Welcome', campaignId: null });
    expect(body.events[4]).toMatchObject({ url: 'https://acme.example/shop', machine: false, campaignName: 'Spring' });
    expect(body.events.slice(5, 7).map((e) => e.machine)).toEqual([false, true]);
    expect(body.events[7]).toMatchObject({ type: 'sent', campaignId, campaignName: 'Spring' });
    expect(body.events[8]).toMatchObject({ sourceName: 'Newsletter form' });
    expect(body.events[9]).toMatchObject({ sourceName: 'Newsletter form', detail: 'confirmed' });
    expect(body).toMatchObject({ page: 1, hasMore: false, suppression: null });

    const first = (await client.get(`/api/contacts/${contactId}/timeline?pageSize=4`)).json() as ContactTimeline;
    expect(first).toMatchObject({ page: 1, hasMore: true });
    const second = (
      await client.get(`/api/contacts/${contactId}/timeline?pageSize=4&page=2`)
    ).json() as ContactTimeline;
    const third = (await client.get(`/api/contacts/${contactId}/timeline?pageSize=4&page=3`)).json() as ContactTimeline;
    expect(second.hasMore).toBe(true);
    expect(third.hasMore).toBe(false);
    expect([...first.events, ...second.events, ...third.events]).toEqual(body.events);
  });

  it('is the owner’s only: another account gets 404, bad paging 400', async () => {
    const { client, contactId } = await contactWithHistory();
    const stranger = await signUpUser(t());
    const other = await stranger.client.get(`/api/contacts/${contactId}/timeline`);
    expect(other.statusCode).toBe(404);
    expect(other.body).not.toContain('ada@x.io');
    expect((await client.get(`/api/contacts/${contactId}/timeline?pageSize=101`)).statusCode).toBe(400);
    expect((await client.get(`/api/contacts/${contactId}/timeline?page=0`)).statusCode).toBe(400);
    expect((await client.get(`/api/contacts/2147483647/timeline`)).statusCode).toBe(404);
    // The stranger's own contact with the same address shows none of the owner's history.
    const [own] = await t().ctx.db.insert(contacts).values({ userId: stranger.user.id, email: 'ada@x.io' }).returning();
    const theirs = (await stranger.client.get(`/api/contacts/${own!.id}/timeline`)).json() as ContactTimeline;
    expect(theirs.events).toEqual([]);
  });
});
