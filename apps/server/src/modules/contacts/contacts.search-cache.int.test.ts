import { describe, expect, it } from 'vitest';
import { signUpUser, useTestApp, type TestApp, type TestClient } from '../../../test/build-app.ts';
import { contactListResponseSchema } from '@sendwell/contract/contacts';
import { COUNT_CAP, listContacts } from './contacts.repo.ts';
import { ContactPageCache, ContactSearchCache } from './contacts.search-cache.ts';
import { pageCacheOf, searchCacheOf, toContact } from './contacts.service.ts';

type Listed = {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  jobTitle: string | null;
  engagementScore: number;
};

async function createContact(client: TestClient, body: Record<string, unknown>): Promise<Listed> {
  const response = await client.post('/api/contacts', { lastName: 'Doe', ...body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as Listed;
}

async function search(
  client: TestClient,
  query: string,
): Promise<{ emails: string[]; rows: Listed[]; total: string | undefined; exact: boolean }> {
  const response = await client.get(`/api/contacts?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  const rows = response.json() as Listed[];
  const total = response.headers['x-total-count'];
  return {
    emails: rows.map((row) => row.email),
    rows,
    total: typeof total === 'string' ? total : undefined,
    exact: response.headers['x-total-count-exact'] !== 'false',
  };
}

function cachedEntry(t: TestApp, userId: string, term: string, status?: 'active' | 'unsubscribed') {
  return searchCacheOf(t.ctx.db).get(ContactSearchCache.key(userId, term, status));
}

describe('cached contact search', () => {
  const t = useTestApp();

  it('serves pages from the cache in the same order and with the same total as the direct query', async () => {
    const { client, user } = await signUpUser(t());
    // Imported in one batch, so they share created_at and the id breaks the tie.
    const csv = ['email,firstName,lastName', ...Array.from({ length: 12 }, (_, i) => `p${i}@x.io,Pat${i},Hopper`)].join(
      '\n',
    );
    expect((await client.post('/api/contacts/import-csv', { csvData: csv })).statusCode).toBe(200);
    await createContact(client, { email: 'later@x.io', firstName: 'Later', lastName: 'Hopper' });
    await createContact(client, { email: 'other@x.io', firstName: 'Other' });
    const direct = await listContacts(t().ctx.db, user.id, { search: 'hopper' }, { offset: 0, limit: 100 });
    const pages = [
      await search(client, 'search=HOPPER&pageSize=5&page=1'),
      await search(client, 'search=hopper&pageSize=5&page=2'),
      await search(client, 'search=hopper&pageSize=5&page=3'),
    ];
    expect(cachedEntry(t(), user.id, 'hopper')?.ids.length).toBe(13);
    expect(pages.flatMap((page) => page.emails)).toEqual(direct.rows.map((row) => row.email));
    expect(pages.map((page) => [page.total, page.exact])).toEqual([
      ['13', true],
      ['13', true],
      ['13', true],
    ]);
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
    expect(await search(client, 'search=turing')).toMatchObject({
      emails: ['cid@x.io', 'bob@x.io', 'ann@x.io'],
      total: '3',
    });

    await client.patch(`/api/contacts/${bob.id}`, { lastName: 'Hopper' });
    expect(await search(client, 'search=turing')).toMatchObject({ emails: ['cid@x.io', 'ann@x.io'], total: '2' });
    expect((await search(client, 'search=hopper')).emails).toEqual(['bob@x.io']);

    await client.patch(`/api/contacts/${bob.id}`, { email: 'bob.turing@x.io' });
    expect((await search(client, 'search=turing')).emails).toEqual(['cid@x.io', 'bob.turing@x.io', 'ann@x.io']);

    expect((await client.delete(`/api/contacts/${cid.id}`)).statusCode).toBe(204);
    expect(await search(client, 'search=turing')).toMatchObject({
      emails: ['bob.turing@x.io', 'ann@x.io'],
      total: '2',
    });

    await client.post('/api/contacts/bulk-delete', { contactIds: [ann.id, bob.id] });
    expect(await search(client, 'search=turing')).toMatchObject({ emails: [], total: '0' });
  });

  it('sees imports that add contacts or fill in their searched fields', async () => {
    const { client } = await signUpUser(t());
    await createContact(client, { email: 'acme1@x.io', firstName: 'Old', lastName: 'Person', company: 'Acme' });
    await client.post('/api/contacts/import-csv', {
      csvData: 'email,firstName,lastName,company\nfirst@x.io,First,Person,\n',
    });
    expect((await search(client, 'search=acme')).emails).toEqual(['acme1@x.io']);
    expect((await search(client, 'search=person')).emails).toEqual(['first@x.io', 'acme1@x.io']);
    // The re-import fills the empty company of first@ (a searched field) and adds a new contact.
    await client.post('/api/contacts/import-csv', {
      csvData: 'email,firstName,lastName,company\nfirst@x.io,,,Acme\nada@x.io,Ada,Person,Acme\n',
    });
    expect(await search(client, 'search=acme')).toMatchObject({
      emails: ['ada@x.io', 'first@x.io', 'acme1@x.io'],
      total: '3',
    });
    expect(await search(client, 'search=person')).toMatchObject({
      emails: ['ada@x.io', 'first@x.io', 'acme1@x.io'],
      total: '3',
    });
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
    expect(await search(client, 'search=ritchie&status=unsubscribed')).toMatchObject({
      emails: ['kim@x.io'],
      total: '1',
    });

    await raw.executeSql("UPDATE contacts SET first_name = 'Renamed', last_name = 'Other' WHERE id = $1", [kim.id]);
    expect((await search(client, 'search=ritchie')).emails).toEqual(['lee@x.io']);
    expect((await search(client, 'search=renamed')).emails).toEqual(['kim@x.io']);
  });

  it('keeps each user’s cached results to that user', async () => {
    const a = await signUpUser(t());
    const b = await signUpUser(t());
    const c = await signUpUser(t());
    await createContact(a.client, { email: 'shared@x.io', firstName: 'Grace', lastName: 'Hopper', jobTitle: 'A’s' });
    const bContact = await createContact(b.client, {
      email: 'shared@x.io',
      firstName: 'Grace',
      lastName: 'Hopper',
      jobTitle: 'B’s',
    });
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
    // More contacts than the default plan's subscriber limit (modules/billing).
    const { client, user } = await signUpUser(t(), { plan: 'enterprise' });
    const count = COUNT_CAP + 60;
    const csv = [
      'email,firstName,lastName',
      ...Array.from({ length: count }, (_, i) => `m${i}@bulk.io,M${i},Many`),
    ].join('\n');
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

/** The stored serialised page of one user's search (size and page as in the query). */
function cachedPage(
  t: TestApp,
  userId: string,
  term: string,
  page: number,
  pageSize: number,
  status?: 'active' | 'unsubscribed',
) {
  return pageCacheOf(t.ctx.db).get(
    ContactPageCache.key(ContactSearchCache.key(userId, term, status), (page - 1) * pageSize, pageSize),
  );
}

async function raw(t: TestApp, text: string, values: unknown[] = []): Promise<void> {
  await t.ctx.database.raw.executeSql(text, values);
}

describe('cached search pages', () => {
  const t = useTestApp();

  it('answers exactly the JSON the schema serializer gives for the same contacts, from the cache too', async () => {
    const { client, user } = await signUpUser(t());
    const kim = await createContact(client, {
      email: 'kim@x.io',
      firstName: 'Kim',
      lastName: 'Päge "Q"',
      company: 'Tab\tCo',
      tags: ['vip', 'say "hi"', 'ünï'],
      notes: 'line one\nline two 🙂',
    });
    const lee = await createContact(client, {
      email: 'lee@x.io',
      firstName: 'Lee',
      lastName: 'Päge',
      jobTitle: 'CTO',
      phone: '+1 555',
    });
    // Microseconds are kept by Postgres and dropped by a Date; both paths must drop them the same way.
    await raw(
      t(),
      "UPDATE contacts SET last_activity_at = '2024-02-29 23:59:59.999999+00', subscription_date = '1969-12-31 23:59:59.9995+00' WHERE id = $1",
      [kim.id],
    );
    await raw(
      t(),
      "UPDATE contacts SET created_at = '2031-01-01 00:00:00.000001+00', engagement_score = 42 WHERE id = $1",
      [lee.id],
    );

    const direct = await listContacts(t().ctx.db, user.id, { search: 'päge' }, { offset: 0, limit: 50 });
    const serialised = JSON.stringify(contactListResponseSchema.parse(direct.rows.map(toContact)));
    const built = await client.get('/api/contacts?search=P%C3%84GE');
    const served = await client.get('/api/contacts?search=päge');
    expect(cachedPage(t(), user.id, 'päge', 1, 50)).toBeDefined();
    expect(built.body).toBe(serialised);
    expect(served.body).toBe(serialised);
    expect(served.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(served.headers['x-total-count']).toBe('2');
    expect(served.headers['x-total-count-exact']).toBeUndefined();
    // The listing without a search goes through the route's schema serializer: the same bytes.
    expect((await client.get('/api/contacts')).body).toBe(serialised);
    expect(contactListResponseSchema.parse(served.json())).toHaveLength(2);
  });

  it('never serves a page after any field of one of its rows changed, however it changed', async () => {
    const { client, user } = await signUpUser(t());
    const ann = await createContact(client, { email: 'ann@x.io', firstName: 'Ann', lastName: 'Liskov' });
    const bob = await createContact(client, { email: 'bob@x.io', firstName: 'Bob', lastName: 'Liskov' });
    const cid = await createContact(client, { email: 'cid@x.io', firstName: 'Cid', lastName: 'Liskov' });
    const firstPage = async () => (await search(client, 'search=liskov&pageSize=2&page=1')).rows;
    expect((await firstPage()).map((row) => row.email)).toEqual(['cid@x.io', 'bob@x.io']);
    const stored = cachedPage(t(), user.id, 'liskov', 1, 2);
    expect(stored).toBeDefined();

    // A change to a contact on another page leaves this page's rows alone: it is served as stored.
    await client.patch(`/api/contacts/${ann.id}`, { jobTitle: 'Elsewhere' });
    await firstPage();
    expect(cachedPage(t(), user.id, 'liskov', 1, 2)).toBe(stored);

    // Fields that do not move the contacts version: through the API, by plain SQL, by an import.
    await client.patch(`/api/contacts/${bob.id}`, { jobTitle: 'Architect' });
    expect((await firstPage()).find((row) => row.id === bob.id)?.jobTitle).toBe('Architect');
    await raw(t(), 'UPDATE contacts SET engagement_score = 91 WHERE id = $1', [cid.id]);
    expect((await firstPage()).find((row) => row.id === cid.id)?.engagementScore).toBe(91);
    await client.post('/api/contacts/import-csv', { csvData: 'email,firstName,lastName,phone\nbob@x.io,,,+44 20\n' });
    const afterImport = await search(client, 'search=liskov&pageSize=2&page=1');
    expect(afterImport.rows.find((row) => row.id === bob.id)).toMatchObject({
      jobTitle: 'Architect',
      engagementScore: 0,
    });
    expect(afterImport.rows.map((row) => (row as Listed & { phone: string | null }).phone)).toEqual([null, '+44 20']);

    // Creates and deletes move the version: the page is read again.
    const dan = await createContact(client, { email: 'dan@x.io', firstName: 'Dan', lastName: 'Liskov' });
    expect((await firstPage()).map((row) => row.email)).toEqual(['dan@x.io', 'cid@x.io']);
    expect((await client.delete(`/api/contacts/${dan.id}`)).statusCode).toBe(204);
    expect(await search(client, 'search=liskov&pageSize=2&page=1')).toMatchObject({
      emails: ['cid@x.io', 'bob@x.io'],
      total: '3',
    });
    // A rewrite of the table moves every row to a new address; what is served is still right.
    await raw(t(), 'VACUUM FULL contacts');
    await raw(t(), 'UPDATE contacts SET notes = $1 WHERE id = $2', ['after the rewrite', cid.id]);
    expect((await firstPage()).find((row) => row.id === cid.id)).toMatchObject({ notes: 'after the rewrite' });
  });

  it('keeps each page size and each page apart, and an empty page past the end moves with new matches', async () => {
    const { client, user } = await signUpUser(t());
    for (const name of ['One', 'Two', 'Three', 'Four', 'Five'])
      await createContact(client, { email: `${name.toLowerCase()}@x.io`, firstName: name, lastName: 'Allen' });
    const direct = (await listContacts(t().ctx.db, user.id, { search: 'allen' }, { offset: 0, limit: 50 })).rows.map(
      (row) => row.email,
    );
    for (const pageSize of [1, 2, 3, 5]) {
      for (let page = 1; page <= Math.ceil(5 / pageSize) + 1; page += 1) {
        const expected = direct.slice((page - 1) * pageSize, page * pageSize);
        expect(
          (await search(client, `search=allen&pageSize=${pageSize}&page=${page}`)).emails,
          `${pageSize}/${page}`,
        ).toEqual(expected);
        expect(
          (await search(client, `search=allen&pageSize=${pageSize}&page=${page}`)).emails,
          `${pageSize}/${page} again`,
        ).toEqual(expected);
      }
    }
    expect(cachedPage(t(), user.id, 'allen', 2, 2)?.body).not.toBe(cachedPage(t(), user.id, 'allen', 1, 3)?.body);
    expect(cachedPage(t(), user.id, 'allen', 3, 3)?.body).toBe('[]');
    await createContact(client, { email: 'six@x.io', firstName: 'Six', lastName: 'Allen' });
    await createContact(client, { email: 'seven@x.io', firstName: 'Seven', lastName: 'Allen' });
    expect(await search(client, 'search=allen&pageSize=3&page=3')).toMatchObject({ emails: ['one@x.io'], total: '7' });
    expect((await search(client, 'search=allen&pageSize=2&page=1')).emails).toEqual(['seven@x.io', 'six@x.io']);
  });

  it('answers 401 for a session that ended or expired, even while its page is cached and checked along the session lookup', async () => {
    const signOut = await signUpUser(t());
    const expire = await signUpUser(t());
    for (const { client } of [signOut, expire]) {
      await createContact(client, { email: 'ray@x.io', firstName: 'Ray', lastName: 'Tomlinson' });
      // The first request names the session's user; the second is served from the page checked along the session lookup.
      expect((await search(client, 'search=tomlinson')).emails).toEqual(['ray@x.io']);
      expect((await search(client, 'search=tomlinson')).emails).toEqual(['ray@x.io']);
    }
    const endedCookie = signOut.client.cookie() ?? '';
    expect((await signOut.client.post('/api/auth/logout')).statusCode).toBe(200);
    const afterSignOut = await t().app.inject({
      method: 'GET',
      url: '/api/contacts?search=tomlinson',
      headers: { cookie: endedCookie },
    });
    expect(afterSignOut.statusCode).toBe(401);

    await raw(t(), "UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1", [expire.user.id]);
    expect((await expire.client.get('/api/contacts?search=tomlinson')).statusCode).toBe(401);
  });

  it('shares one build between concurrent requests for a new page, and never serves a shared build that read before a change', async () => {
    const { client, user } = await signUpUser(t());
    const eve = await createContact(client, { email: 'eve@x.io', firstName: 'Eve', lastName: 'Hamilton' });
    await createContact(client, { email: 'fay@x.io', firstName: 'Fay', lastName: 'Hamilton' });
    const together = await Promise.all(
      Array.from({ length: 8 }, () => client.get('/api/contacts?search=hamilton&pageSize=2')),
    );
    expect(new Set(together.map((response) => response.body)).size).toBe(1);
    expect((JSON.parse(together[0]?.body ?? '[]') as Listed[]).map((row) => row.email)).toEqual([
      'fay@x.io',
      'eve@x.io',
    ]);

    // A build still under way when a change lands: a request that joins it must not be served what it read.
    const key = ContactPageCache.key(ContactSearchCache.key(user.id, 'hamilton', undefined), 0, 2);
    const pages = pageCacheOf(t().ctx.db);
    const before = pages.get(key);
    expect(before).toBeDefined();
    if (before) pages.drop(key, before);
    let finish: () => void = () => undefined;
    void pages.load(key, () => new Promise((resolve) => (finish = () => resolve(before ?? null))));
    await raw(t(), 'UPDATE contacts SET notes = $1 WHERE id = $2', ['changed meanwhile', eve.id]);
    const joined = client.get('/api/contacts?search=hamilton&pageSize=2');
    setTimeout(() => finish(), 20);
    const rows = (await joined).json() as (Listed & { notes: string | null })[];
    expect(rows.find((row) => row.id === eve.id)?.notes).toBe('changed meanwhile');
  });

  it('keeps each user’s cached pages to that user', async () => {
    const a = await signUpUser(t());
    const b = await signUpUser(t());
    await createContact(a.client, { email: 'same@x.io', firstName: 'Ken', lastName: 'Thompson', notes: 'A’s' });
    const bKen = await createContact(b.client, {
      email: 'same@x.io',
      firstName: 'Ken',
      lastName: 'Thompson',
      notes: 'B’s',
    });
    const notesOf = async (client: TestClient) =>
      (await search(client, 'search=thompson')).rows.map((row) => (row as Listed & { notes: string }).notes);
    expect(await notesOf(a.client)).toEqual(['A’s']);
    expect(await notesOf(b.client)).toEqual(['B’s']);
    expect(await notesOf(a.client)).toEqual(['A’s']);
    const aPage = cachedPage(t(), a.user.id, 'thompson', 1, 50);
    // B's edit is B's alone: A's page is still current, B's is read again.
    await b.client.patch(`/api/contacts/${bKen.id}`, { notes: 'B’s, edited' });
    expect(await notesOf(b.client)).toEqual(['B’s, edited']);
    expect(await notesOf(a.client)).toEqual(['A’s']);
    expect(cachedPage(t(), a.user.id, 'thompson', 1, 50)).toBe(aPage);
  });
});
