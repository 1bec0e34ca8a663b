import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { SEQUENCE_TEMPLATES } from '@sendwell/contract/sequence-templates';
import type { EditImpact, Enrolment, FlowData, Sequence } from '@sendwell/contract/sequences';
import { sequenceEnrolments, suppressions } from '../../db/schema/index.ts';
import { signUpUser, useTestApp, type TestClient } from '../../../test/build-app.ts';

const welcome = SEQUENCE_TEMPLATES.find((t) => t.id === 'welcome-series')?.flowData as FlowData;

async function createSequence(client: TestClient, body: Record<string, unknown> = {}): Promise<Sequence> {
  const response = await client.post('/api/email-sequences', { name: 'Welcome', flowData: welcome, ...body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as Sequence;
}

async function createContacts(client: TestClient, emails: string[]): Promise<number[]> {
  const ids: number[] = [];
  for (const email of emails) {
    const response = await client.post('/api/contacts', { email, firstName: 'F', lastName: 'L' });
    expect(response.statusCode, response.body).toBe(201);
    ids.push((response.json() as { id: number }).id);
  }
  return ids;
}

describe('email sequences API (spec part 2 §7)', () => {
  const t = useTestApp();

  it('creates with the spec defaults, lists, updates and deletes', async () => {
    const { client } = await signUpUser(t());
    const created = await createSequence(client, {
      name: '  Onboarding  ',
      description: '  Hello  ',
      flowData: undefined,
    });
    expect(created).toMatchObject({
      name: 'Onboarding',
      description: 'Hello',
      status: 'draft',
      triggerType: 'signup',
      totalSubscribers: 0,
      activeSubscribers: 0,
      version: 1,
      reentry: 'once',
    });
    expect(created.flowData.nodes).toEqual([
      { id: 'start', type: 'input', position: { x: 400, y: 50 }, data: { label: 'Sequence Start' } },
    ]);

    const listed = (await client.get('/api/email-sequences')).json() as Sequence[];
    expect(listed.map((s) => s.id)).toEqual([created.id]);

    const updated = await client.patch(`/api/email-sequences/${created.id}`, { name: 'Renamed', flowData: welcome });
    expect(updated.statusCode, updated.body).toBe(200);
    // Nothing in flight: the flow is replaced in place, the status kept.
    expect(updated.json()).toMatchObject({ name: 'Renamed', status: 'draft', version: 1, description: 'Hello' });
    expect((updated.json() as Sequence).flowData.nodes).toHaveLength(welcome.nodes.length);

    expect((await client.delete(`/api/email-sequences/${created.id}`)).statusCode).toBe(204);
    expect((await client.get('/api/email-sequences')).json()).toEqual([]);
    expect((await client.delete(`/api/email-sequences/${created.id}`)).statusCode).toBe(404);
  });

  it('stores every template and reads it back unchanged', async () => {
    const { client } = await signUpUser(t());
    for (const template of SEQUENCE_TEMPLATES) {
      const created = await createSequence(client, {
        name: template.name,
        description: template.description,
        flowData: template.flowData,
      });
      expect(created.flowData, template.id).toEqual(template.flowData);
    }
  });

  it('answers 400 naming the node for a flow that cannot run, and stores nothing', async () => {
    const { client } = await signUpUser(t());
    const broken = structuredClone(welcome);
    const wait = broken.nodes.find((n) => n.id === 'delay-1');
    if (wait) wait.data.duration = '0';
    const response = await client.post('/api/email-sequences', { name: 'Broken', flowData: broken });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ message: 'Wait 1 (delay-1): the wait must be a positive number' });
    expect((response.json() as { fields: Record<string, string> }).fields).toHaveProperty('flowData.nodes.2');

    const orphan = structuredClone(welcome);
    orphan.edges.push({ id: 'e-x', source: 'email-3', target: 'email-9' });
    const edgeRefused = await client.post('/api/email-sequences', { name: 'Orphan', flowData: orphan });
    expect(edgeRefused.statusCode).toBe(400);
    expect(edgeRefused.json()).toMatchObject({ message: 'Edge e-x ends at a node that does not exist (email-9)' });

    const blank = await client.post('/api/email-sequences', { name: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toMatchObject({ message: 'Please enter a sequence name' });

    const created = await createSequence(client);
    const patched = await client.patch(`/api/email-sequences/${created.id}`, { name: 'X', flowData: broken });
    expect(patched.statusCode).toBe(400);
    expect((await client.get('/api/email-sequences')).json()).toMatchObject([{ name: 'Welcome', version: 1 }]);
  });

  // Issue 27 (6): "email → wait 1 minute → back to the email" was accepted and would mail one contact ~1,440 times a day.
  it('a sub-day cycle is refused: 400 naming the node, on create and on edit, nothing stored', async () => {
    const { client } = await signUpUser(t());
    const cycle: FlowData = {
      nodes: [
        { id: 'start', type: 'input', position: { x: 400, y: 50 }, data: { label: 'Sequence Start' } },
        {
          id: 'email-1',
          type: 'email',
          position: { x: 400, y: 200 },
          data: { label: 'Hello again', subject: 'Hi', content: '<p>Hi</p>', delay: '0' },
        },
        {
          id: 'delay-1',
          type: 'delay',
          position: { x: 400, y: 350 },
          data: { label: 'Wait 1', duration: '1', unit: 'minutes' },
        },
      ],
      edges: [
        { id: 'e1', source: 'start', target: 'email-1' },
        { id: 'e2', source: 'email-1', target: 'delay-1' },
        { id: 'e3', source: 'delay-1', target: 'email-1' },
      ],
    };
    const message =
      'Hello again (email-1) is on a loop that waits only 1 minute in all; a loop must wait at least 1 day';
    const refused = await client.post('/api/email-sequences', { name: 'Cannon', flowData: cycle, status: 'active' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ message });
    expect((refused.json() as { fields: Record<string, string> }).fields).toHaveProperty('flowData.nodes.1', message);
    expect((await client.get('/api/email-sequences')).json()).toEqual([]);

    const created = await createSequence(client);
    const patched = await client.patch(`/api/email-sequences/${created.id}`, { flowData: cycle });
    expect(patched.statusCode).toBe(400);
    expect(patched.json()).toMatchObject({ message });
    // A loop that waits a whole day is fine.
    const daily = structuredClone(cycle);
    const wait = daily.nodes.find((n) => n.id === 'delay-1');
    if (wait) wait.data = { label: 'Wait 1', duration: '1', unit: 'days' };
    expect((await client.patch(`/api/email-sequences/${created.id}`, { flowData: daily })).statusCode).toBe(200);
  });

  it('refuses bad input with 400s naming the field, never a 500', async () => {
    const { client } = await signUpUser(t());
    const { id } = await createSequence(client);
    const cases: [string, string, unknown, string][] = [
      ['POST', '/api/email-sequences', { name: 'S', status: 'running' }, 'status'],
      ['POST', '/api/email-sequences', { name: 'S', triggerType: 'moon' }, 'triggerType'],
      ['POST', '/api/email-sequences', { name: 'S', triggerType: 'tag_added' }, 'triggerConfig.tag'],
      ['POST', '/api/email-sequences', { name: 'S', triggerType: 'segment_joined' }, 'triggerConfig.segmentId'],
      ['POST', '/api/email-sequences', { name: 'S', reentry: 'cooldown' }, 'reentryCooldownHours'],
      ['POST', '/api/email-sequences', { name: 'S', flowData: { nodes: 'x', edges: [] } }, 'flowData.nodes'],
      [
        'POST',
        '/api/email-sequences',
        { name: 'S', flowData: { nodes: [{ id: 'a', type: 'rocket', position: { x: 0, y: 0 } }], edges: [] } },
        'flowData.nodes.0.type',
      ],
      ['POST', '/api/email-sequences', { name: 'S', fromEmail: 'not-an-address' }, 'fromEmail'],
      ['PATCH', `/api/email-sequences/${id}`, { reentryCooldownHours: 0 }, 'reentryCooldownHours'],
      ['POST', `/api/email-sequences/${id}/enrolments`, { contactIds: [] }, 'contactIds'],
      ['POST', `/api/email-sequences/${id}/enrolments`, { contactIds: [2 ** 31] }, 'contactIds.0'],
    ];
    for (const [method, url, payload, field] of cases) {
      const response = await client.request({ method: method as 'POST', url, payload: payload as object });
      expect(response.statusCode, `${method} ${url} ${JSON.stringify(payload)}: ${response.body}`).toBe(400);
      expect((response.json() as { fields?: Record<string, string> }).fields, response.body).toHaveProperty([field]);
    }
    const nothing = await client.post(`/api/email-sequences/${id}/enrolments`, {});
    expect(nothing.statusCode).toBe(400);
    expect((await client.get(`/api/email-sequences/${2 ** 31}/enrolments`)).statusCode).toBe(400);
    expect((await client.get(`/api/email-sequences/${id}/enrolments?state=lost`)).statusCode).toBe(400);
    const tagged = await createSequence(client, { triggerType: 'tag_added', triggerConfig: { tag: 'vip' } });
    expect(tagged.triggerConfig).toEqual({ tag: 'vip' });
    const untagged = await client.patch(`/api/email-sequences/${tagged.id}`, { triggerConfig: {} });
    expect(untagged.statusCode).toBe(400);
    expect(untagged.json()).toMatchObject({ message: 'Enter the tag that enrols contacts' });
    const cooldown = await client.patch(`/api/email-sequences/${id}`, { reentry: 'cooldown' });
    expect(cooldown.statusCode).toBe(400);
    expect(cooldown.json()).toMatchObject({ message: 'Enter the cooldown in hours' });
  });

  it('activates only from a proven sender on a confirmed account; pauses', async () => {
    const unconfirmed = await signUpUser(t(), { confirmEmail: false });
    const draft = await createSequence(unconfirmed.client);
    expect((await unconfirmed.client.patch(`/api/email-sequences/${draft.id}`, { status: 'active' })).statusCode).toBe(
      403,
    );

    const { client } = await signUpUser(t());
    const stranger = await client.post('/api/email-sequences', { name: 'S', fromEmail: 'ceo@bank.example' });
    expect(stranger.statusCode).toBe(403);
    const sequence = await createSequence(client, { fromEmail: 'news@acme.example' });
    const active = await client.patch(`/api/email-sequences/${sequence.id}`, { status: 'active' });
    expect(active.statusCode, active.body).toBe(200);
    expect(active.json()).toMatchObject({ status: 'active' });
    const paused = await client.patch(`/api/email-sequences/${sequence.id}`, { status: 'paused' });
    expect(paused.json()).toMatchObject({ status: 'paused' });
  });

  it('enrols contacts, a list or a segment, skipping the unsubscribed, suppressed and those already in', async () => {
    const { client, user } = await signUpUser(t());
    const sequence = await createSequence(client);
    const [a, b, c, d] = await createContacts(client, ['a@x.io', 'b@x.io', 'c@x.io', 'd@x.io']);
    await client.patch(`/api/contacts/${c}`, { isActive: false });
    await t().ctx.db.insert(suppressions).values({ userId: user.id, email: 'd@x.io', reason: 'unsubscribe' });

    const first = await client.post(`/api/email-sequences/${sequence.id}/enrolments`, { contactIds: [a, b, c, d] });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ enrolled: 2 });
    // Once (the default): nobody enters twice.
    expect((await client.post(`/api/email-sequences/${sequence.id}/enrolments`, { contactIds: [a] })).json()).toEqual({
      enrolled: 0,
    });

    const list = (await client.post('/api/contact-lists', { name: 'Customers' })).json() as { id: number };
    const [e] = await createContacts(client, ['e@x.io']);
    await client.post('/api/contacts/bulk-add-to-list', { listId: list.id, contactIds: [a, e] });
    const byList = await client.post(`/api/email-sequences/${sequence.id}/enrolments`, { listId: list.id });
    expect(byList.json(), byList.body).toEqual({ enrolled: 1 });

    const segment = (
      await client.post('/api/contact-segments', {
        name: 'All F',
        conditions: { operator: 'AND', rules: [{ field: 'firstName', operator: 'equals', value: 'F' }] },
      })
    ).json() as { id: number };
    const bySegment = await client.post(`/api/email-sequences/${sequence.id}/enrolments`, { segmentId: segment.id });
    expect(bySegment.json()).toEqual({ enrolled: 0 });

    const page = await client.get(`/api/email-sequences/${sequence.id}/enrolments`);
    expect(page.statusCode).toBe(200);
    expect(page.headers['x-total-count']).toBe('3');
    const enrolments = page.json() as Enrolment[];
    expect(enrolments.map((x) => x.email).sort()).toEqual(['a@x.io', 'b@x.io', 'e@x.io']);
    expect(enrolments[0]).toMatchObject({
      state: 'active',
      currentNodeId: 'start',
      currentStep: 'Sequence Start',
      version: 1,
    });
    expect((await client.get('/api/email-sequences')).json()).toMatchObject([
      { totalSubscribers: 3, activeSubscribers: 3 },
    ]);
  });

  it('re-entry: every time lets a finished contact in again, a cooldown only after it', async () => {
    const { client } = await signUpUser(t());
    const [a] = await createContacts(client, ['again@x.io']);
    const everyTime = await createSequence(client, { reentry: 'every_time' });
    const cooldown = await createSequence(client, { reentry: 'cooldown', reentryCooldownHours: 24 });
    const db = t().ctx.db;
    for (const sequence of [everyTime, cooldown]) {
      const url = `/api/email-sequences/${sequence.id}/enrolments`;
      expect((await client.post(url, { contactIds: [a] })).json()).toEqual({ enrolled: 1 });
      // In flight: never twice at once.
      expect((await client.post(url, { contactIds: [a] })).json()).toEqual({ enrolled: 0 });
      await db
        .update(sequenceEnrolments)
        .set({ state: 'completed', finishedAt: new Date() })
        .where(eq(sequenceEnrolments.sequenceId, sequence.id));
    }
    expect((await client.post(`/api/email-sequences/${everyTime.id}/enrolments`, { contactIds: [a] })).json()).toEqual({
      enrolled: 1,
    });
    const cooldownUrl = `/api/email-sequences/${cooldown.id}/enrolments`;
    expect((await client.post(cooldownUrl, { contactIds: [a] })).json()).toEqual({ enrolled: 0 });
    await db
      .update(sequenceEnrolments)
      .set({ enteredAt: sql`now() - interval '25 hours'` })
      .where(eq(sequenceEnrolments.sequenceId, cooldown.id));
    expect((await client.post(cooldownUrl, { contactIds: [a] })).json()).toEqual({ enrolled: 1 });
  });

  it('editing a sequence with enrolments in flight publishes a new version; survivors move on, the others finish on the old', async () => {
    const { client } = await signUpUser(t());
    const sequence = await createSequence(client);
    const ids = await createContacts(client, ['v1@x.io', 'v2@x.io', 'v3@x.io']);
    await client.post(`/api/email-sequences/${sequence.id}/enrolments`, { contactIds: ids });
    const db = t().ctx.db;
    // Two wait at delay-1, one at delay-2 (as if the engine had moved them there).
    await db
      .update(sequenceEnrolments)
      .set({ currentNodeId: 'delay-1' })
      .where(eq(sequenceEnrolments.sequenceId, sequence.id));
    await db
      .update(sequenceEnrolments)
      .set({ currentNodeId: 'delay-2' })
      .where(eq(sequenceEnrolments.contactId, ids[2] as number));

    // The edit drops delay-2 and email-3: delay-1 survives.
    const edited: FlowData = {
      nodes: welcome.nodes.filter((n) => n.id !== 'delay-2' && n.id !== 'email-3'),
      edges: welcome.edges.filter((e) => e.target !== 'delay-2' && e.target !== 'email-3'),
    };
    const impact = await client.post(`/api/email-sequences/${sequence.id}/edit-impact`, { flowData: edited });
    expect(impact.statusCode, impact.body).toBe(200);
    expect(impact.json()).toEqual({
      active: 3,
      moving: 2,
      finishingOnOld: 1,
      publishesVersion: true,
    } satisfies EditImpact);

    const saved = await client.patch(`/api/email-sequences/${sequence.id}`, { flowData: edited });
    expect(saved.json()).toMatchObject({ version: 2 });
    const enrolments = (await client.get(`/api/email-sequences/${sequence.id}/enrolments`)).json() as Enrolment[];
    expect(enrolments.map((e) => [e.email, e.version, e.currentStep]).sort()).toEqual([
      ['v1@x.io', 2, 'Wait 1'],
      ['v2@x.io', 2, 'Wait 1'],
      ['v3@x.io', 1, 'Wait 2'],
    ]);
    // The same flow again changes nothing.
    expect((await client.patch(`/api/email-sequences/${sequence.id}`, { flowData: edited })).json()).toMatchObject({
      version: 2,
    });
    const none = await client.post(`/api/email-sequences/${sequence.id}/edit-impact`, { flowData: edited });
    expect(none.json()).toMatchObject({ publishesVersion: false });
  });

  it("keeps each account to its own sequences: user B gets 404 on user A's ids", async () => {
    const a = await signUpUser(t());
    const b = await signUpUser(t());
    const sequence = await createSequence(a.client);
    const [contactOfA] = await createContacts(a.client, ['mine@x.io']);
    const listOfA = (await a.client.post('/api/contact-lists', { name: 'A list' })).json() as { id: number };
    const [contactOfB] = await createContacts(b.client, ['theirs@x.io']);
    const own = await createSequence(b.client);

    expect((await b.client.get('/api/email-sequences')).json()).toMatchObject([{ id: own.id }]);
    expect((await b.client.patch(`/api/email-sequences/${sequence.id}`, { name: 'Stolen' })).statusCode).toBe(404);
    expect((await b.client.delete(`/api/email-sequences/${sequence.id}`)).statusCode).toBe(404);
    expect(
      (await b.client.post(`/api/email-sequences/${sequence.id}/edit-impact`, { flowData: welcome })).statusCode,
    ).toBe(404);
    expect(
      (await b.client.post(`/api/email-sequences/${sequence.id}/enrolments`, { contactIds: [contactOfB] })).statusCode,
    ).toBe(404);
    expect((await b.client.get(`/api/email-sequences/${sequence.id}/enrolments`)).statusCode).toBe(404);
    // A's contacts, lists and segments cannot be enrolled into B's sequence, or chosen as B's trigger.
    expect(
      (await b.client.post(`/api/email-sequences/${own.id}/enrolments`, { contactIds: [contactOfA] })).statusCode,
    ).toBe(404);
    expect((await b.client.post(`/api/email-sequences/${own.id}/enrolments`, { listId: listOfA.id })).statusCode).toBe(
      404,
    );
    expect(
      (await b.client.post('/api/email-sequences', { name: 'S', triggerConfig: { listId: listOfA.id } })).statusCode,
    ).toBe(404);
    expect((await a.client.get('/api/email-sequences')).json()).toMatchObject([{ id: sequence.id, name: 'Welcome' }]);
  });

  it('answers 401 signed out', async () => {
    const anon = t().client();
    expect((await anon.get('/api/email-sequences')).statusCode).toBe(401);
    expect((await anon.post('/api/email-sequences', { name: 'S' })).statusCode).toBe(401);
  });
});
