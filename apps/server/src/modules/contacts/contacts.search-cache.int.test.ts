import { describe, expect, it } from 'vitest';
import { signUpUser, useTestApp, type TestApp, type TestClient } from '../../../test/build-app.ts';
import { COUNT_CAP, listContacts } from './contacts.repo.ts';
import { ContactSearchCache } from './contacts.search-cache.ts';
import { searchCacheOf } from './contacts.service.ts';

type Listed = { id: number; email: string; firstName: string; lastName: string; jobTitle: string | null; engagementScore: number };

async function createContact(client: TestClient, body: Record<string, unknown>): Promise<Listed> {
  const response = await client.post('/api/contacts', { lastName: 'Doe', ...body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as Listed;
}

async function search(client: TestClient, query: string): Promise<{ emails: string[]; rows: Listed[]; total: string | undefined; exact: boolean }> {
  const response = await client.get(`/api/contacts?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  const rows = response.json() as Listed[];
  const total = response.headers['x-total-count'];
  return { emails: rows.map((row) => row.email), rows, total: typeof total === 'string' ? total : undefined, exact: response.headers['x-total-count-exact'] !== 'false' };
}

function cachedEntry(t: TestApp, userId: string, term: string, status?: 'active' | 'unsubscribed') {
  return searchCacheOf(t.ctx.db).get(ContactSearchCache.key(userId, term, status));
}

describe('cached contact search', () => {
  const t = useTestApp();

  it('serves pages from the cache in the same order and with the same total as the direct query', async () => {
    const { client, user } = await signUpUser(t());
    // Imported in one batch, so they share created_at and the id breaks the tie.
    const csv = ['email,firstName,lastName', ...Array.from({ length: 12 }, (_, i) => `p${i}@x.io,Pat${i},Hopper`)].join('\n');
    expect((await client.post('/api/contacts/import-csv', { csvData: csv })).statusCode).toBe(200);
    await createContact(client, { email: 'later@x.io', firstName: 'Later', lastName: 'Hopper' });
    await createContact(client, { email: 'other@x.io', firstName: 'Other' });
    const direct = await listContacts(t().ctx.db, user.id, { search: 'hopper' }, { offset: 0, limit: 100 });
    const pages = [await search(client, 'search=HOPPER&pageSize=5&page=1'), await search(client, 'search=hopper&pageSize=5&page=2'), await search(client, 'search=hopper&pageSize=5&page=3')];
    expect(cachedEntry(t(), user.id, 'hopper')?.ids.length).toBe(13);
    expect(pages.flatMap((page) => page.emails)).toEqual(direct.rows.map((row) => row.email));
    expect(pages.map((page) => [page.total, page.exact])).toEqual([['13', true], ['13', true], ['13', true]]);
    expect(pages[0]?.emails[0]).toBe('later@x.io');
    expect((await search(client, 'search=hopper&pageSize=5&page=9')).emails).toEqual([]);
  });

  it('sees creates, renames, deletes and bulk deletes made after a search was cached', async () => {
    const { client, user } = await signUpUser(t());
    const ann = await createContact(client, { email: 'ann@x.io', firstName: 'Ann', lastName: 'Turing' });
    const bob = await createContact(client, { email: 'bob@x.io', firstName: 'Bob', lastName: 'Turing' });
    expect((await search(client, 'search=turing')).emails).toEqual(['bob@x.io', 'ann@x.io']);
    expect(cachedEntry(t(), user.id, 'turing')).toBeDefined();

    const cid = await createContact(client, { email: 'cid@x.io', firstName: 'Cid', lastName: 'Turing' });
    expect(await search(client, 'search=turing')).toMatchObject({ emails: ['cid@x.io', 'bob@x.io', 'ann@x.io'], total: '3' });

    await client.patch(`/api/contacts/${bob.id}`, { lastName: 'Hopper' });
    expect(await search(client, 'search=turing')).toMatchObject({ emails: ['cid@x.io', 'ann@x.io'], total: '2' });
    expect((await search(client, 'search=hopper')).emails).toEqual(['bob@x.io']);

    await client.patch(`/api/contacts/${bob.id}`, { email: 'bob.turing@x.io' });
    expect((await search(client, 'search=turing')).emails).toEqual(['cid@x.io', 'bob.turing@x.io', 'ann@x.io']);

    expect((await client.delete(`/api/contacts/${cid.id}`)).statusCode).toBe(204);
    expect(await search(client, 'search=turing')).toMatchObject({ emails: ['bob.turing@x.io', 'ann@x.io'], total: '2' });

    await client.post('/api/contacts/bulk-delete', { contactIds: [ann.id, bob.id] });
    expect(await search(client, 'search=turing')).toMatchObject({ emails: [], total: '0' });
  });

  it('sees imports that add contacts or fill in their searched fields', async () => {
    const { client } = await signUpUser(t());
    await createContact(client, { email: 'acme1@x.io', firstName: 'Old', lastName: 'Person', company: 'Acme' });
    await client.post('/api/contacts/import-csv', { csvData: 'email,firstName,lastName,company\nfirst@x.io,First,Person,\n' });
    expect((await search(client, 'search=acme')).emails).toEqual(['acme1@x.io']);
    expect((await search(client, 'search=person')).emails).toEqual(['first@x.io', 'acme1@x.io']);
    // The re-import fills the empty company of first@ (a searched field) and adds a new contact.
    await client.post('/api/contacts/import-csv', { csvData: 'email,firstName,lastName,company\nfirst@x.io,,,Acme\nada@x.io,Ada,Person,Acme\n' });
    expect(await search(client, 'search=acme')).toMatchObject({ emails: ['ada@x.io', 'first@x.io', 'acme1@x.io'], total: '3' });
    expect(await search(client, 'search=person')).toMatchObject({ emails: ['ada@x.io', 'first@x.io', 'acme1@x.io'], total: '3' });
  });

  it('sees changes made by plain SQL elsewhere (tracking, unsubscribes), not only through this API', async () => {
    const { client, user } = await signUpUser(t());
    const kim = await createContact(client, { email: 'kim@x.io', firstName: 'Kim', lastName: 'Ritchie' });
    await createContact(client, { email: 'lee@x.io', firstName: 'Lee', lastName: 'Ritchie' });
    expect((await search(client, 'search=ritchie&status=active')).emails).toEqual(['lee@x.io', 'kim@x.io']);
    const raw = t().ctx.database.raw;

    // Engagement is not searched: the cached ids stay valid and the rows are read fresh.
    const before = cachedEntry(t(), user.id, 'ritchie', 'active');
    await raw.executeSql('UPDATE contacts SET engagement_score = 77 WHERE id = $1', [kim.id]);
    const fresh = await search(client, 'search=ritchie&status=active');
    expect(fresh.rows.find((row) => row.id === kim.id)?.engagementScore).toBe(77);
    expect(cachedEntry(t(), user.id, 'ritchie', 'active')).toBe(before);

    await raw.executeSql('UPDATE contacts SET is_active = false WHERE id = $1', [kim.id]);
    expect(await search(client, 'search=ritchie&status=active')).toMatchObject({ emails: ['lee@x.io'], total: '1' });
    expect(await search(client, 'search=ritchie&status=unsubscribed')).toMatchObject({ emails: ['kim@x.io'], total: '1' });

    await raw.executeSql("UPDATE contacts SET first_name = 'Renamed', last_name = 'Other' WHERE id = $1", [kim.id]);
    expect((await search(client, 'search=ritchie')).emails).toEqual(['lee@x.io']);
    expect((await search(client, 'search=renamed')).emails).toEqual(['kim@x.io']);
  });

  it('keeps each user’s cached results to that user', async () => {
    const a = await signUpUser(t());
    const b = await signUpUser(t());
    const c = await signUpUser(t());
    await createContact(a.client, { email: 'shared@x.io', firstName: 'Grace', lastName: 'Hopper', jobTitle: 'A’s' });
    const bContact = await createContact(b.client, { email: 'shared@x.io', firstName: 'Grace', lastName: 'Hopper', jobTitle: 'B’s' });
    await createContact(b.client, { email: 'second@x.io', firstName: 'Grace', lastName: 'Second' });

    const aFirst = await search(a.client, 'search=grace');
    const bFirst = await search(b.client, 'search=grace');
    expect(aFirst.rows.map((row) => row.jobTitle)).toEqual(['A’s']);
    expect(bFirst).toMatchObject({ emails: ['second@x.io', 'shared@x.io'], total: '2' });
    expect(await search(c.client, 'search=grace')).toMatchObject({ emails: [], total: '0' });
    expect(cachedEntry(t(), a.user.id, 'grace')?.ids).not.toEqual(cachedEntry(t(), b.user.id, 'grace')?.ids);

    // B's change leaves A's results alone, and A's cached entry is still served.
    const aEntry = cachedEntry(t(), a.user.id, 'grace');
    await b.client.delete(`/api/contacts/${bContact.id}`);
    expect((await search(b.client, 'search=grace')).emails).toEqual(['second@x.io']);
    expect((await search(a.client, 'search=grace')).rows.map((row) => row.jobTitle)).toEqual(['A’s']);
    expect(cachedEntry(t(), a.user.id, 'grace')).toBe(aEntry);
  });

  it(`reports more than ${COUNT_CAP.toLocaleString('en-US')} matches as "at least", and pages past them with the direct query`, async () => {
    const { client, user } = await signUpUser(t());
    const count = COUNT_CAP + 60;
    const csv = ['email,firstName,lastName', ...Array.from({ length: count }, (_, i) => `m${i}@bulk.io,M${i},Many`)].join('\n');
    const imported = await client.post('/api/contacts/import-csv', { csvData: csv });
    expect(imported.json()).toMatchObject({ imported: count });

    const first = await search(client, 'search=many&pageSize=50&page=1');
    expect(first).toMatchObject({ total: String(COUNT_CAP), exact: false });
    expect(cachedEntry(t(), user.id, 'many')).toMatchObject({ complete: false });
    // Page 202 lies past the COUNT_CAP + 1 ids that were read; the direct query answers it.
    const last = await search(client, 'search=many&pageSize=50&page=202');
    const direct = await listContacts(t().ctx.db, user.id, { search: 'many' }, { offset: 201 * 50, limit: 50 });
    expect(last.emails).toEqual(direct.rows.map((row) => row.email));
    expect(last.emails).toHaveLength(10);
    expect(last).toMatchObject({ total: String(COUNT_CAP), exact: false });
    // A narrower search is counted exactly.
    expect(await search(client, 'search=m1234@')).toMatchObject({ emails: ['m1234@bulk.io'], total: '1', exact: true });
  });
});
