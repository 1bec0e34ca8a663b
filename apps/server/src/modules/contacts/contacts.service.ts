import type { z } from 'zod';
import type {
  Contact,
  ContactDetail,
  ContactList,
  contactsQuerySchema,
  createContactBodySchema,
  createContactListBodySchema,
  updateContactBodySchema,
  updateContactListBodySchema,
} from '@sendwell/contract/contacts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import * as repo from './contacts.repo.ts';
import { ContactSearchCache, type CachedSearch } from './contacts.search-cache.ts';

export const CONTACT_EXISTS = 'A contact with this email already exists';
export const LIST_EXISTS = 'A contact list with this name already exists';
const CONTACT_NOT_FOUND = 'Contact not found';
const LIST_NOT_FOUND = 'Contact list not found';

export function toContact(row: repo.ContactRow): Contact {
  return {
    id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    company: row.company,
    jobTitle: row.jobTitle,
    phone: row.phone,
    location: row.location,
    notes: row.notes,
    tags: row.tags,
    isActive: row.isActive,
    subscriptionDate: row.subscriptionDate.toISOString(),
    createdAt: row.createdAt.toISOString(),
    engagementScore: row.engagementScore,
    totalEmailsOpened: row.totalEmailsOpened,
    totalEmailsClicked: row.totalEmailsClicked,
    lastActivityAt: row.lastActivityAt?.toISOString() ?? null,
  };
}

export function toContactList(row: repo.ContactListRow): ContactList {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    subscriberCount: row.subscriberCount,
    createdAt: row.createdAt.toISOString(),
  };
}

/** A page of the user's contacts and the total for the X-Total-Count header. */
export async function searchContacts(db: Db, userId: string, query: z.output<typeof contactsQuerySchema>) {
  if (query.listId !== undefined && !(await repo.findList(db, userId, query.listId))) throw new AppError('not_found', LIST_NOT_FOUND);
  const page = { offset: (query.page - 1) * query.pageSize, limit: query.pageSize };
  // List membership is not covered by the contacts version, so only list-free searches are cached.
  const cached = query.search && query.listId === undefined ? await cachedSearchPage(db, userId, { search: query.search, status: query.status }, page) : null;
  const { rows, total, exact } = cached ?? (await repo.listContacts(db, userId, query, page));
  return { contacts: rows.map(toContact), total, exact };
}

/** One search cache per database handle (tests run several apps, each on its own database, in one process). */
const searchCaches = new WeakMap<Db, ContactSearchCache>();

export function searchCacheOf(db: Db): ContactSearchCache {
  let cache = searchCaches.get(db);
  if (!cache) {
    cache = new ContactSearchCache();
    searchCaches.set(db, cache);
  }
  return cache;
}

/**
 * A page of a search from the cached matching ids (read once per search and version of the user's
 * contacts, up to COUNT_CAP + 1 of them), or null when the page lies beyond the ids read or the
 * contacts kept changing between reads: the caller then queries directly.
 */
async function cachedSearchPage(
  db: Db,
  userId: string,
  filter: { search: string; status?: 'active' | 'unsubscribed' },
  page: { offset: number; limit: number },
): Promise<{ rows: repo.ContactRow[]; total: number; exact: boolean } | null> {
  const cache = searchCacheOf(db);
  const key = ContactSearchCache.key(userId, filter.search, filter.status);
  const load = async (): Promise<CachedSearch | null> => {
    const { version, ids } = await repo.matchingContactIds(db, userId, filter, repo.COUNT_CAP + 1);
    return version === null ? null : { version, ids: Int32Array.from(ids), complete: ids.length <= repo.COUNT_CAP };
  };
  // A second round covers an entry that went stale; a third change in a row is left to the direct query.
  for (let round = 0; round < 2; round += 1) {
    const entry = await cache.getOrLoad(key, load);
    if (!entry) return null;
    const end = page.offset + page.limit;
    if (!entry.complete && end > entry.ids.length) return null;
    const rows = await repo.contactsAtVersion(db, userId, Array.from(entry.ids.subarray(page.offset, end)), entry.version);
    if (rows) return { rows, total: entry.complete ? entry.ids.length : repo.COUNT_CAP, exact: entry.complete };
    cache.drop(key, entry);
  }
  return null;
}

export async function getContact(db: Db, userId: string, id: number): Promise<ContactDetail> {
  const row = await repo.findContact(db, userId, id);
  if (!row) throw new AppError('not_found', CONTACT_NOT_FOUND);
  return { ...toContact(row), lists: await repo.listsOfContact(db, row.id) };
}

/** Creates a contact (and adds it to the given lists) in one transaction; 409 on a duplicate email. */
export async function createContact(db: Db, userId: string, body: z.output<typeof createContactBodySchema>): Promise<Contact> {
  const { listIds, ...fields } = body;
  return db.transaction(async (tx) => {
    for (const listId of listIds ?? []) {
      if (!(await repo.findList(tx, userId, listId))) throw new AppError('not_found', LIST_NOT_FOUND);
    }
    const row = await repo.insertContact(tx, { ...fields, tags: fields.tags ?? [], userId });
    if (!row) throw new AppError('conflict', CONTACT_EXISTS, { email: CONTACT_EXISTS });
    for (const listId of listIds ?? []) await repo.addMembers(tx, userId, listId, [row.id]);
    return toContact(row);
  });
}

export async function updateContact(db: Db, userId: string, id: number, body: z.output<typeof updateContactBodySchema>): Promise<Contact> {
  if (body.email !== undefined && (await repo.emailTaken(db, userId, body.email, id))) {
    throw new AppError('conflict', CONTACT_EXISTS, { email: CONTACT_EXISTS });
  }
  try {
    const row = await repo.updateContact(db, userId, id, body);
    if (!row) throw new AppError('not_found', CONTACT_NOT_FOUND);
    return toContact(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('conflict', CONTACT_EXISTS, { email: CONTACT_EXISTS });
    throw error;
  }
}

export async function deleteContact(db: Db, userId: string, id: number): Promise<void> {
  const deleted = await db.transaction((tx) => repo.deleteContacts(tx, userId, [id]));
  if (deleted === 0) throw new AppError('not_found', CONTACT_NOT_FOUND);
}

export async function bulkDelete(db: Db, userId: string, ids: number[]): Promise<number> {
  return db.transaction((tx) => repo.deleteContacts(tx, userId, ids));
}

export async function requireList(db: Db, userId: string, listId: number): Promise<repo.ContactListRow> {
  const list = await repo.findList(db, userId, listId);
  if (!list) throw new AppError('not_found', LIST_NOT_FOUND);
  return list;
}

export async function bulkAddToList(db: Db, userId: string, listId: number, ids: number[]): Promise<number> {
  await requireList(db, userId, listId);
  return db.transaction((tx) => repo.addMembers(tx, userId, listId, ids));
}

export async function bulkRemoveFromList(db: Db, userId: string, listId: number, ids: number[]): Promise<number> {
  await requireList(db, userId, listId);
  return db.transaction((tx) => repo.removeMembers(tx, userId, listId, ids));
}

export async function contactLists(db: Db, userId: string): Promise<ContactList[]> {
  return (await repo.listLists(db, userId)).map(toContactList);
}

/** Creates a list, optionally with members (the table's "Send Campaign" makes one from a selection). */
export async function createList(db: Db, userId: string, body: z.output<typeof createContactListBodySchema>): Promise<ContactList> {
  return db.transaction(async (tx) => {
    const row = await repo.insertList(tx, userId, body.name, body.description);
    if (!row) throw new AppError('conflict', LIST_EXISTS, { name: LIST_EXISTS });
    if (body.contactIds) await repo.addMembers(tx, userId, row.id, body.contactIds);
    const fresh = await repo.findList(tx, userId, row.id);
    return toContactList(fresh ?? row);
  });
}

export async function updateList(db: Db, userId: string, id: number, body: z.output<typeof updateContactListBodySchema>): Promise<ContactList> {
  try {
    const row = await repo.updateList(db, userId, id, body);
    if (!row) throw new AppError('not_found', LIST_NOT_FOUND);
    return toContactList(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('conflict', LIST_EXISTS, { name: LIST_EXISTS });
    throw error;
  }
}

/** Deletes a list; its contacts stay. */
export async function deleteList(db: Db, userId: string, id: number): Promise<void> {
  if (!(await repo.deleteList(db, userId, id))) throw new AppError('not_found', LIST_NOT_FOUND);
}

