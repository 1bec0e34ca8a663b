import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { IMPORT_BATCH_SIZE, importContactsCsv } from './contacts.import.ts';
import { signUpUser, useTestApp, type TestClient } from '../../../test/build-app.ts';
import { separateConnection } from '../../../test/test-database.ts';

const ada = {
  email: 'Ada@Example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  company: 'Engines',
  tags: [' math ', 'vip', ''],
};

async function createContact(client: TestClient, body: Record<string, unknown>) {
  const response = await client.post('/api/contacts', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: number; email: string };
}

async function createList(client: TestClient, name: string, extra: Record<string, unknown> = {}) {
  const response = await client.post('/api/contact-lists', { name, ...extra });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: number; subscriberCount: number };
}

describe('contacts API', () => {
  const t = useTestApp();

  it('needs a session for every route', async () => {
    const anon = t().client();
    for (const [method, url] of [
      ['GET', '/api/contacts'],
      ['POST', '/api/contacts'],
      ['GET', '/api/contacts/1'],
      ['PATCH', '/api/contacts/1'],
      ['DELETE', '/api/contacts/1'],
      ['GET', '/api/contact-lists'],
      ['POST', '/api/contacts/import-csv'],
      ['GET', '/api/contacts/export.csv'],
      ['POST', '/api/contacts/bulk-delete'],
    ] as const) {
      expect((await anon.request({ method, url })).statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('creates a contact: lower-cased email, trimmed tags, active by default', async () => {
    const { client } = await signUpUser(t());
    const response = await client.post('/api/contacts', ada);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      email: 'ada@example.com',
      firstName: 'Ada',
      lastName: 'Lovelace',
      company: 'Engines',
      jobTitle: null,
      tags: ['math', 'vip'],
      isActive: true,
      engagementScore: 0,
      totalEmailsOpened: 0,
      totalEmailsClicked: 0,
      lastActivityAt: null,
    });
  });

  it.each([
    [{ email: 'nope' }, 'email', 'Please enter a valid email address'],
    [{ email: undefined }, 'email', 'Please enter a valid email address'],
    [{ firstName: ' ' }, 'firstName', 'First name is required'],
    [{ lastName: undefined }, 'lastName', 'Last name is required'],
    [{ tags: 'a,b' }, 'tags', 'Tags must be a list'],
  ])('refuses %j with 400 and writes nothing', async (change, field, message) => {
    const { client } = await signUpUser(t());
    const response = await client.post('/api/contacts', { ...ada, ...change });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields[field]).toBe(message);
    expect((await client.get('/api/contacts')).json()).toEqual([]);
  });

  it('answers 409 for a duplicate email in any case', async () => {
    const { client } = await signUpUser(t());
    await createContact(client, ada);
    const response = await client.post('/api/contacts', { ...ada, email: 'ADA@example.com' });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe('A contact with this email already exists');
  });

  it('searches email, name and company, filters by status and list, pages with X-Total-Count', async () => {
    const { client } = await signUpUser(t());
    const list = await createList(client, 'Customers');
    for (let i = 0; i < 7; i += 1) {
      await createContact(client, {
        email: `person${i}@acme.io`,
        firstName: `Person${i}`,
        lastName: 'Doe',
        company: i % 2 ? 'Acme 50%' : 'Globex',
        isActive: i !== 3,
        listIds: i < 2 ? [list.id] : [],
      });
    }
    const all = await client.get('/api/contacts?pageSize=3&page=1');
    expect(all.headers['x-total-count']).toBe('7');
    expect(all.json()).toHaveLength(3);
    const page3 = await client.get('/api/contacts?pageSize=3&page=3');
    expect(page3.json()).toHaveLength(1);
    expect((await client.get('/api/contacts?search=GLOBEX')).headers['x-total-count']).toBe('4');
    expect((await client.get('/api/contacts?search=50%25')).headers['x-total-count']).toBe('3');
    expect((await client.get('/api/contacts?search=person6')).json()[0].email).toBe('person6@acme.io');
    expect((await client.get('/api/contacts?search=5%25')).headers['x-total-count']).toBe('0');
    expect(
      (await client.get('/api/contacts?status=unsubscribed')).json().map((c: { email: string }) => c.email),
    ).toEqual(['person3@acme.io']);
    expect((await client.get(`/api/contacts?listId=${list.id}`)).headers['x-total-count']).toBe('2');
    expect((await client.get(`/api/contact-lists/${list.id}/contacts`)).headers['x-total-count']).toBe('2');
  });

  it.each([
    ['pageSize=501', 'pageSize', 'pageSize must be at most 500'],
    ['pageSize=0', 'pageSize', 'pageSize must be 1 or more'],
    ['page=0', 'page', 'page must be 1 or more'],
    ['page=abc', 'page', 'page must be a number'],
    ['status=gone', 'status', "status must be 'active' or 'unsubscribed'"],
  ])('refuses ?%s with 400', async (query, field, message) => {
    const { client } = await signUpUser(t());
    const response = await client.get(`/api/contacts?${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().fields[field]).toBe(message);
  });

  it('updates and deletes a contact, keeping list counts true', async () => {
    const { client } = await signUpUser(t());
    const list = await createList(client, 'Newsletter');
    const contact = await createContact(client, { ...ada, listIds: [list.id] });
    expect((await client.get('/api/contact-lists')).json()[0].subscriberCount).toBe(1);
    const patched = await client.patch(`/api/contacts/${contact.id}`, { jobTitle: 'Analyst', isActive: false });
    expect(patched.json()).toMatchObject({ jobTitle: 'Analyst', isActive: false, firstName: 'Ada' });
    const detail = await client.get(`/api/contacts/${contact.id}`);
    expect(detail.json().lists).toEqual([{ id: list.id, name: 'Newsletter' }]);
    expect((await client.patch(`/api/contacts/${contact.id}`, { email: 'bad' })).statusCode).toBe(400);
    expect((await client.delete(`/api/contacts/${contact.id}`)).statusCode).toBe(204);
    expect((await client.get(`/api/contacts/${contact.id}`)).statusCode).toBe(404);
    expect((await client.get('/api/contact-lists')).json()[0].subscriberCount).toBe(0);
  });

  it('answers 409 when an update takes another contact’s email', async () => {
    const { client } = await signUpUser(t());
    await createContact(client, ada);
    const other = await createContact(client, { ...ada, email: 'other@example.com' });
    const response = await client.patch(`/api/contacts/${other.id}`, { email: 'ada@example.com' });
    expect(response.statusCode).toBe(409);
  });

  it('bulk adds, removes and deletes, with exact list counts', async () => {
    const { client } = await signUpUser(t());
    const list = await createList(client, 'VIP');
    const ids = [];
    for (let i = 0; i < 4; i += 1) ids.push((await createContact(client, { ...ada, email: `b${i}@x.io` })).id);
    expect(
      (await client.post('/api/contacts/bulk-add-to-list', { listId: list.id, contactIds: ids.slice(0, 3) })).json(),
    ).toEqual({ affected: 3 });
    expect((await client.post('/api/contacts/bulk-add-to-list', { listId: list.id, contactIds: ids })).json()).toEqual({
      affected: 1,
    });
    expect((await client.get('/api/contact-lists')).json()[0].subscriberCount).toBe(4);
    expect(
      (await client.post('/api/contacts/bulk-remove-from-list', { listId: list.id, contactIds: [ids[0]] })).json(),
    ).toEqual({ affected: 1 });
    expect((await client.post('/api/contacts/bulk-delete', { contactIds: ids.slice(1, 3) })).json()).toEqual({
      affected: 2,
    });
    expect((await client.get('/api/contact-lists')).json()[0].subscriberCount).toBe(1);
    expect((await client.get('/api/contacts')).headers['x-total-count']).toBe('2');
    const empty = await client.post('/api/contacts/bulk-delete', { contactIds: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields.contactIds).toBe('Select at least one contact');
  });

  it('manages lists: create with members, rename, 409 on a duplicate name, delete keeps contacts', async () => {
    const { client } = await signUpUser(t());
    const c = await createContact(client, ada);
    const list = await createList(client, 'Campaign audience', { contactIds: [c.id], description: 'From a selection' });
    expect(list.subscriberCount).toBe(1);
    expect((await client.post('/api/contact-lists', { name: 'campaign AUDIENCE' })).statusCode).toBe(409);
    const renamed = await client.patch(`/api/contact-lists/${list.id}`, {
      name: 'Spring buyers',
      description: 'Renamed',
    });
    expect(renamed.json()).toMatchObject({ name: 'Spring buyers', description: 'Renamed', subscriberCount: 1 });
    const blank = await client.post('/api/contact-lists', { name: ' ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().fields.name).toBe('Please provide a name for the new contact list.');
    expect((await client.delete(`/api/contact-lists/${list.id}`)).statusCode).toBe(204);
    expect((await client.get('/api/contact-lists')).json()).toEqual([]);
    expect((await client.get('/api/contacts')).json()).toHaveLength(1);
  });

  it('keeps each user to their own rows (404 on another user’s ids)', async () => {
    const a = await signUpUser(t());
    const b = await signUpUser(t());
    const contact = await createContact(a.client, ada);
    const list = await createList(a.client, 'Private');
    await a.client.post('/api/contacts/bulk-add-to-list', { listId: list.id, contactIds: [contact.id] });
    expect((await b.client.get('/api/contacts')).json()).toEqual([]);
    expect((await b.client.get('/api/contact-lists')).json()).toEqual([]);
    expect((await b.client.get(`/api/contacts/${contact.id}`)).statusCode).toBe(404);
    expect((await b.client.patch(`/api/contacts/${contact.id}`, { firstName: 'X' })).statusCode).toBe(404);
    expect((await b.client.delete(`/api/contacts/${contact.id}`)).statusCode).toBe(404);
    expect((await b.client.patch(`/api/contact-lists/${list.id}`, { name: 'Mine' })).statusCode).toBe(404);
    expect((await b.client.delete(`/api/contact-lists/${list.id}`)).statusCode).toBe(404);
    expect((await b.client.get(`/api/contact-lists/${list.id}/contacts`)).statusCode).toBe(404);
    expect((await b.client.get(`/api/contacts?listId=${list.id}`)).statusCode).toBe(404);
    expect((await b.client.get(`/api/contacts/export.csv?listId=${list.id}`)).statusCode).toBe(404);
    const bExport = (await b.client.get('/api/contacts/export.csv')).body.trim().split('\r\n');
    expect(bExport).toHaveLength(1); // the header alone
    expect(
      (await b.client.post('/api/contacts/bulk-add-to-list', { listId: list.id, contactIds: [contact.id] })).statusCode,
    ).toBe(404);
    expect(
      (await b.client.post('/api/contacts/bulk-remove-from-list', { listId: list.id, contactIds: [contact.id] }))
        .statusCode,
    ).toBe(404);
    expect((await b.client.post('/api/contacts/bulk-delete', { contactIds: [contact.id] })).json()).toEqual({
      affected: 0,
    });
    const bList = await createList(b.client, 'B list');
    expect(
      (await b.client.post('/api/contacts/bulk-add-to-list', { listId: bList.id, contactIds: [contact.id] })).json(),
    ).toEqual({ affected: 0 });
    expect(
      (
        await b.client.post('/api/contacts/bulk-remove-from-list', { listId: bList.id, contactIds: [contact.id] })
      ).json(),
    ).toEqual({ affected: 0 });
    expect((await b.client.post('/api/contacts', { ...ada, listIds: [list.id] })).statusCode).toBe(404);
    expect((await a.client.get(`/api/contacts/${contact.id}`)).statusCode).toBe(200);
    expect((await a.client.get('/api/contact-lists')).json()[0].subscriberCount).toBe(1);
  });

  it('keeps the trigger-maintained totals equal to a real count through every write path', async () => {
    const { client, user } = await signUpUser(t());
    const list = await createList(client, 'Counted');
    await client.post('/api/contacts/import-csv', {
      csvData: 'email\nc1@x.io\nc2@x.io\nc3@x.io\nc4@x.io\n',
      listId: list.id,
    });
    const one = await createContact(client, { ...ada, email: 'c5@x.io' });
    await client.patch(`/api/contacts/${one.id}`, { isActive: false });
    const ids = ((await client.get('/api/contacts?search=c1@')).json() as { id: number }[]).map((c) => c.id);
    await client.post('/api/contacts/bulk-delete', { contactIds: ids });
    const real = await t().ctx.database.raw.executeSql(
      `SELECT count(*)::int AS total, (count(*) FILTER (WHERE is_active))::int AS active FROM contacts WHERE user_id = '${user.id}'`,
      [],
    );
    expect(real.rows[0]).toEqual({ total: 4, active: 3 });
    expect((await client.get('/api/contacts')).headers['x-total-count']).toBe('4');
    expect((await client.get('/api/contacts?status=active')).headers['x-total-count']).toBe('3');
    expect((await client.get('/api/contacts?status=unsubscribed')).headers['x-total-count']).toBe('1');
    expect((await client.get(`/api/contacts?listId=${list.id}`)).headers['x-total-count']).toBe('3');
    expect((await client.get('/api/contacts?search=c')).headers['x-total-count-exact']).toBeUndefined();
  });

  it('exports CSV with formula cells escaped', async () => {
    const { client } = await signUpUser(t());
    await createContact(client, { ...ada, company: '=HYPERLINK("http://evil")', notes: 'x' });
    await createContact(client, { ...ada, email: 'plus@x.io', firstName: '+1 caller', lastName: '@handle' });
    const response = await client.get('/api/contacts/export.csv');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    expect(response.headers['content-disposition']).toBe('attachment; filename="contacts.csv"');
    const lines = response.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'email,firstName,lastName,company,jobTitle,phone,location,tags,status,engagementScore,createdAt',
    );
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(lines[2]).toContain("plus@x.io,'+1 caller,'@handle");
  });
});

describe('CSV import', () => {
  const t = useTestApp();

  async function importJson(client: TestClient, csvData: string, extra: Record<string, unknown> = {}) {
    return client.post('/api/contacts/import-csv', { csvData, ...extra });
  }

  it('imports the spec’s JSON body into a new list', async () => {
    const { client } = await signUpUser(t());
    const response = await importJson(client, 'email,firstName,lastName,company\nA@x.io,Ann,Lee,Acme\nb@x.io,Bob,,\n', {
      createNewList: true,
      newListName: 'Imported',
    });
    expect(response.statusCode, response.body).toBe(200);
    const result = response.json();
    expect(result).toMatchObject({ imported: 2, updated: 0, skipped: 0, errors: [] });
    const lists = (await client.get('/api/contact-lists')).json();
    expect(lists).toEqual([expect.objectContaining({ id: result.listId, name: 'Imported', subscriberCount: 2 })]);
    const contacts = (await client.get('/api/contacts?search=ann')).json();
    expect(contacts[0]).toMatchObject({ email: 'a@x.io', firstName: 'Ann', lastName: 'Lee', company: 'Acme' });
  });

  it('accepts header spellings, BOM, CRLF, quoted commas and newlines, semicolons and tabs', async () => {
    const { client } = await signUpUser(t());
    const bomCrlf =
      '\uFEFFE-mail,First Name,last_name,Company Name\r\n"q@x.io","Quinn","O\'Neil","Acme, Inc.\nWest"\r\n';
    const r1 = (await importJson(client, bomCrlf)).json();
    expect(r1).toMatchObject({ imported: 1, skipped: 0 });
    const quinn = (await client.get('/api/contacts?search=quinn')).json()[0];
    expect(quinn).toMatchObject({
      email: 'q@x.io',
      firstName: 'Quinn',
      lastName: "O'Neil",
      company: 'Acme, Inc.\nWest',
    });
    expect((await importJson(client, 'Email Address;firstname;Surname\ns@x.io;Sam;Semi\n')).json()).toMatchObject({
      imported: 1,
    });
    expect((await client.get('/api/contacts?search=s@x.io')).json()[0]).toMatchObject({
      firstName: 'Sam',
      lastName: 'Semi',
    });
    expect((await importJson(client, 'email\tfirst_name\ntab@x.io\tTabby\n')).json()).toMatchObject({ imported: 1 });
    expect((await client.get('/api/contacts?search=tab@')).json()[0].firstName).toBe('Tabby');
  });

  it('stores quotes, backslashes, non-ASCII text and tags exactly as the file has them', async () => {
    const { client } = await signUpUser(t());
    const csv =
      'email,firstName,lastName,company,notes,tags\nodd@x.io,"Zoë ""Z""",Back\\slash,{braces},"null","a, b;a|ü 🙂"\nplain@x.io,,,,,\n';
    expect((await importJson(client, csv)).json()).toMatchObject({ imported: 2, skipped: 0 });
    const odd = (await client.get('/api/contacts?search=odd@')).json()[0];
    expect(odd).toMatchObject({
      firstName: 'Zoë "Z"',
      lastName: 'Back\\slash',
      company: '{braces}',
      tags: ['a', 'b', 'ü 🙂'],
    });
    expect((await client.get(`/api/contacts/${odd.id}`)).json()).toMatchObject({ notes: 'null' });
    const plain = (await client.get('/api/contacts?search=plain@')).json()[0];
    expect(plain).toMatchObject({ firstName: '', lastName: '', company: null, tags: [] });
  });

  it('reads a Mailchimp export: its headers, its quoted tags unquoted, the other columns reported as ignored', async () => {
    const { client } = await signUpUser(t());
    // Mailchimp writes TAGS as "Customers","VIP" inside one quoted cell.
    const csv =
      'Email Address,First Name,Last Name,Phone Number,MEMBER_RATING,OPTIN_TIME,TAGS\n' +
      'mc@x.io,Mia,Chimp,555-0100,2,2024-01-01,"""Customers"",""VIP"""\n';
    const result = (await importJson(client, csv, { tag: 'spring import' })).json();
    expect(result).toMatchObject({ imported: 1, skipped: 0, ignoredColumns: ['MEMBER_RATING', 'OPTIN_TIME'] });
    const mia = (await client.get('/api/contacts?search=mc@')).json()[0];
    expect(mia).toMatchObject({ firstName: 'Mia', lastName: 'Chimp', tags: ['Customers', 'VIP', 'spring import'] });
  });

  it('applies the column mapping the user chose, and refuses one without an email column or of the wrong length', async () => {
    const { client } = await signUpUser(t());
    const csv = 'Contact,Work mail,Org\nAda Lovelace,ada@x.io,Engines\n';
    // Detected alone, "Work mail" names no field: the file has no email column.
    expect((await importJson(client, csv)).statusCode).toBe(400);
    const mapped = await importJson(client, csv, { columns: ['fullName', 'email', 'ignore'] });
    expect(mapped.statusCode, mapped.body).toBe(200);
    expect(mapped.json()).toMatchObject({ imported: 1, ignoredColumns: ['Org'] });
    expect((await client.get('/api/contacts?search=ada@')).json()[0]).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      company: null,
    });
    const noEmail = await importJson(client, csv, { columns: ['fullName', 'ignore', 'company'] });
    expect(noEmail.statusCode).toBe(400);
    expect(noEmail.json().message).toBe('Choose the column that holds the email addresses.');
    const short = await importJson(client, csv, { columns: ['email'] });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toMatch(/names 1 columns but the file has 3/);
    // The streamed form takes the same mapping as a comma-separated query parameter.
    const streamed = await client.request({
      method: 'POST',
      url: '/api/contacts/import-csv?columns=fullName,email,company&tag=streamed',
      headers: { 'content-type': 'text/csv' },
      payload: 'Contact,Work mail,Org\nGrace Hopper,grace@x.io,Navy\n',
    });
    expect(streamed.statusCode, streamed.body).toBe(200);
    expect((await client.get('/api/contacts?search=grace@')).json()[0]).toMatchObject({
      company: 'Navy',
      tags: ['streamed'],
    });
  });

  it('says a too-long new list name in words', async () => {
    const { client } = await signUpUser(t());
    const response = await importJson(client, 'email\na@x.io\n', { createNewList: true, newListName: 'L'.repeat(121) });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('List name must be at most 120 characters');
    expect(response.body).not.toContain('Too big');
  });

  it('reports bad rows without failing the import', async () => {
    const { client } = await signUpUser(t());
    const longTag = 'x'.repeat(3000);
    const result = (
      await importJson(
        client,
        `email,firstName,tags\ngood@x.io,G,\nnot-an-email,N,\n,Empty,\nfine@x.io,F,\nlong@x.io,L,ok;${longTag}\n`,
      )
    ).json();
    expect(result).toMatchObject({ imported: 2, skipped: 3 });
    expect(result.errors).toEqual([
      { row: 3, message: '“not-an-email” is not a valid email address' },
      { row: 4, message: 'No email address in this row' },
      { row: 6, message: 'A tag must be at most 50 characters' },
    ]);
    // The bell says so too, for whoever left the import dialog.
    const bell = (await client.get('/api/notifications')).json() as {
      notifications: { title: string; body: string; link: string }[];
    };
    expect(bell.notifications[0]).toEqual(
      expect.objectContaining({
        title: 'Import finished: 3 rows skipped',
        body: '2 contacts added, 0 updated. 3 rows were skipped, the first (row 3): “not-an-email” is not a valid email address.',
        link: '/contacts',
      }),
    );
  });

  it('updates existing emails by filling empty fields, never duplicating, also inside one file', async () => {
    const { client } = await signUpUser(t());
    await createContact(client, { email: 'keep@x.io', firstName: 'Kept', lastName: 'Name' });
    const csv =
      'email,firstName,lastName,company\nKEEP@x.io,Changed,Other,NewCo\nrep@x.io,Rep,,\nrep@x.io,Ignored,Filled,RepCo\n';
    const result = (await importJson(client, csv)).json();
    expect(result).toMatchObject({ imported: 1, updated: 2, skipped: 0 });
    expect((await client.get('/api/contacts?search=keep@')).json()[0]).toMatchObject({
      firstName: 'Kept',
      lastName: 'Name',
      company: 'NewCo',
    });
    expect((await client.get('/api/contacts?search=rep@')).json()[0]).toMatchObject({
      firstName: 'Rep',
      lastName: 'Filled',
      company: 'RepCo',
    });
    expect((await client.get('/api/contacts')).headers['x-total-count']).toBe('2');
    // Re-importing the same file changes nothing.
    const again = (await importJson(client, csv)).json();
    expect(again).toMatchObject({ imported: 0, updated: 3 });
    expect((await client.get('/api/contacts')).headers['x-total-count']).toBe('2');
  });

  it('keeps repeats across batches exact: a later batch repeating emails of the one before, in another order, and existing contacts', async () => {
    const { client, user } = await signUpUser(t(), { plan: 'enterprise' });
    const list = await createList(client, 'Across batches');
    await createContact(client, { email: 'old@x.io', firstName: 'Old', lastName: 'Timer' });
    // Batch 1 holds r0 to r<last> (the first and the last without a company); batch 2 repeats the
    // last and the first (in that order: written at the same time, the two would wait for each
    // other), fills their company, updates the existing old@x.io and brings 500 new emails.
    const last = IMPORT_BATCH_SIZE - 1;
    const first = Array.from(
      { length: IMPORT_BATCH_SIZE },
      (_, i) => `r${i}@x.io,R${i},Last,${i === 0 || i === last ? '' : 'Co'}`,
    );
    const second = [
      `r${last}@x.io,Other,Other,Co${last}`,
      'old@x.io,Other,Other,OldCo',
      'r0@x.io,Other,Other,Co0',
      ...Array.from({ length: 500 }, (_, i) => `n${i}@x.io,N${i},Last,Co`),
    ];
    const csv = `email,firstName,lastName,company\n${[...first, ...second].join('\n')}\n`;
    const result = (await importJson(client, csv, { listId: list.id })).json();
    expect(result).toMatchObject({ imported: IMPORT_BATCH_SIZE + 500, updated: 3, skipped: 0 });
    expect((await client.get('/api/contacts?search=r0@')).json()[0]).toMatchObject({
      firstName: 'R0',
      lastName: 'Last',
      company: 'Co0',
    });
    expect((await client.get(`/api/contacts?search=r${last}@`)).json()[0]).toMatchObject({
      firstName: `R${last}`,
      lastName: 'Last',
      company: `Co${last}`,
    });
    expect((await client.get('/api/contacts?search=old@')).json()[0]).toMatchObject({
      firstName: 'Old',
      lastName: 'Timer',
      company: 'OldCo',
    });
    const counts = await t().ctx.database.raw.executeSql(
      `SELECT (SELECT count(*)::int FROM contacts WHERE user_id = '${user.id}') AS real,
              (SELECT total FROM contact_counts WHERE user_id = '${user.id}') AS counted,
              (SELECT count(*)::int FROM contact_list_members WHERE list_id = ${list.id}) AS members,
              (SELECT subscriber_count FROM contact_lists WHERE id = ${list.id}) AS subscribers`,
      [],
    );
    const total = IMPORT_BATCH_SIZE + 501;
    expect(counts.rows[0]).toEqual({ real: total, counted: total, members: total, subscribers: total });
    // The same file again: every row an update, nothing joins the list twice.
    expect((await importJson(client, csv, { listId: list.id })).json()).toMatchObject({
      imported: 0,
      updated: IMPORT_BATCH_SIZE + 503,
    });
    expect(
      (await client.get('/api/contact-lists')).json().find((l: { id: number }) => l.id === list.id).subscriberCount,
    ).toBe(total);
  });

  it('answers a failed batch only once every batch has settled, leaving the committed ones whole and the counts exact', async () => {
    const { client, user } = await signUpUser(t(), { plan: 'enterprise' });
    const list = await createList(client, 'Half');
    const raw = t().ctx.database.raw;
    // A row the database refuses, in the second batch.
    await raw.executeSql(
      `CREATE FUNCTION refuse_import_row() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.email = 'refused@x.io' THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$`,
      [],
    );
    await raw.executeSql(
      `CREATE TRIGGER refuse_import_row BEFORE INSERT ON contacts FOR EACH ROW EXECUTE FUNCTION refuse_import_row()`,
      [],
    );
    try {
      const rows = Array.from({ length: IMPORT_BATCH_SIZE + 600 }, (_, i) =>
        i === IMPORT_BATCH_SIZE + 300 ? 'refused@x.io' : `h${i}@x.io`,
      );
      const response = await importJson(client, `email\n${rows.join('\n')}\n`, { listId: list.id });
      expect(response.statusCode).toBe(500);
      const counts = await raw.executeSql(
        `SELECT (SELECT count(*)::int FROM contacts WHERE user_id = '${user.id}') AS real,
                (SELECT total FROM contact_counts WHERE user_id = '${user.id}') AS counted,
                (SELECT subscriber_count FROM contact_lists WHERE id = ${list.id}) AS subscribers`,
        [],
      );
      expect(counts.rows[0]).toEqual({
        real: IMPORT_BATCH_SIZE,
        counted: IMPORT_BATCH_SIZE,
        subscribers: IMPORT_BATCH_SIZE,
      });
    } finally {
      await raw.executeSql('DROP TRIGGER refuse_import_row ON contacts', []);
      await raw.executeSql('DROP FUNCTION refuse_import_row()', []);
    }
  });

  it('writes no later batch into a new list before the batch that created it has committed', async (context) => {
    const connect = separateConnection(t().ctx.database);
    if (!connect) return context.skip('PGlite writes one batch at a time');
    const { client, user } = await signUpUser(t());
    const existing = (await createContact(client, { email: 'held@x.io', firstName: 'Held', lastName: 'Row' })).id;
    // Another transaction holds the existing contact, so the first batch (new list, then held@x.io)
    // stops after creating the list. The rest of the file arrives meanwhile; its batch must wait, as
    // the uncommitted list is invisible to its transaction and its memberships would be refused.
    const holder = await connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM contacts WHERE id = $1 FOR UPDATE', [existing]);
      const firstBatch = [
        'held@x.io,Held,Row,HeldCo',
        ...Array.from({ length: IMPORT_BATCH_SIZE - 1 }, (_, i) => `w${i}@x.io,W${i},Last,Co`),
      ];
      const secondBatch = Array.from({ length: 1000 }, (_, i) => `v${i}@x.io,V${i},Last,Co`);
      const file = Readable.from(
        (async function* () {
          yield `email,firstName,lastName,company\n${firstBatch.join('\n')}\n`;
          await new Promise((r) => setTimeout(r, 300));
          yield `${secondBatch.join('\n')}\n`;
          await new Promise((r) => setTimeout(r, 300));
          await holder.query('COMMIT');
        })(),
      );
      const result = await importContactsCsv(t().ctx.db, user.id, file, { newListName: 'Waited for' });
      expect(result).toMatchObject({ imported: IMPORT_BATCH_SIZE - 1 + 1000, updated: 1, skipped: 0 });
      const lists = (await client.get('/api/contact-lists')).json() as { name: string; subscriberCount: number }[];
      expect(lists.find((l) => l.name === 'Waited for')?.subscriberCount).toBe(IMPORT_BATCH_SIZE + 1000);
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      holder.release();
    }
  });

  it('is idempotent for list membership on re-import', async () => {
    const { client } = await signUpUser(t());
    const list = await createList(client, 'Members');
    const csv = 'email\na@x.io\nb@x.io\nc@x.io\n';
    await importJson(client, csv, { listId: list.id });
    await importJson(client, csv, { listId: list.id });
    expect((await client.get('/api/contact-lists')).json()[0].subscriberCount).toBe(3);
  });

  it('names the columns it found when there is no email column', async () => {
    const { client } = await signUpUser(t());
    const response = await importJson(client, 'name,phone\nAnn,123\n');
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('The file has no email column. Columns found: "name", "phone"');
    expect((await client.get('/api/contacts')).json()).toEqual([]);
  });

  it('answers 400 naming the row for a quote never closed or a record over 1,000,000 characters, and writes nothing', async () => {
    const { client } = await signUpUser(t());
    const unclosed = await importJson(client, 'email,firstName\na@x.io,Ann\n"b@x.io,Bob\nc@x.io,Cy\n');
    expect(unclosed.statusCode).toBe(400);
    expect(unclosed.json().message).toBe('The CSV could not be read near row 3: a quoted field is never closed');
    const huge = await client.request({
      method: 'POST',
      url: '/api/contacts/import-csv',
      headers: { 'content-type': 'text/csv' },
      payload: `email,notes\na@x.io,"${'x'.repeat(1_000_001)}"\n`,
    });
    expect(huge.statusCode).toBe(400);
    expect(huge.json().message).toBe(
      'The CSV could not be read near row 2: a record is longer than 1000000 characters',
    );
    expect((await client.get('/api/contacts')).json()).toEqual([]);
  });

  it('creates no list when the file is refused', async () => {
    const { client } = await signUpUser(t());
    await importJson(client, 'name\nAnn\n', { createNewList: true, newListName: 'Never' });
    expect((await client.get('/api/contact-lists')).json()).toEqual([]);
  });

  it('refuses an empty file and a missing list name', async () => {
    const { client } = await signUpUser(t());
    const empty = await importJson(client, '');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('Please upload a CSV file first.');
    const noName = await importJson(client, 'email\na@x.io\n', { createNewList: true, newListName: ' ' });
    expect(noName.statusCode).toBe(400);
    expect(noName.json().message).toBe('Please provide a name for the new contact list.');
  });

  it('refuses a list of another user with 404', async () => {
    const a = await signUpUser(t());
    const b = await signUpUser(t());
    const list = await createList(a.client, 'A only');
    const response = await importJson(b.client, 'email\nx@x.io\n', { listId: list.id });
    expect(response.statusCode).toBe(404);
    expect((await b.client.get('/api/contacts')).json()).toEqual([]);
  });

  it('takes a streamed text/csv body with the target in the query', async () => {
    const { client } = await signUpUser(t());
    const response = await client.request({
      method: 'POST',
      url: '/api/contacts/import-csv?createNewList=true&newListName=Streamed',
      headers: { 'content-type': 'text/csv' },
      payload: 'email,first name\nst1@x.io,One\nst2@x.io,Two\n',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ imported: 2 });
    expect((await client.get('/api/contact-lists')).json()[0]).toMatchObject({ name: 'Streamed', subscriberCount: 2 });
  });

  it('takes a multipart upload and refuses a file that is not CSV', async () => {
    const { client } = await signUpUser(t());
    const boundary = '----sendwell';
    const body = (filename: string, type: string, content: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="newListName"\r\n\r\nUploaded\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="createNewList"\r\n\r\ntrue\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n${content}\r\n--${boundary}--\r\n`;
    const headers = { 'content-type': `multipart/form-data; boundary=${boundary}` };
    const ok = await client.request({
      method: 'POST',
      url: '/api/contacts/import-csv',
      headers,
      payload: body('people.csv', 'text/csv', 'email\nmp@x.io\n'),
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ imported: 1 });
    const pdf = await client.request({
      method: 'POST',
      url: '/api/contacts/import-csv',
      headers,
      payload: body('report.pdf', 'application/pdf', '%PDF-1.4'),
    });
    expect(pdf.statusCode).toBe(400);
    expect(pdf.json().message).toBe('Please upload a CSV file.');
  });

  it('refuses other content types and binary data with "Please upload a CSV file."', async () => {
    const { client } = await signUpUser(t());
    const png = await client.request({
      method: 'POST',
      url: '/api/contacts/import-csv',
      headers: { 'content-type': 'image/png' },
      payload: Buffer.from([0x89, 0x50, 0x4e, 0x47]),
    });
    expect(png.statusCode).toBe(400);
    expect(png.json().message).toBe('Please upload a CSV file.');
    const binary = await client.request({
      method: 'POST',
      url: '/api/contacts/import-csv',
      headers: { 'content-type': 'text/csv' },
      payload: Buffer.from('email\n\u0000\u0001\u0002'),
    });
    expect(binary.statusCode).toBe(400);
    expect(binary.json().message).toBe('Please upload a CSV file.');
  });

  it('answers 413 for a declared size over 100 MB', async () => {
    const { client } = await signUpUser(t());
    const response = await client.request({
      method: 'POST',
      url: '/api/contacts/import-csv',
      headers: { 'content-type': 'text/csv', 'content-length': String(101 * 1024 * 1024) },
      payload: 'email\n',
    });
    expect(response.statusCode).toBe(413);
  });

  it('streams progress lines then the result when asked for NDJSON', async () => {
    const { client } = await signUpUser(t(), { plan: 'enterprise' });
    const rows = Array.from({ length: 2 * IMPORT_BATCH_SIZE + 500 }, (_, i) => `p${i}@x.io,P${i}`).join('\n');
    const response = await client.request({
      method: 'POST',
      url: '/api/contacts/import-csv',
      headers: { 'content-type': 'text/csv', accept: 'application/x-ndjson' },
      payload: `email,firstName\n${rows}\n`,
    });
    expect(response.statusCode).toBe(200);
    const lines = response.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.filter((l) => l.type === 'progress').map((l) => l.rows)).toEqual([
      IMPORT_BATCH_SIZE,
      2 * IMPORT_BATCH_SIZE,
      2 * IMPORT_BATCH_SIZE + 500,
    ]);
    expect(lines.at(-1)).toEqual({
      type: 'result',
      result: expect.objectContaining({ imported: 2 * IMPORT_BATCH_SIZE + 500, skipped: 0 }),
    });
  });
});
