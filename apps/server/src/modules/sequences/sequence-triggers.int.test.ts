import { describe, expect, it } from 'vitest';
import { SEQUENCE_TEMPLATES } from '@sendwell/contract/sequence-templates';
import type { Enrolment, FlowData, Sequence } from '@sendwell/contract/sequences';
import { signUpUser, useTestApp, type TestClient } from '../../../test/build-app.ts';
import { runListTriggers } from './sequences.service.ts';

const welcome = SEQUENCE_TEMPLATES.find((t) => t.id === 'welcome-series')?.flowData as FlowData;

async function sequenceWith(client: TestClient, body: Record<string, unknown>): Promise<Sequence> {
  const response = await client.post('/api/email-sequences', {
    name: 'Triggered',
    flowData: welcome,
    status: 'active',
    fromEmail: 'news@acme.example',
    ...body,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as Sequence;
}

async function contact(client: TestClient, email: string): Promise<number> {
  const response = await client.post('/api/contacts', { email, firstName: 'F', lastName: 'L' });
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { id: number }).id;
}

async function enrolledEmails(client: TestClient, sequenceId: number): Promise<string[]> {
  const page = (await client.get(`/api/email-sequences/${sequenceId}/enrolments`)).json() as Enrolment[];
  return page.map((e) => e.email).sort();
}

/** A check after the settle window of everything done so far. */
const settled = () => new Date(Date.now() + 10_000);

describe('sequence triggers', () => {
  const t = useTestApp();

  it('signup: contacts who join the chosen list after activation enter, by hand or by import', async () => {
    const { client, user } = await signUpUser(t());
    const list = (await client.post('/api/contact-lists', { name: 'Newsletter' })).json() as { id: number };
    const other = (await client.post('/api/contact-lists', { name: 'Other' })).json() as { id: number };
    const before = await contact(client, 'before@x.io');
    await client.post('/api/contacts/bulk-add-to-list', { listId: list.id, contactIds: [before] });
    // The list joins above are older than the activation below.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const chosen = await sequenceWith(client, { triggerType: 'signup', triggerConfig: { listId: list.id } });
    const anyList = await sequenceWith(client, { name: 'Any list', triggerType: 'signup' });

    const byHand = await contact(client, 'hand@x.io');
    await client.post('/api/contacts/bulk-add-to-list', { listId: list.id, contactIds: [byHand] });
    const elsewhere = await contact(client, 'elsewhere@x.io');
    await client.post('/api/contacts/bulk-add-to-list', { listId: other.id, contactIds: [elsewhere] });
    const imported = await client.post('/api/contacts/import-csv', {
      csvData: 'email,firstName\nimported@x.io,Imp\n',
      listId: list.id,
    });
    expect(imported.statusCode, imported.body).toBe(200);

    expect(await runListTriggers(t().ctx.db, user.id, settled())).toBe(5);
    expect(await enrolledEmails(client, chosen.id)).toEqual(['hand@x.io', 'imported@x.io']);
    expect(await enrolledEmails(client, anyList.id)).toEqual(['elsewhere@x.io', 'hand@x.io', 'imported@x.io']);
    // Checked once: the same joins do not enrol again.
    expect(await runListTriggers(t().ctx.db, user.id, settled())).toBe(0);
  });

  it('segment joined: contacts who join the segment when it is recomputed enter', async () => {
    const { client, user } = await signUpUser(t());
    await client.post('/api/contacts', { email: 'early@x.io', firstName: 'Seg', lastName: 'L' });
    const segment = (
      await client.post('/api/contact-segments', {
        name: 'Seg',
        conditions: { operator: 'AND', rules: [{ field: 'firstName', operator: 'equals', value: 'Seg' }] },
      })
    ).json() as { id: number };
    await new Promise((resolve) => setTimeout(resolve, 20));
    const sequence = await sequenceWith(client, {
      triggerType: 'segment_joined',
      triggerConfig: { segmentId: segment.id },
    });
    await client.post('/api/contacts', { email: 'late@x.io', firstName: 'Seg', lastName: 'L' });
    await client.post('/api/contacts', { email: 'other@x.io', firstName: 'Nope', lastName: 'L' });
    expect((await client.post(`/api/contact-segments/${segment.id}/refresh`)).statusCode).toBe(200);
    expect(await runListTriggers(t().ctx.db, user.id, settled())).toBe(1);
    expect(await enrolledEmails(client, sequence.id)).toEqual(['late@x.io']);
  });

  it('a paused or draft sequence enrols nobody through its trigger', async () => {
    const { client, user } = await signUpUser(t());
    const list = (await client.post('/api/contact-lists', { name: 'L' })).json() as { id: number };
    const paused = await sequenceWith(client, { triggerConfig: { listId: list.id } });
    await client.patch(`/api/email-sequences/${paused.id}`, { status: 'paused' });
    const draft = await sequenceWith(client, { status: 'draft', triggerConfig: { listId: list.id } });
    const joiner = await contact(client, 'joiner@x.io');
    await client.post('/api/contacts/bulk-add-to-list', { listId: list.id, contactIds: [joiner] });
    expect(await runListTriggers(t().ctx.db, user.id, settled())).toBe(0);
    expect(await enrolledEmails(client, paused.id)).toEqual([]);
    expect(await enrolledEmails(client, draft.id)).toEqual([]);
  });

  it('custom event: a posted event enrols the contact into the sequences it triggers', async () => {
    const { client } = await signUpUser(t());
    const trial = await sequenceWith(client, {
      triggerType: 'custom_event',
      triggerConfig: { eventName: 'trial_started' },
    });
    await sequenceWith(client, { name: 'Other event', triggerType: 'custom_event', triggerConfig: { eventName: 'x' } });
    const id = await contact(client, 'trial@x.io');

    const byEmail = await client.post('/api/email-sequences/events', { event: 'trial_started', email: 'TRIAL@x.io' });
    expect(byEmail.statusCode, byEmail.body).toBe(200);
    expect(byEmail.json()).toEqual({ enrolled: 1 });
    // Once (the default re-entry): the same event again enrols nobody.
    expect(
      (await client.post('/api/email-sequences/events', { event: 'trial_started', contactId: id })).json(),
    ).toEqual({
      enrolled: 0,
    });
    expect(await enrolledEmails(client, trial.id)).toEqual(['trial@x.io']);
    expect((await client.post('/api/email-sequences/events', { event: 'nothing', contactId: id })).json()).toEqual({
      enrolled: 0,
    });

    const unknown = await client.post('/api/email-sequences/events', { event: 'trial_started', email: 'who@x.io' });
    expect(unknown.statusCode).toBe(404);
    const neither = await client.post('/api/email-sequences/events', { event: 'trial_started' });
    expect(neither.statusCode).toBe(400);
    // Another account cannot post events for this account's contacts.
    const b = await signUpUser(t());
    expect(
      (await b.client.post('/api/email-sequences/events', { event: 'trial_started', contactId: id })).statusCode,
    ).toBe(404);
  });
});
