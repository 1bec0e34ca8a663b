// Paging through a search over a million contacts re-ran the same LIKE scan for every page (tens
// to hundreds of ms each). This keeps each search's ordered matching ids in memory instead, tagged
// with the version of the user's contacts they were read at (contact_counts.version, moved by the
// triggers on every change that can alter a result). A page then costs one primary-key fetch that
// also checks the version in the same statement, so a stale entry is never served; a page served
// before is kept serialised and costs one check of its rows (see CachedPage). Pure: no database.

/** The ids matching one search, newest first, as of one version of the user's contacts. */
export type CachedSearch = {
  /** contact_counts.version (as text) that `ids` were read at. */
  version: string;
  ids: Int32Array;
  /** False when the search matched more contacts than were read: `ids` is then only the first ones. */
  complete: boolean;
};

export type SearchCacheLimits = {
  /** Ids held over all entries (4 bytes each); least recently used entries go first. */
  maxIds: number;
  /** Entries held, so that many tiny searches cannot pile up keys without bound. */
  maxEntries: number;
};

/** 2,000,000 ids ≈ 8 MB of ids; 5,000 entries bound the keys (a search is at most 200 characters). */
const DEFAULT_SEARCH_CACHE_LIMITS: SearchCacheLimits = { maxIds: 2_000_000, maxEntries: 5_000 };

/** A least-recently-used map bounded by its number of entries and by the summed weight of its values. */
class WeightedLru<V> {
  private readonly values = new Map<string, V>();
  private readonly loads = new Map<string, Promise<V | null>>();
  private weightHeld = 0;

  constructor(
    private readonly weigh: (value: V) => number,
    private readonly maxWeight: number,
    private readonly maxEntries: number,
  ) {}

  get count(): number {
    return this.values.size;
  }

  get weight(): number {
    return this.weightHeld;
  }

  /** The value for `key`, marked as just used. */
  get(key: string): V | undefined {
    const value = this.values.get(key);
    if (value !== undefined) {
      this.values.delete(key);
      this.values.set(key, value);
    }
    return value;
  }

  /** Stores a value (replacing the key's old one), then evicts the least recently used past the limits. */
  set(key: string, value: V): void {
    this.remove(key);
    const weight = this.weigh(value);
    if (weight > this.maxWeight) return;
    this.values.set(key, value);
    this.weightHeld += weight;
    for (const [oldestKey] of this.values) {
      if (this.weightHeld <= this.maxWeight && this.values.size <= this.maxEntries) break;
      this.remove(oldestKey);
    }
  }

  /** Forgets `value` if it is still the one stored under `key` (a newer one may have replaced it meanwhile). */
  drop(key: string, value: V): void {
    if (this.values.get(key) === value) this.remove(key);
  }

  /** The load of `key` under way, if any (see load). */
  pending(key: string): Promise<V | null> | undefined {
    return this.loads.get(key);
  }

  /**
   * Runs `make` as the load of `key` that later callers find with pending(), and stores what it
   * gives (a null result is not stored), so concurrent callers for one key can share one load.
   */
  load(key: string, make: () => Promise<V | null>): Promise<V | null> {
    const made: Promise<V | null> = make()
      .then((value) => {
        if (value !== null) this.set(key, value);
        return value;
      })
      .finally(() => {
        if (this.loads.get(key) === made) this.loads.delete(key);
      });
    this.loads.set(key, made);
    return made;
  }

  private remove(key: string): void {
    const value = this.values.get(key);
    if (value === undefined) return;
    this.values.delete(key);
    this.weightHeld -= this.weigh(value);
  }
}

/** Least-recently-used search results of all users, keyed by user, status filter and search text. */
export class ContactSearchCache extends WeightedLru<CachedSearch> {
  constructor(limits: SearchCacheLimits = DEFAULT_SEARCH_CACHE_LIMITS) {
    super((entry) => entry.ids.length, limits.maxIds, limits.maxEntries);
  }

  /** The key of one user's search: search matches lower-cased text, so case does not make a new entry. */
  static key(userId: string, search: string, status: 'active' | 'unsubscribed' | undefined): string {
    return `${userId}\u0000${status ?? 'all'}\u0000${search.toLowerCase()}`;
  }

  get size(): { entries: number; ids: number } {
    return { entries: this.count, ids: this.weight };
  }

  /**
   * The stored entry, or the result of `load` stored under `key`. Concurrent callers for one key
   * share one load, so fifty requests for a new search cost one scan. A null load is not stored.
   */
  async getOrLoad(key: string, load: () => Promise<CachedSearch | null>): Promise<CachedSearch | null> {
    return this.get(key) ?? this.pending(key) ?? this.load(key, load);
  }
}

/**
 * One page of a cached search, already serialised. The contact_counts version only moves with
 * changes that can alter which contacts match and in what order; an edit of any other field
 * (engagement, notes, tags…) leaves it alone, so a page also remembers each row version it was
 * built from (address and creating transaction). It is served again only after one statement has
 * confirmed the version and those row versions (contactPageIsCurrent).
 */
export type CachedPage = {
  /** contact_counts.version (as text) the page's ids were read at. */
  version: string;
  /** The page's contact ids, row addresses (ctid) and distinct creating transactions (xmin), as Postgres array literals. */
  ids: string;
  ctids: string;
  xmins: string;
  /** How many contacts the page holds. */
  count: number;
  /** The JSON array answered for the page. */
  body: string;
  total: number;
  exact: boolean;
};

export type PageCacheLimits = {
  /** Characters of serialised bodies held over all pages; least recently used pages go first. */
  maxChars: number;
  maxPages: number;
};

/** 16M characters ≈ 750 pages of 50 contacts (16–32 MB); the id cache above keeps the searches themselves. */
const DEFAULT_PAGE_CACHE_LIMITS: PageCacheLimits = { maxChars: 16_000_000, maxPages: 5_000 };

/**
 * Least-recently-used serialised pages of all users, keyed by search key (user, status, text),
 * offset and page size. Building a page (decoding fifty rows, making the contacts, serialising them)
 * was most of a request's Node time; a page served from here costs one small check.
 */
export class ContactPageCache extends WeightedLru<CachedPage> {
  constructor(limits: PageCacheLimits = DEFAULT_PAGE_CACHE_LIMITS) {
    super((page) => page.body.length, limits.maxChars, limits.maxPages);
  }

  /** The key of one page of one search (see ContactSearchCache.key). */
  static key(searchKey: string, offset: number, limit: number): string {
    return `${searchKey}\u0000${offset}\u0000${limit}`;
  }

  get size(): { pages: number; chars: number } {
    return { pages: this.count, chars: this.weight };
  }
}
