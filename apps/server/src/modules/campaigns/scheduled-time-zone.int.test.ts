import { afterEach, describe, expect, it, vi } from 'vitest';
import { signUpUser, useTestApp, type TestClient } from '../../../test/build-app.ts';
import { startScheduledCampaign } from './campaign-send.service.ts';
import { startScheduledJob } from './campaigns.jobs.ts';

const blocks = [{ id: 'b1', type: 'text', content: { text: 'Hi {{firstName}}', tag: 'p' } }];

async function draftTo(client: TestClient, name: string, count: number) {
  await client.patch('/api/auth/user', { postalAddress: '1 Main St' });
  const list = (await client.post('/api/contact-lists', { name })).json() as { id: number };
  const rows = Array.from({ length: count }, (_, i) => `${name.toLowerCase()}${i}@x.io`).join('\n');
  await client.post('/api/contacts/import-csv', { csvData: `email\n${rows}\n`, listId: list.id });
  return {
    listId: list.id,
    body: { name, subject: 'Hi', fromEmail: 'news@acme.example', content: { html: '' }, blocks, listIds: [list.id] },
  };
}

/**
 * Scheduling in a time zone: the account's default (from the browser at sign-up, changeable in
 * Settings), or the campaign's own; a wall-clock time is read in it and the start job fires at the
 * instant it names, on either side of a daylight-saving change.
 */
describe('scheduling in a time zone', () => {
  const t = useTestApp();
  afterEach(() => vi.useRealTimers());

  it('takes the browser’s time zone at sign-up (UTC when unknown) and lets the account change it', async () => {
    const signUp = (email: string, timeZone?: string) =>
      t()
        .client()
        .post('/api/auth/signup', {
          email,
          password: 'lunar-lander-12',
          confirmPassword: 'lunar-lander-12',
          firstName: 'Tz',
          lastName: 'User',
          ...(timeZone === undefined ? {} : { timeZone }),
        });
    expect((await signUp(`tokyo-${Date.now()}@example.com`, 'Asia/Tokyo')).json().timeZone).toBe('Asia/Tokyo');
    expect((await signUp(`nowhere-${Date.now()}@example.com`, 'Mars/Olympus')).json().timeZone).toBe('UTC');
    expect((await signUp(`plain-${Date.now()}@example.com`)).json().timeZone).toBe('UTC');

    const { client } = await signUpUser(t());
    const changed = await client.patch('/api/auth/user', { timeZone: 'America/New_York' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await client.get('/api/auth/user')).json().timeZone).toBe('America/New_York');
    const refused = await client.patch('/api/auth/user', { timeZone: 'Nowhere/Land' });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('Choose a time zone from the list');
    expect((await client.get('/api/auth/user')).json().timeZone).toBe('America/New_York');
  });

  it('reads 09:00 in the campaign’s zone, or the account’s, across a DST change, and its job waits for that instant', async () => {
    const { client } = await signUpUser(t());
    await client.patch('/api/auth/user', { timeZone: 'Europe/Berlin' });
    const { body } = await draftTo(client, 'Zoned', 2);
    // US clocks go forward on 14 March 2027: 09:00 in New York is 14:00 UTC the day before, 13:00 UTC the day after.
    const before = await client.post('/api/campaigns', {
      ...body,
      status: 'scheduled',
      scheduledAt: '2027-03-13T09:00',
      timeZone: 'America/New_York',
    });
    expect(before.statusCode, before.body).toBe(201);
    expect(before.json()).toMatchObject({ scheduledAt: '2027-03-13T14:00:00.000Z', timeZone: 'America/New_York' });
    const after = await client.post('/api/campaigns', {
      ...body,
      status: 'scheduled',
      scheduledAt: '2027-03-15T09:00',
      timeZone: 'America/New_York',
    });
    expect(after.json().scheduledAt).toBe('2027-03-15T13:00:00.000Z');
    // No zone of its own: the account's (Berlin is on winter time, UTC+1, until 28 March 2027).
    const accountZone = await client.post('/api/campaigns', {
      ...body,
      status: 'scheduled',
      scheduledAt: '2027-03-15T09:00',
    });
    expect(accountZone.json()).toMatchObject({ scheduledAt: '2027-03-15T08:00:00.000Z', timeZone: null });
    // An instant with an offset is taken as it is.
    const instant = await client.post('/api/campaigns', {
      ...body,
      status: 'scheduled',
      scheduledAt: '2027-03-15T09:00:00-04:00',
      timeZone: 'Asia/Tokyo',
    });
    expect(instant.json().scheduledAt).toBe('2027-03-15T13:00:00.000Z');

    // The start job is held until the instant.
    const jobs = await t().ctx.database.raw.executeSql(
      `SELECT start_after FROM pgboss.job WHERE name = $1 AND data->>'campaignId' = $2`,
      [startScheduledJob.name, String(before.json().id)],
    );
    expect(new Date((jobs.rows[0] as { start_after: string }).start_after).toISOString()).toBe(
      '2027-03-13T14:00:00.000Z',
    );

    // A fake clock: a second before 14:00 UTC the job does not start it (it waits again); at 14:00 it
    // does. (Read from the table: months ahead on the fake clock, the test's session has expired.)
    const id = before.json().id as number;
    const statusOf = async () =>
      (await t().ctx.database.raw.executeSql('SELECT status, total_recipients FROM campaigns WHERE id = $1', [id]))
        .rows[0] as { status: string; total_recipients: number };
    // The account's trial would have ended by then on the fake clock: it lasts past it here.
    await t().ctx.database.raw.executeSql(
      `UPDATE users SET trial_ends_at = '2030-01-01T00:00:00Z' WHERE id = (SELECT user_id FROM campaigns WHERE id = $1)`,
      [id],
    );
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2027-03-13T13:59:58.000Z'));
    await startScheduledCampaign(t().ctx, id);
    expect(await statusOf()).toMatchObject({ status: 'scheduled' });
    vi.setSystemTime(new Date('2027-03-13T14:00:00.000Z'));
    await startScheduledCampaign(t().ctx, id);
    expect(await statusOf()).toMatchObject({ status: 'sending', total_recipients: 2 });
  });

  it('refuses an unknown zone, a day that does not exist and a time already past (400), saving nothing', async () => {
    const { client } = await signUpUser(t());
    const { body } = await draftTo(client, 'Refused', 1);
    const before = (await client.get('/api/campaigns')).json().length;
    const unknown = await client.post('/api/campaigns', {
      ...body,
      status: 'scheduled',
      scheduledAt: '2027-03-13T09:00',
      timeZone: 'Mars/Olympus',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('Choose a time zone from the list');
    const noSuchDay = await client.post('/api/campaigns', {
      ...body,
      status: 'scheduled',
      scheduledAt: '2027-02-30T09:00',
    });
    expect(noSuchDay.statusCode).toBe(400);
    const past = await client.post('/api/campaigns', {
      ...body,
      status: 'scheduled',
      scheduledAt: '2020-01-01T09:00',
      timeZone: 'UTC',
    });
    expect(past.statusCode).toBe(400);
    expect(past.json().message).toBe('Choose a time in the future to schedule this campaign');
    expect((await client.get('/api/campaigns')).json()).toHaveLength(before);
  });

  it('shows how many a scheduled campaign will reach now, counted on read, to its owner only', async () => {
    const { client, user } = await signUpUser(t());
    const { body } = await draftTo(client, 'Audience', 3);
    const scheduled = (
      await client.post('/api/campaigns', {
        ...body,
        status: 'scheduled',
        scheduledAt: new Date(Date.now() + 86_400_000).toISOString(),
      })
    ).json();
    expect(scheduled.audienceNow).toBe(3);
    const draft = (await client.post('/api/campaigns', body)).json();
    expect(draft.audienceNow).toBeNull();
    // An unsubscribed contact leaves the audience at once.
    await t().ctx.database.raw.executeSql(
      `INSERT INTO suppressions (user_id, email, reason) VALUES ($1, 'audience0@x.io', 'unsubscribe')`,
      [user.id],
    );
    const listed = (await client.get('/api/campaigns')).json() as { id: number; audienceNow: number | null }[];
    expect(listed.find((c) => c.id === scheduled.id)?.audienceNow).toBe(2);
    expect(listed.find((c) => c.id === draft.id)?.audienceNow).toBeNull();
    expect((await client.get(`/api/campaigns/${scheduled.id}`)).json().audienceNow).toBe(2);
    const other = await signUpUser(t());
    expect((await other.client.get(`/api/campaigns/${scheduled.id}`)).statusCode).toBe(404);
    expect((await other.client.get('/api/campaigns')).json()).toEqual([]);
  });
});
