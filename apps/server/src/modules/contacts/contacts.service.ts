import type { z } from 'zod';
import type {
  Contact,
  ContactDetail,
  ContactTimeline,
  ContactList,
  contactsQuerySchema,
  createContactBodySchema,
  createContactListBodySchema,
  updateContactBodySchema,
  updateContactListBodySchema,
} from '@sendwell/contract/contacts';
import { BULK_MATCHING_MAX, BULK_MATCHING_TOO_MANY } from '@sendwell/contract/contacts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import type { Config } from '../../config.ts';
import { planLimitsOf, planOf, subscriberLimitError, warnUsageOnce, subscriberCountOf } from '../billing/index.ts';
import * as repo from './contacts.repo.ts';
import { ContactPageCache, ContactSearchCache, type CachedPage, type CachedSearch } from './contacts.search-cache.ts';
import { recordWebhookEvent } from '../webhooks/index.ts';

const CONTACT_EXISTS = 'A contact with this email already exists';
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

function toContactList(row: repo.ContactListRow): ContactList {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    subscriberCount: row.subscriberCount,
    createdAt: row.createdAt.toISOString(),
  };
}

/** A contact from a page row (timestamps as epoch milliseconds), with the keys in the contract's order. */
function contactOfPageRow(row: repo.ContactPageRow): Contact {
  return {
    id: row[0],
    email: row[1],
    firstName: row[2],
    lastName: row[3],
    company: row[4],
    jobTitle: row[5],
    phone: row[6],
    location: row[7],
    notes: row[8],
    tags: row[9],
    isActive: row[10],
    subscriptionDate: new Date(row[11]).toISOString(),
    createdAt: new Date(row[12]).toISOString(),
    engagementScore: row[13],
    totalEmailsOpened: row[14],
    totalEmailsClicked: row[15],
    lastActivityAt: row[16] === null ? null : new Date(row[16]).toISOString(),
  };
}

/**
 * A page of the user's contacts and the total for the X-Total-Count header: as contacts, or, for a
 * cached search, as the JSON array of those contacts already serialised.
 */
export type ContactsPage = ({ contacts: Contact[] } | { json: string }) & { total: number; exact: boolean };

type ContactsQuery = z.output<typeof contactsQuerySchema>;

/** A stored page and its key in the page cache. */
export type StoredPage = { key: string; page: CachedPage };

/**
 * A page of the user's contacts and the total for the X-Total-Count header. `confirmed` is a stored
 * page already confirmed current in this request (along the session lookup; see storedSearchPage).
 */
export async function searchContacts(
  db: Db,
  userId: string,
  query: ContactsQuery,
  confirmed?: StoredPage | null,
): Promise<ContactsPage> {
  if (query.listId !== undefined && !(await repo.findList(db, userId, query.listId)))
    throw new AppError('not_found', LIST_NOT_FOUND);
  const page = { offset: (query.page - 1) * query.pageSize, limit: query.pageSize };
  const keys = cacheKeys(userId, query);
  if (keys) {
    const cached =
      confirmed?.key === keys.page
        ? confirmed.page
        : await cachedSearchPage(db, userId, { search: keys.search, status: query.status }, keys, page);
    if (cached) return { json: cached.body, total: cached.total, exact: cached.exact };
  }
  const { rows, total, exact } = await repo.listContacts(db, userId, query, page);
  return { contacts: rows.map(toContact), total, exact };
}

/** The keys of a query's search and page in the caches; null for a query that is not cached. */
function cacheKeys(userId: string, query: ContactsQuery): { search: string; searchKey: string; page: string } | null {
  // List membership is not covered by the contacts version, so only list-free searches are cached.
  if (!query.search || query.listId !== undefined) return null;
  const searchKey = ContactSearchCache.key(userId, query.search, query.status);
  return {
    search: query.search,
    searchKey,
    page: ContactPageCache.key(searchKey, (query.page - 1) * query.pageSize, query.pageSize),
  };
}

/**
 * The stored page the query would be answered from, not yet confirmed current: the caller confirms
 * it (pageIsCurrentAlongSession) and passes it to searchContacts, or drops it with dropStoredPage.
 */
export function storedSearchPage(db: Db, userId: string, query: ContactsQuery): StoredPage | null {
  const keys = cacheKeys(userId, query);
  const page = keys ? cachesOf(db).pages.get(keys.page) : undefined;
  return keys && page ? { key: keys.page, page } : null;
}

/** The question that confirms a stored page along the session lookup (one round trip for both). */
export const storedPageQuestion = repo.pageIsCurrentAlongSession;

/** The values of storedPageQuestion for a page picked for the user `userId`. */
export function storedPageCheckValues(userId: string, stored: StoredPage): Record<string, unknown> {
  return { pageUserId: userId, ...repo.pageCheckValues(stored.page) };
}

/** Forgets a stored page found stale (if it is still the one stored). */
export function dropStoredPage(db: Db, stored: StoredPage): void {
  cachesOf(db).pages.drop(stored.key, stored.page);
}

/** The search caches of one database handle (tests run several apps, each on its own database, in one process). */
const caches = new WeakMap<Db, { searches: ContactSearchCache; pages: ContactPageCache }>();

function cachesOf(db: Db): { searches: ContactSearchCache; pages: ContactPageCache } {
  let found = caches.get(db);
  if (!found) {
    found = { searches: new ContactSearchCache(), pages: new ContactPageCache() };
    caches.set(db, found);
  }
  return found;
}

export function searchCacheOf(db: Db): ContactSearchCache {
  return cachesOf(db).searches;
}

export function pageCacheOf(db: Db): ContactPageCache {
  return cachesOf(db).pages;
}

/**
 * A page of a search, serialised: the stored page if one statement confirms it is still current,
 * else built from the cached matching ids (read once per search and version of the user's contacts,
 * up to COUNT_CAP + 1 of them) and stored. Null when the page lies beyond the ids read or the
 * contacts kept changing between reads: the caller then queries directly.
 */
async function cachedSearchPage(
  db: Db,
  userId: string,
  filter: { search: string; status?: 'active' | 'unsubscribed' },
  keys: { searchKey: string; page: string },
  page: { offset: number; limit: number },
): Promise<CachedPage | null> {
  const { pages } = cachesOf(db);
  const arrived = nextMoment();
  const stored = pages.get(keys.page);
  if (stored) {
    if (await pageIsCurrentSince(db, userId, stored, arrived)) return stored;
    pages.drop(keys.page, stored);
  }
  // Fifty connections asking for a new page at once built it fifty times (most of the bench's first
  // seconds). They now share one build; it may have read before this request began, so its page is
  // served only after the same check as a stored page, and built afresh if that fails.
  const underWay = pages.pending(keys.page);
  if (underWay) {
    // A build that failed is the builder's error; this request builds for itself.
    const shared = await underWay.catch(() => null);
    if (shared && (await pageIsCurrentSince(db, userId, shared, arrived))) return shared;
  }
  return pages.load(keys.page, () => pageFromMatchingIds(db, userId, filter, keys.searchKey, page));
}

/** Program order of request arrivals and checks, to tell which check began after which arrival. */
let moments = 0;

function nextMoment(): number {
  moments += 1;
  return moments;
}

/** The latest check of each page: when it began, and its answer. */
const pageChecks = new WeakMap<CachedPage, { begun: number; current: Promise<boolean> }>();

/**
 * Whether `page` is still current, answered by a check that began after the moment `arrived`: a
 * check that began after a request arrived reads a snapshot at least as new as the request, so
 * requests that arrived before it share its answer (the fifty that joined one build make one check).
 */
function pageIsCurrentSince(db: Db, userId: string, page: CachedPage, arrived: number): Promise<boolean> {
  const latest = pageChecks.get(page);
  if (latest && latest.begun > arrived) return latest.current;
  const check = { begun: nextMoment(), current: repo.contactPageIsCurrent(db, userId, page) };
  pageChecks.set(page, check);
  return check.current;
}

/** A page built from the search's cached matching ids (loaded if need be), or null (see cachedSearchPage). */
async function pageFromMatchingIds(
  db: Db,
  userId: string,
  filter: { search: string; status?: 'active' | 'unsubscribed' },
  searchKey: string,
  page: { offset: number; limit: number },
): Promise<CachedPage | null> {
  const { searches } = cachesOf(db);
  const load = async (): Promise<CachedSearch | null> => {
    const { version, ids } = await repo.matchingContactIds(db, userId, filter, repo.COUNT_CAP + 1);
    return version === null ? null : { version, ids: Int32Array.from(ids), complete: ids.length <= repo.COUNT_CAP };
  };
  // A second round covers an entry that went stale; a third change in a row is left to the direct query.
  for (let round = 0; round < 2; round += 1) {
    const entry = await searches.getOrLoad(searchKey, load);
    if (!entry) return null;
    const end = page.offset + page.limit;
    if (!entry.complete && end > entry.ids.length) return null;
    const built = await buildPage(db, userId, entry, entry.ids.subarray(page.offset, end));
    if (built) return built;
    searches.drop(searchKey, entry);
  }
  return null;
}

/** The page of `entry` holding `pageIds`, or null if the user's contacts are no longer at the entry's version. */
async function buildPage(db: Db, userId: string, entry: CachedSearch, pageIds: Int32Array): Promise<CachedPage | null> {
  const ids = repo.arrayLiteral(pageIds);
  const total = entry.complete ? entry.ids.length : repo.COUNT_CAP;
  if (pageIds.length === 0) {
    const empty: CachedPage = {
      version: entry.version,
      ids,
      ctids: '{}',
      xmins: '{}',
      count: 0,
      body: '[]',
      total,
      exact: entry.complete,
    };
    return (await repo.contactPageIsCurrent(db, userId, empty)) ? empty : null;
  }
  const rows = await repo.contactPageAtVersion(db, userId, ids, pageIds.length, entry.version);
  if (!rows) return null;
  const byId = new Map(rows.map((row) => [row[0], row]));
  const contacts = Array.from(pageIds, (id) => contactOfPageRow(byId.get(id) as repo.ContactPageRow));
  return {
    version: entry.version,
    ids,
    ctids: repo.arrayLiteral(
      rows.map((row) => row[17]),
      true,
    ),
    // Distinct: rows written together share one (an import batch), and the check tests membership only.
    xmins: repo.arrayLiteral([...new Set(rows.map((row) => row[18]))]),
    count: rows.length,
    body: JSON.stringify(contacts),
    total,
    exact: entry.complete,
  };
}

export async function getContact(db: Db, userId: string, id: number): Promise<ContactDetail> {
  const row = await repo.findContact(db, userId, id);
  if (!row) throw new AppError('not_found', CONTACT_NOT_FOUND);
  return { ...toContact(row), lists: await repo.listsOfContact(db, row.id) };
}

/**
 * One page of everything that happened with the contact (mail sent, opens, clicks, bounces,
 * complaints, unsubscribes, sequences, forms, lead captures, purchases), newest first, and whether
 * its address is suppressed: the account's own contact only (404 else).
 */
export async function contactTimeline(
  db: Db,
  userId: string,
  id: number,
  query: { page: number; pageSize: number },
): Promise<ContactTimeline> {
  const row = await repo.findContact(db, userId, id);
  if (!row) throw new AppError('not_found', CONTACT_NOT_FOUND);
  const rows = await repo.timelineOfContact(
    db,
    userId,
    { id: row.id, email: row.email },
    { limit: query.pageSize, offset: (query.page - 1) * query.pageSize },
  );
  const suppression = await repo.suppressionOf(db, userId, row.email);
  return {
    events: rows.slice(0, query.pageSize).map((event) => ({
      type: event.type as ContactTimeline['events'][number]['type'],
      reason: event.reason,
      // Soft bounces are recorded with a 'soft:' detail (modules/bounces); the rest of a bounce is hard.
      hard: event.type === 'bounce' ? !(event.detail ?? '').startsWith('soft:') : null,
      machine: event.machine,
      url: event.url,
      detail: event.detail,
      campaignId: event.campaignId,
      campaignName: event.campaignName,
      sequenceId: event.sequenceId,
      sequenceName: event.sequenceName,
      sourceName: event.sourceName,
      at: event.at.toISOString(),
    })),
    page: query.page,
    hasMore: rows.length > query.pageSize,
    suppression: suppression
      ? { reason: suppression.reason, detail: suppression.detail, since: suppression.since.toISOString() }
      : null,
  };
}

/**
 * Creates a contact (and adds it to the given lists) in one transaction; 409 on a duplicate email,
 * 403 past the plan's subscriber limit (counted with the account row locked, so at the limit only
 * one of two concurrent creates succeeds).
 */
export async function createContact(
  db: Db,
  userId: string,
  body: z.output<typeof createContactBodySchema>,
  config: Pick<Config, 'billingEnabled'>,
): Promise<Contact> {
  const { listIds, ...fields } = body;
  return db.transaction(async (tx) => {
    const plan = await repo.lockAccountPlan(tx, userId);
    const limit = plan === undefined ? null : planLimitsOf(config, { plan }).subscribers;
    const before = limit !== null ? await subscriberCountOf(tx, userId) : 0;
    if (limit !== null && plan !== undefined && before >= limit) {
      if ((await repo.existingEmails(tx, userId, [fields.email])).size === 0)
        throw subscriberLimitError({ plan }, limit);
    }
    // A duplicate email below rolls this back with the contact.
    if (plan !== undefined)
      await warnUsageOnce(tx, userId, {
        kind: 'subscribers',
        before,
        after: before + 1,
        limit,
        planName: planOf({ plan }).name,
      });
    for (const listId of listIds ?? []) {
      if (!(await repo.findList(tx, userId, listId))) throw new AppError('not_found', LIST_NOT_FOUND);
    }
    const row = await repo.insertContact(tx, { ...fields, tags: fields.tags ?? [], userId });
    if (!row) throw new AppError('conflict', CONTACT_EXISTS, { email: CONTACT_EXISTS });
    for (const listId of listIds ?? []) await repo.addMembers(tx, userId, listId, [row.id]);
    await recordWebhookEvent(tx, userId, 'contact.created', toContact(row));
    return toContact(row);
  });
}

/** What saveContactToList writes: the contact's fields, and tags and a note line (none when empty) to add to what it has. */
export type ContactFromLead = {
  email: string;
  firstName: string;
  lastName: string;
  company: string | null;
  jobTitle: string | null;
  phone: string | null;
  location: string | null;
  addTags: string[];
  addNote: string;
};

/**
 * Creates the contact with this email or updates the one there is (fields it lacks are filled, the
 * tags and note line are added), and adds it to the list, in one transaction (`db` may be one).
 * Converting a lead uses it. 404 when the list is not the user's.
 */
export async function saveContactToList(
  db: DbOrTx,
  userId: string,
  listId: number,
  fields: ContactFromLead,
): Promise<{ contact: Contact; created: boolean }> {
  if (!(await repo.findList(db, userId, listId))) throw new AppError('not_found', LIST_NOT_FOUND);
  const { addTags, addNote, ...values } = fields;
  const existing = await repo.findContactByEmail(db, userId, values.email);
  let row: repo.ContactRow | undefined;
  if (existing) {
    row = await repo.updateContact(db, userId, existing.id, {
      firstName: existing.firstName || values.firstName,
      lastName: existing.lastName || values.lastName,
      company: existing.company ?? values.company,
      jobTitle: existing.jobTitle ?? values.jobTitle,
      phone: existing.phone ?? values.phone,
      location: existing.location ?? values.location,
      tags: [...new Set([...existing.tags, ...addTags])],
      notes: !addNote ? existing.notes : existing.notes ? `${existing.notes}\n${addNote}` : addNote,
    });
  } else {
    row = await repo.insertContact(db, { ...values, userId, tags: addTags, notes: addNote || null });
  }
  if (!row) throw new AppError('conflict', CONTACT_EXISTS, { email: CONTACT_EXISTS });
  await repo.addMembers(db, userId, listId, [row.id]);
  return { contact: toContact(row), created: !existing };
}

export async function updateContact(
  db: Db,
  userId: string,
  id: number,
  body: z.output<typeof updateContactBodySchema>,
): Promise<Contact> {
  if (body.email !== undefined && (await repo.emailTaken(db, userId, body.email, id))) {
    throw new AppError('conflict', CONTACT_EXISTS, { email: CONTACT_EXISTS });
  }
  try {
    const row = await repo.updateContact(db, userId, id, body);
    if (!row) throw new AppError('not_found', CONTACT_NOT_FOUND);
    await recordWebhookEvent(db, userId, 'contact.updated', toContact(row));
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

/** What a bulk action applies to: the selected ids, or every contact matching the table's filters. */
export type BulkTarget = { contactIds?: number[]; matching?: repo.ContactFilter };

/**
 * The ids a bulk action touches, read in the action's transaction: the user's own contacts only
 * (every repo statement filters by user as well); "all matching" is the table's query, server-side.
 */
async function targetIds(tx: DbOrTx, userId: string, target: BulkTarget): Promise<number[]> {
  if (!target.matching) return target.contactIds ?? [];
  const ids = await repo.contactIdsMatching(tx, userId, target.matching, BULK_MATCHING_MAX + 1);
  if (ids.length > BULK_MATCHING_MAX) throw new AppError('bad_request', BULK_MATCHING_TOO_MANY);
  return ids;
}

export async function bulkDelete(db: Db, userId: string, target: BulkTarget): Promise<number> {
  return db.transaction(async (tx) => {
    const ids = await targetIds(tx, userId, target);
    return ids.length === 0 ? 0 : repo.deleteContacts(tx, userId, ids);
  });
}

export async function requireList(db: Db, userId: string, listId: number): Promise<repo.ContactListRow> {
  const list = await repo.findList(db, userId, listId);
  if (!list) throw new AppError('not_found', LIST_NOT_FOUND);
  return list;
}

export async function bulkAddToList(db: Db, userId: string, listId: number, target: BulkTarget): Promise<number> {
  await requireList(db, userId, listId);
  return db.transaction(async (tx) => repo.addMembers(tx, userId, listId, await targetIds(tx, userId, target)));
}

export async function bulkRemoveFromList(db: Db, userId: string, listId: number, target: BulkTarget): Promise<number> {
  await requireList(db, userId, listId);
  return db.transaction(async (tx) => {
    const ids = await targetIds(tx, userId, target);
    return ids.length === 0 ? 0 : repo.removeMembers(tx, userId, listId, ids);
  });
}

export async function contactLists(db: Db, userId: string): Promise<ContactList[]> {
  return (await repo.listLists(db, userId)).map(toContactList);
}

/** Creates a list, optionally with members (the table's "Send Campaign" makes one from a selection). */
export async function createList(
  db: Db,
  userId: string,
  body: z.output<typeof createContactListBodySchema>,
): Promise<ContactList> {
  return db.transaction(async (tx) => {
    const row = await repo.insertList(tx, userId, body.name, body.description);
    if (!row) throw new AppError('conflict', LIST_EXISTS, { name: LIST_EXISTS });
    if (body.contactIds) await repo.addMembers(tx, userId, row.id, body.contactIds);
    const fresh = await repo.findList(tx, userId, row.id);
    return toContactList(fresh ?? row);
  });
}

export async function updateList(
  db: Db,
  userId: string,
  id: number,
  body: z.output<typeof updateContactListBodySchema>,
): Promise<ContactList> {
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
