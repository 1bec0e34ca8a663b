import { describe, expect, it } from 'vitest';
import type { ContactList } from '@sendwell/contract/contacts';
import { signUpUser, useTestApp, type TestClient } from '../../../test/build-app.ts';

// Issue 34, finding 9: "Select all N matching" applies a bulk action on the server to every contact
// the table's filters match, not only the page on screen.

async function addContacts(client: TestClient, prefix: string, count: number, active = true): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    const created = await client.post('/api/contacts', {
      email: `${prefix}${i}@match.example`,
      firstName: prefix,
      lastName: 'Match',
    });
    expect(created.statusCode, created.body).toBe(201);
    if (!active) {
      const id = (created.json() as { id: number }).id;
      expect((await client.patch(`/api/contacts/${id}`, { isActive: false })).statusCode).toBe(200);
    }
  }
}

const total = async (client: TestClient, query = '') =>
  Number((await client.get(`/api/contacts${query}`)).headers['x-total-count']);

describe('bulk actions on all matching contacts', () => {
  const t = useTestApp();

  it('adds to a list and deletes every contact the filters match, beyond one page, and nothing else', async () => {
    const { client } = await signUpUser(t());
    await addContacts(client, 'spring', 7);
    await addContacts(client, 'winter', 3);
    await addContacts(client, 'springoff', 2, false);
    const list = (await client.post('/api/contact-lists', { name: 'Spring buyers' })).json() as ContactList;

    // A page of 5 shows 5 of the 7 active 'spring' contacts; the action takes all 7.
    expect((await client.get('/api/contacts?search=spring&status=active&pageSize=5')).json()).toHaveLength(5);
    const added = await client.post('/api/contacts/bulk-add-to-list', {
      listId: list.id,
      matching: { search: 'spring', status: 'active' },
    });
    expect(added.json()).toEqual({ affected: 7 });
    expect(await total(client, `?listId=${list.id}`)).toBe(7);

    const removed = await client.post('/api/contacts/bulk-remove-from-list', {
      listId: list.id,
      matching: { search: 'spring0' },
    });
    expect(removed.json()).toEqual({ affected: 1 });

    const deleted = await client.post('/api/contacts/bulk-delete', { matching: { listId: list.id } });
    expect(deleted.json()).toEqual({ affected: 6 });
    expect(await total(client)).toBe(6);
    expect(((await client.get('/api/contact-lists')).json() as ContactList[])[0]?.subscriberCount).toBe(0);
  });

  it('refuses ids and filters together, neither, and a bad filter, writing nothing', async () => {
    const { client } = await signUpUser(t());
    await addContacts(client, 'keep', 2);
    for (const body of [
      {},
      { contactIds: [1], matching: {} },
      { matching: { status: 'sleeping' } },
      { matching: { listId: -1 } },
    ]) {
      const response = await client.post('/api/contacts/bulk-delete', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(await total(client)).toBe(2);
  });

  it("touches only the account's own contacts, with empty filters matching all of its own", async () => {
    const a = await signUpUser(t());
    const b = await signUpUser(t());
    await addContacts(a.client, 'mine', 3);
    await addContacts(b.client, 'theirs', 2);
    const aList = (await a.client.post('/api/contact-lists', { name: 'A list' })).json() as ContactList;
    // B cannot use A's list, as a filter or as a target.
    expect((await b.client.post('/api/contacts/bulk-delete', { matching: { listId: aList.id } })).json()).toEqual({
      affected: 0,
    });
    expect((await b.client.post('/api/contacts/bulk-add-to-list', { listId: aList.id, matching: {} })).statusCode).toBe(
      404,
    );
    expect((await b.client.post('/api/contacts/bulk-delete', { matching: {} })).json()).toEqual({ affected: 2 });
    expect(await total(a.client)).toBe(3);
  });
});
