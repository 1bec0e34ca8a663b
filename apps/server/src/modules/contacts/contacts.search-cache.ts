// Paging through a search over a million contacts re-ran the same LIKE scan for every page (tens
// to hundreds of ms each). This keeps each search's ordered matching ids in memory instead, tagged
// with the version of the user's contacts they were read at (contact_counts.version, moved by the
// triggers on every change that can alter a result). A page then costs one primary-key fetch that
// also checks the version in the same statement, so a stale entry is never served. Pure: no database.

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
export const DEFAULT_SEARCH_CACHE_LIMITS: SearchCacheLimits = { maxIds: 2_000_000, maxEntries: 5_000 };

/** Least-recently-used search results of all users, keyed by user, status filter and search text. */
export class ContactSearchCache {
  private readonly entries = new Map<string, CachedSearch>();
  private readonly loading = new Map<string, Promise<CachedSearch | null>>();
  private idsHeld = 0;

  constructor(private readonly limits: SearchCacheLimits = DEFAULT_SEARCH_CACHE_LIMITS) {}

  /** The key of one user's search: search matches lower-cased text, so case does not make a new entry. */
  static key(userId: string, search: string, status: 'active' | 'unsubscribed' | undefined): string {
    return `${userId}\u0000${status ?? 'all'}\u0000${search.toLowerCase()}`;
  }

  get size(): { entries: number; ids: number } {
    return { entries: this.entries.size, ids: this.idsHeld };
  }

  /** The entry for `key`, marked as just used. */
  get(key: string): CachedSearch | undefined {
    const entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  /** Stores an entry (replacing the key's old one), then evicts the least recently used past the limits. */
  set(key: string, entry: CachedSearch): void {
    this.remove(key);
    if (entry.ids.length > this.limits.maxIds) return;
    this.entries.set(key, entry);
    this.idsHeld += entry.ids.length;
    for (const [oldestKey] of this.entries) {
      if (this.idsHeld <= this.limits.maxIds && this.entries.size <= this.limits.maxEntries) break;
      this.remove(oldestKey);
    }
  }

  /** Forgets `entry` if it is still the one stored under `key` (a newer one may have replaced it meanwhile). */
  drop(key: string, entry: CachedSearch): void {
    if (this.entries.get(key) === entry) this.remove(key);
  }

  /**
   * The stored entry, or the result of `load` stored under `key`. Concurrent callers for one key
   * share one load, so fifty requests for a new search cost one scan. A null load is not stored.
   */
  async getOrLoad(key: string, load: () => Promise<CachedSearch | null>): Promise<CachedSearch | null> {
    const stored = this.get(key);
    if (stored) return stored;
    let pending = this.loading.get(key);
    if (!pending) {
      pending = load()
        .then((entry) => {
          if (entry) this.set(key, entry);
          return entry;
        })
        .finally(() => this.loading.delete(key));
      this.loading.set(key, pending);
    }
    return pending;
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.idsHeld -= entry.ids.length;
  }
}
