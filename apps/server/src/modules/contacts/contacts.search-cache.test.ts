import { describe, expect, it } from 'vitest';
import { ContactSearchCache, type CachedSearch } from './contacts.search-cache.ts';

function entry(version: string, count: number): CachedSearch {
  return { version, ids: Int32Array.from({ length: count }, (_, i) => i + 1), complete: true };
}

describe('ContactSearchCache', () => {
  it('keys by user, status and lower-cased search', () => {
    expect(ContactSearchCache.key('u1', 'Hopper', undefined)).toBe(ContactSearchCache.key('u1', 'hopper', undefined));
    expect(ContactSearchCache.key('u1', 'hopper', undefined)).not.toBe(ContactSearchCache.key('u2', 'hopper', undefined));
    expect(ContactSearchCache.key('u1', 'hopper', 'active')).not.toBe(ContactSearchCache.key('u1', 'hopper', undefined));
    expect(ContactSearchCache.key('u1', 'hopper', 'active')).not.toBe(ContactSearchCache.key('u1', 'hopper', 'unsubscribed'));
  });

  it('evicts the least recently used entries past the id budget', () => {
    const cache = new ContactSearchCache({ maxIds: 10, maxEntries: 100 });
    cache.set('a', entry('1', 4));
    cache.set('b', entry('1', 4));
    cache.get('a'); // a is now more recent than b
    cache.set('c', entry('1', 4));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')?.ids.length).toBe(4);
    expect(cache.get('c')?.ids.length).toBe(4);
    expect(cache.size).toEqual({ entries: 2, ids: 8 });
  });

  it('evicts past the entry budget, and never keeps an entry larger than the whole budget', () => {
    const cache = new ContactSearchCache({ maxIds: 10, maxEntries: 2 });
    cache.set('a', entry('1', 1));
    cache.set('b', entry('1', 1));
    cache.set('c', entry('1', 1));
    expect(cache.get('a')).toBeUndefined();
    cache.set('huge', entry('1', 11));
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.size).toEqual({ entries: 2, ids: 2 });
  });

  it('replacing a key releases the old entry’s ids', () => {
    const cache = new ContactSearchCache({ maxIds: 10, maxEntries: 10 });
    cache.set('a', entry('1', 6));
    cache.set('a', entry('2', 6));
    expect(cache.size).toEqual({ entries: 1, ids: 6 });
    expect(cache.get('a')?.version).toBe('2');
  });

  it('drops an entry only while it is still the stored one', () => {
    const cache = new ContactSearchCache();
    const old = entry('1', 1);
    cache.set('a', old);
    const newer = entry('2', 1);
    cache.set('a', newer);
    cache.drop('a', old);
    expect(cache.get('a')).toBe(newer);
    cache.drop('a', newer);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toEqual({ entries: 0, ids: 0 });
  });

  it('shares one load between concurrent callers and stores its result', async () => {
    const cache = new ContactSearchCache();
    let loads = 0;
    let release: (value: CachedSearch) => void = () => undefined;
    const load = () => {
      loads += 1;
      return new Promise<CachedSearch>((resolve) => {
        release = resolve;
      });
    };
    const first = cache.getOrLoad('a', load);
    const second = cache.getOrLoad('a', load);
    const loaded = entry('7', 3);
    release(loaded);
    expect(await first).toBe(loaded);
    expect(await second).toBe(loaded);
    expect(loads).toBe(1);
    expect(await cache.getOrLoad('a', load)).toBe(loaded);
    expect(loads).toBe(1);
  });

  it('stores neither a null load nor a failed one, and loads again next time', async () => {
    const cache = new ContactSearchCache();
    expect(await cache.getOrLoad('a', async () => null)).toBeNull();
    await expect(cache.getOrLoad('a', async () => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
    const loaded = entry('1', 1);
    expect(await cache.getOrLoad('a', async () => loaded)).toBe(loaded);
  });
});
