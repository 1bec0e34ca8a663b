import { describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { SEQUENCE_TEMPLATES } from '@sendwell/contract/sequence-templates';
import type { FlowData, Sequence, SequenceAnalytics } from '@sendwell/contract/sequences';
import { contacts, sequenceEnrolments, sequenceSends, suppressions } from '../../db/schema/index.ts';
import { signUpUser, useTestApp, type TestApp, type TestClient } from '../../../test/build-app.ts';
import { advanceAllDue, endStoppedEnrolments } from './sequence-engine.ts';

const templateFlow = (id: string) => SEQUENCE_TEMPLATES.find((t) => t.id === id)?.flowData as FlowData;

/** email-1 → wait 1 minute → email-2 */
const oneMinuteFlow: FlowData = {
  nodes: [
    { id: 'start', type: 'input', position: { x: 400, y: 50 }, data: { label: 'Sequence Start' } },
    {
      id: 'email-1',
      type: 'email',
      position: { x: 400, y: 200 },
      data: { label: 'Email 1', subject: 'One', content: '<p>1</p>' },
    },
    {
      id: 'delay-1',
      type: 'delay',
      position: { x: 400, y: 350 },
      data: { label: 'Wait 1', duration: '1', unit: 'minutes' },
    },
    {
      id: 'email-2',
      type: 'email',
      position: { x: 400, y: 500 },
      data: { label: 'Email 2', subject: 'Two', content: '<p>2</p>' },
    },
  ],
  edges: [
    { id: 'a', source: 'start', target: 'email-1' },
    { id: 'b', source: 'email-1', target: 'delay-1' },
    { id: 'c', source: 'delay-1', target: 'email-2' },
  ],
};

async function activeSequence(client: TestClient, flowData: FlowData, name = 'Engine'): Promise<Sequence> {
  const response = await client.post('/api/email-sequences', {
    name,
    flowData,
    status: 'active',
    fromEmail: 'news@acme.example',
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as Sequence;
}

async function contactsOf(client: TestClient, emails: string[]): Promise<number[]> {
  const ids: number[] = [];
  for (const email of emails) {
    const response = await client.post('/api/contacts', { email, firstName: 'F', lastName: 'L' });
    ids.push((response.json() as { id: number }).id);
  }
  return ids;
}

async function enrolmentOf(t: TestApp, sequenceId: number, contactId: number) {
  const [row] = await t.ctx.db
    .select()
    .from(sequenceEnrolments)
    .where(and(eq(sequenceEnrolments.sequenceId, sequenceId), eq(sequenceEnrolments.contactId, contactId)));
  if (!row) throw new Error('no enrolment');
  return row;
}

async function sendsOf(t: TestApp, sequenceId: number) {
  return t.ctx.db
    .select({
      nodeId: sequenceSends.nodeId,
      email: sequenceSends.email,
      step: sequenceSends.step,
      id: sequenceSends.id,
    })
    .from(sequenceSends)
    .where(eq(sequenceSends.sequenceId, sequenceId))
    .orderBy(asc(sequenceSends.id));
}

/** Advances one enrolment to completion, moving the clock to each stored next run time (no sleeping). */
async function runToEnd(t: TestApp, sequenceId: number, contactId: number, onStep?: (nodeId: string) => Promise<void>) {
  let now = new Date();
  for (let i = 0; i < 50; i += 1) {
    await advanceAllDue(t.ctx.db, { now: () => now });
    const enrolment = await enrolmentOf(t, sequenceId, contactId);
    if (enrolment.state !== 'active') return enrolment;
    await onStep?.(enrolment.currentNodeId);
    now = enrolment.nextRunAt as Date;
  }
  throw new Error('did not finish');
}

describe('the sequence advancer', () => {
  const t = useTestApp();

  it('runs each of the six templates end to end, one email per email step', async () => {
    const { client } = await signUpUser(t());
    for (const template of SEQUENCE_TEMPLATES) {
      const sequence = await activeSequence(client, template.flowData, template.name);
      const [contact] = await contactsOf(client, [`${template.id}@x.io`]);
      await client.post(`/api/email-sequences/${sequence.id}/enrolments`, { contactIds: [contact] });
      const finished = await runToEnd(t(), sequence.id, contact as number);
      expect(finished.state, template.id).toBe('completed');
      const sent = (await sendsOf(t(), sequence.id)).map((s) => s.nodeId);
      const emails = template.flowData.nodes.filter((n) => n.type === 'email').map((n) => n.id);
      // feedback-loop sends one of its two branch emails (nobody opened: the else one).
      expect(sent, template.id).toEqual(template.id === 'feedback-loop' ? ['email-1', 'email-3', 'email-4'] : emails);
    }
  });

  it('sends step 2 a minute after step 1, by the stored next run time', async () => {
    const { client } = await signUpUser(t());
    const sequence = await activeSequence(client, oneMinuteFlow);
    const [contact] = await contactsOf(client, ['minute@x.io']);
    await client.post(`/api/email-sequences/${sequence.id}/enrolments`, { contactIds: [contact] });
    const t0 = new Date();
    await advanceAllDue(t().ctx.db, { now: () => t0 });
    expect((await sendsOf(t(), sequence.id)).map((s) => s.nodeId)).toEqual(['email-1']);
    const waiting = await enrolmentOf(t(), sequence.id, contact as number);
    expect(waiting).toMatchObject({ currentNodeId: 'delay-1', state: 'active' });
    expect((waiting.nextRunAt as Date).getTime() - t0.getTime()).toBe(60_000);

    // 59 s later nothing is due; at the stored time step 2 goes and the enrolment completes.
    expect((await advanceAllDue(t().ctx.db, { now: () => new Date(t0.getTime() + 59_000) })).advanced).toBe(0);
    expect((await advanceAllDue(t().ctx.db, { now: () => waiting.nextRunAt as Date })).advanced).toBe(1);
    expect((await sendsOf(t(), sequence.id)).map((s) => [s.nodeId, s.step])).toEqual([
      ['email-1', 1],
      ['email-2', 3],
    ]);
    expect(await enrolmentOf(t(), sequence.id, contact as number)).toMatchObject({ state: 'completed' });
  });

  it('branches on opened versus not opened', async () => {
    const { client } = await signUpUser(t());
    const sequence = await activeSequence(client, templateFlow('feedback-loop'));
    const [opener, ignorer] = await contactsOf(client, ['opener@x.io', 'ignorer@x.io']);
    await client.post(`/api/email-sequences/${sequence.id}/enrolments`, { contactIds: [opener, ignorer] });
    await advanceAllDue(t().ctx.db);
    // The opener's email-1 is opened (what the open pixel records on its send row).
    await t()
      .ctx.db.update(sequenceSends)
      .set({ openedAt: new Date() })
      .where(and(eq(sequenceSends.sequenceId, sequence.id), eq(sequenceSends.email, 'opener@x.io')));
    const due = (await enrolmentOf(t(), sequence.id, opener as number)).nextRunAt as Date;
    await advanceAllDue(t().ctx.db, { now: () => due });
    const sent = (await sendsOf(t(), sequence.id)).map((s) => `${s.email} ${s.nodeId}`).sort();
    expect(sent).toEqual([
      'ignorer@x.io email-1',
      'ignorer@x.io email-3',
      'opener@x.io email-1',
      'opener@x.io email-2',
    ]);
  });

  it('unsubscribe, hard bounce and complaint end every enrolment of the contact', async () => {
    const { client, user } = await signUpUser(t());
    const first = await activeSequence(client, oneMinuteFlow, 'First');
    const second = await activeSequence(client, templateFlow('welcome-series'), 'Second');
    const [leaver, bouncer, complainer, stayer] = await contactsOf(client, [
      'leaver@x.io',
      'bouncer@x.io',
      'complainer@x.io',
      'stayer@x.io',
    ]);
    for (const sequence of [first, second]) {
      await client.post(`/api/email-sequences/${sequence.id}/enrolments`, {
        contactIds: [leaver, bouncer, complainer, stayer],
      });
    }
    await advanceAllDue(t().ctx.db);
    await t()
      .ctx.db.insert(suppressions)
      .values([
        { userId: user.id, email: 'leaver@x.io', reason: 'unsubscribe' },
        { userId: user.id, email: 'bouncer@x.io', reason: 'bounce' },
        { userId: user.id, email: 'complainer@x.io', reason: 'complaint' },
      ]);
    expect(await endStoppedEnrolments(t().ctx.db)).toBe(6);
    for (const sequence of [first, second]) {
      expect(await enrolmentOf(t(), sequence.id, leaver as number)).toMatchObject({
        state: 'exited',
        exitReason: 'unsubscribed',
      });
      expect(await enrolmentOf(t(), sequence.id, bouncer as number)).toMatchObject({
        state: 'exited',
        exitReason: 'bounced',
      });
      expect(await enrolmentOf(t(), sequence.id, complainer as number)).toMatchObject({
        state: 'exited',
        exitReason: 'complained',
      });
      expect(await enrolmentOf(t(), sequence.id, stayer as number)).toMatchObject({ state: 'active' });
    }
    // And a contact unsubscribed between sweeps is stopped at its next step, before any email.
    await client.patch(`/api/contacts/${stayer}`, { isActive: false });
    const due = (await enrolmentOf(t(), first.id, stayer as number)).nextRunAt as Date;
    await advanceAllDue(t().ctx.db, { now: () => due });
    expect(await enrolmentOf(t(), first.id, stayer as number)).toMatchObject({
      state: 'exited',
      exitReason: 'unsubscribed',
    });
    expect((await sendsOf(t(), first.id)).filter((s) => s.nodeId === 'email-2')).toEqual([]);
  });

  it('pause holds enrolments where they are; resume carries on from there', async () => {
    const { client } = await signUpUser(t());
    const sequence = await activeSequence(client, oneMinuteFlow);
    const [contact] = await contactsOf(client, ['paused@x.io']);
    await client.post(`/api/email-sequences/${sequence.id}/enrolments`, { contactIds: [contact] });
    await advanceAllDue(t().ctx.db);
    const due = (await enrolmentOf(t(), sequence.id, contact as number)).nextRunAt as Date;
    expect((await client.patch(`/api/email-sequences/${sequence.id}`, { status: 'paused' })).statusCode).toBe(200);
    const later = new Date(due.getTime() + 3_600_000);
    expect((await advanceAllDue(t().ctx.db, { now: () => later })).advanced).toBe(0);
    expect(await enrolmentOf(t(), sequence.id, contact as number)).toMatchObject({ currentNodeId: 'delay-1' });
    expect((await client.patch(`/api/email-sequences/${sequence.id}`, { status: 'active' })).statusCode).toBe(200);
    expect((await advanceAllDue(t().ctx.db, { now: () => later })).advanced).toBe(1);
    expect((await sendsOf(t(), sequence.id)).map((s) => s.nodeId)).toEqual(['email-1', 'email-2']);
  });

  it('two workers never advance the same enrolment twice', async () => {
    const { client, user } = await signUpUser(t());
    const sequence = await activeSequence(client, oneMinuteFlow);
    const db = t().ctx.db;
    const rows = await db
      .insert(contacts)
      .values(Array.from({ length: 600 }, (_, i) => ({ userId: user.id, email: `w${i}@x.io` })))
      .returning({ id: contacts.id });
    await client.post(`/api/email-sequences/${sequence.id}/enrolments`, { contactIds: rows.map((r) => r.id) });
    const now = () => new Date(Date.now() + 1000);
    const [a, b] = await Promise.all([
      advanceAllDue(db, { now, batchSize: 50 }),
      advanceAllDue(db, { now, batchSize: 50 }),
    ]);
    // Every enrolment ran its first steps exactly once between the two workers.
    expect(a.advanced + b.advanced).toBe(600);
    expect(a.sendIds.length + b.sendIds.length).toBe(600);
    expect(new Set([...a.sendIds, ...b.sendIds]).size).toBe(600);
    const sends = await sendsOf(t(), sequence.id);
    expect(sends).toHaveLength(600);
  });

  it('an edit publishes a version: enrolments on surviving nodes move on in it, the others finish on the old', async () => {
    const { client } = await signUpUser(t());
    const sequence = await activeSequence(client, oneMinuteFlow);
    const [contact] = await contactsOf(client, ['edited@x.io']);
    await client.post(`/api/email-sequences/${sequence.id}/enrolments`, { contactIds: [contact] });
    await advanceAllDue(t().ctx.db);
    // The waiting enrolment's delay-1 survives; what follows it changes to a new email.
    const edited: FlowData = {
      nodes: [
        ...oneMinuteFlow.nodes.filter((n) => n.id !== 'email-2'),
        { id: 'email-9', type: 'email', position: { x: 0, y: 0 }, data: { subject: 'New', content: '<p>new</p>' } },
      ],
      edges: [
        ...oneMinuteFlow.edges.filter((e) => e.target !== 'email-2'),
        { id: 'd', source: 'delay-1', target: 'email-9' },
      ],
    };
    const impact = (await client.post(`/api/email-sequences/${sequence.id}/edit-impact`, { flowData: edited })).json();
    expect(impact).toEqual({ active: 1, moving: 1, finishingOnOld: 0, publishesVersion: true });
    await client.patch(`/api/email-sequences/${sequence.id}`, { flowData: edited });
    const due = (await enrolmentOf(t(), sequence.id, contact as number)).nextRunAt as Date;
    await advanceAllDue(t().ctx.db, { now: () => due });
    expect((await sendsOf(t(), sequence.id)).map((s) => s.nodeId)).toEqual(['email-1', 'email-9']);
    expect(await enrolmentOf(t(), sequence.id, contact as number)).toMatchObject({ version: 2, state: 'completed' });
  });

  it('deleting a contact ends its enrolments and keeps its sent history', async () => {
    const { client } = await signUpUser(t());
    const sequence = await activeSequence(client, oneMinuteFlow);
    const [contact] = await contactsOf(client, ['gone@x.io']);
    await client.post(`/api/email-sequences/${sequence.id}/enrolments`, { contactIds: [contact] });
    await advanceAllDue(t().ctx.db);
    expect((await client.delete(`/api/contacts/${contact}`)).statusCode).toBe(204);
    expect(await sendsOf(t(), sequence.id)).toMatchObject([{ nodeId: 'email-1', email: 'gone@x.io' }]);
    expect((await client.get('/api/email-sequences')).json()).toMatchObject([{ totalSubscribers: 0 }]);
  });

  it('counts the per-step funnel and totals from the data', async () => {
    const { client } = await signUpUser(t());
    const sequence = await activeSequence(client, templateFlow('feedback-loop'));
    const [opener, ignorer] = await contactsOf(client, ['f-opener@x.io', 'f-ignorer@x.io']);
    await client.post(`/api/email-sequences/${sequence.id}/enrolments`, { contactIds: [opener, ignorer] });
    await advanceAllDue(t().ctx.db);
    await t()
      .ctx.db.update(sequenceSends)
      .set({ openedAt: new Date() })
      .where(and(eq(sequenceSends.sequenceId, sequence.id), eq(sequenceSends.email, 'f-opener@x.io')));
    const due = (await enrolmentOf(t(), sequence.id, opener as number)).nextRunAt as Date;
    await advanceAllDue(t().ctx.db, { now: () => due });

    const response = await client.get(`/api/email-sequences/${sequence.id}/analytics`);
    expect(response.statusCode, response.body).toBe(200);
    const { totals, steps } = response.json() as SequenceAnalytics;
    // Nothing is delivered by the engine yet: the email steps are queued, none sent.
    expect(totals).toEqual({
      enrolled: 2,
      active: 2,
      completed: 0,
      exited: 0,
      queued: 4,
      sent: 0,
      opened: 1,
      clicked: 0,
      openRate: 0,
      clickRate: 0,
    });
    const byNode = Object.fromEntries(steps.map((s) => [s.nodeId, s]));
    expect(byNode['start']).toMatchObject({ entered: 2, waiting: 0 });
    expect(byNode['email-1']).toMatchObject({ entered: 2, queued: 2, opened: 1 });
    expect(byNode['condition-1']).toMatchObject({ entered: 2, branchedElse: 1, waiting: 0 });
    expect(byNode['email-2']).toMatchObject({ entered: 1, queued: 1 });
    expect(byNode['email-3']).toMatchObject({ entered: 1, queued: 1 });
    expect(byNode['delay-1']).toMatchObject({ entered: 2, waiting: 2 });
    expect(steps.map((s) => s.label)).toContain('Condition 1');
    expect((await client.get('/api/email-sequences/analytics')).json()).toMatchObject({ enrolled: 2, queued: 4 });

    const other = await signUpUser(t());
    expect((await other.client.get(`/api/email-sequences/${sequence.id}/analytics`)).statusCode).toBe(404);
    expect((await other.client.get('/api/email-sequences/analytics')).json()).toMatchObject({ enrolled: 0, queued: 0 });
  });
});
