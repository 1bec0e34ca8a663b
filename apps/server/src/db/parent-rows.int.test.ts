import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, separateConnection } from '../../test/test-database.ts';
import { signUp } from '../modules/auth/auth.service.ts';
import type { Database } from './client.ts';

// contacts.user_id, contact_list_members.list_id and .contact_id are enforced by the triggers of
// migration 0012 instead of foreign keys; these tests hold them to what the foreign keys did.
describe('parent-row triggers', () => {
  let database: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ database, drop } = await createTestDatabase());
  });
  afterAll(() => drop());

  const query = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
    (await database.raw.executeSql(text, params)).rows as T[];
  const errorOf = async (text: string, params: unknown[] = []) => {
    try {
      await query(text, params);
    } catch (error) {
      return error as { code?: string; message: string };
    }
    throw new Error(`expected ${text} to fail`);
  };

  async function newUser() {
    const { user } = await signUp(
      database.db,
      {
        email: `u-${randomUUID()}@example.com`,
        password: 'test-pass-1',
        confirmPassword: 'test-pass-1',
        firstName: 'T',
        lastName: 'U',
        company: '',
        plan: 'starter',
      },
      { ip: null, userAgent: null },
    );
    return user.id;
  }
  async function newContact(userId: string) {
    const [row] = await query<{ id: number }>(`INSERT INTO contacts (user_id, email) VALUES ($1, $2) RETURNING id`, [
      userId,
      `c-${randomUUID()}@example.com`,
    ]);
    return row?.id ?? 0;
  }
  async function newList(userId: string) {
    const [row] = await query<{ id: number }>(
      `INSERT INTO contact_lists (user_id, name) VALUES ($1, $2) RETURNING id`,
      [userId, `L ${randomUUID()}`],
    );
    return row?.id ?? 0;
  }
  const memberCount = async (where: string, params: unknown[]) =>
    Number((await query<{ n: string }>(`SELECT count(*) AS n FROM contact_list_members WHERE ${where}`, params))[0]?.n);

  it('refuses a contact of a missing user, and a membership of a missing contact or list, writing nothing', async () => {
    const userId = await newUser();
    const contactId = await newContact(userId);
    const listId = await newList(userId);

    const noUser = await errorOf(
      `INSERT INTO contacts (user_id, email) VALUES ($1, 'x@example.com'), ($2, 'y@example.com')`,
      [userId, randomUUID()],
    );
    // contact_counts' own foreign key (its row is written by an earlier trigger) may be the one to say so.
    expect(noUser).toMatchObject({ code: '23503' });
    expect(await query(`SELECT 1 FROM contacts WHERE email IN ('x@example.com', 'y@example.com')`)).toEqual([]);

    const noContact = await errorOf(
      `INSERT INTO contact_list_members (list_id, contact_id) VALUES ($1, $2), ($1, $3)`,
      [listId, contactId, contactId + 1_000_000],
    );
    expect(noContact).toMatchObject({
      code: '23503',
      message: 'contact_list_members.contact_id refers to a row of contacts that does not exist',
    });
    const noList = await errorOf(`INSERT INTO contact_list_members (list_id, contact_id) VALUES ($1, $2)`, [
      listId + 1_000_000,
      contactId,
    ]);
    expect(noList).toMatchObject({
      code: '23503',
      message: 'contact_list_members.list_id refers to a row of contact_lists that does not exist',
    });
    expect(await memberCount('contact_id = $1', [contactId])).toBe(0);

    // Parents written earlier (locked, not owned) and in the same transaction (owned) both pass.
    await query(`INSERT INTO contact_list_members (list_id, contact_id) VALUES ($1, $2)`, [listId, contactId]);
    await database.db.transaction(async (tx) => {
      const [fresh] = (
        await tx.execute(
          sql`INSERT INTO contacts (user_id, email) VALUES (${userId}, 'same-tx@example.com') RETURNING id`,
        )
      ).rows as { id: number }[];
      await tx.execute(
        sql`INSERT INTO contact_list_members (list_id, contact_id) VALUES (${listId}, ${fresh?.id}), (${listId}, ${contactId + 0}) ON CONFLICT DO NOTHING`,
      );
    });
    expect(await memberCount('list_id = $1', [listId])).toBe(2);
  });

  it('deletes memberships with their contact or list, and contacts with their user', async () => {
    const userId = await newUser();
    const [a, b] = [await newContact(userId), await newContact(userId)];
    const [first, second] = [await newList(userId), await newList(userId)];
    await query(
      `INSERT INTO contact_list_members (list_id, contact_id) VALUES ($1, $3), ($1, $4), ($2, $3), ($2, $4)`,
      [first, second, a, b],
    );

    await query(`DELETE FROM contacts WHERE id = $1`, [a]);
    expect(await memberCount('contact_id = $1', [a])).toBe(0);
    expect(await memberCount('contact_id = $1', [b])).toBe(2);
    await query(`DELETE FROM contact_lists WHERE id = $1`, [first]);
    expect(await memberCount('list_id = $1', [first])).toBe(0);
    expect(await memberCount('list_id = $1', [second])).toBe(1);

    const other = await newUser();
    const kept = await newContact(other);
    await query(`DELETE FROM users WHERE id = $1`, [userId]);
    expect(await query(`SELECT id FROM contacts WHERE user_id = $1`, [userId])).toEqual([]);
    expect(await memberCount('contact_id = $1', [b])).toBe(0);
    expect(await query(`SELECT id FROM contacts WHERE id = $1`, [kept])).toEqual([{ id: kept }]);
  });

  it('refuses to change the keys the triggers rely on', async () => {
    const userId = await newUser();
    const other = await newUser();
    const contactId = await newContact(userId);
    const listId = await newList(userId);
    await query(`INSERT INTO contact_list_members (list_id, contact_id) VALUES ($1, $2)`, [listId, contactId]);
    for (const [statement, params] of [
      [`UPDATE contacts SET user_id = $1 WHERE id = $2`, [other, contactId]],
      [`UPDATE contact_list_members SET contact_id = contact_id + 1000000 WHERE list_id = $1`, [listId]],
      [`UPDATE contact_lists SET id = id + 1000000 WHERE id = $1`, [listId]],
      [`UPDATE contacts SET id = id + 1000000 WHERE id = $1`, [contactId]],
      [`UPDATE users SET id = $1 WHERE id = $2`, [randomUUID(), other]],
    ] as const) {
      expect(await errorOf(statement, [...params])).toMatchObject({ code: '23503' });
    }
    // Other columns still change freely.
    await query(`UPDATE contacts SET first_name = 'Changed' WHERE id = $1`, [contactId]);
    await query(`UPDATE contact_list_members SET added_at = now() WHERE list_id = $1`, [listId]);
  });

  it('never leaves a membership whose contact a concurrent transaction deleted (Postgres)', async (context) => {
    const connect = separateConnection(database);
    if (!connect) return context.skip('PGlite runs one transaction at a time');
    const userId = await newUser();
    const listId = await newList(userId);

    // The delete commits while the insert waits for its lock: the insert fails.
    const deletedFirst = await newContact(userId);
    const [deleter, inserter] = [await connect(), await connect()];
    try {
      await deleter.query('BEGIN');
      await deleter.query('DELETE FROM contacts WHERE id = $1', [deletedFirst]);
      const insert = inserter
        .query('INSERT INTO contact_list_members (list_id, contact_id) VALUES ($1, $2)', [listId, deletedFirst])
        .then(
          () => null,
          (error: { code?: string }) => error,
        );
      await new Promise((r) => setTimeout(r, 200));
      await deleter.query('COMMIT');
      expect(await insert).toMatchObject({ code: '23503' });

      // The insert holds its lock first: the delete waits, then takes the new membership with it.
      const insertedFirst = await newContact(userId);
      await inserter.query('BEGIN');
      await inserter.query('INSERT INTO contact_list_members (list_id, contact_id) VALUES ($1, $2)', [
        listId,
        insertedFirst,
      ]);
      const remove = deleter.query('DELETE FROM contacts WHERE id = $1', [insertedFirst]);
      await new Promise((r) => setTimeout(r, 200));
      await inserter.query('COMMIT');
      await remove;
      expect(await memberCount('contact_id = $1', [insertedFirst])).toBe(0);
      expect(await memberCount('list_id = $1', [listId])).toBe(0);
    } finally {
      deleter.release();
      inserter.release();
    }
  });
});
