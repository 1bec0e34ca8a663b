import { describe, expect, it } from 'vitest';
import { ContactPageCache, ContactSearchCache, type CachedPage, type CachedSearch } from './contacts.search-cache.ts';

function entry(version: string, count: number): CachedSearch {
  return { version, ids: Int32Array.from({ length: count }, (_, i) => i + 1), complete: true };
}

describe('ContactSearchCache', () => {
  it('keys by user, status and lower-cased search', () => {
    expect(ContactSearchCache.key('u1', 'Hopper', undefined)).toBe(ContactSearchCache.key('u1', 'hopper', undefined));
    expect(ContactSearchCache.key('u1', 'hopper', undefined)).not.toBe(
      ContactSearchCache.key('u2', 'hopper', undefined),
    );
    expect(ContactSearchCache.key('u1', 'hopper', 'active')).not.toBe(
      ContactSearchCache.key('u1', 'hopper', undefined),
    );
    expect(ContactSearchCache.key('u1', 'hopper', 'active')).not.toBe(
      ContactSearchCache.key('u1', 'hopper', 'unsubscribed'),
    );
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
    await expect(cache.getOrLoad('a', async () => Promise.reject(new Error('database down')))).rejects.toThrow(
      'database down',
    );
    const loaded = entry('1', 1);
    expect(await cache.getOrLoad('a', async () => loaded)).toBe(loaded);
  });
});

function page(version: string, body: string): CachedPage {
  return { version, ids: '{1}', ctids: '{"(0,1)"}', xmins: '{7}', count: 1, body, total: 1, exact: true };
}

describe('ContactPageCache', () => {
  it('keys by search key, offset and page size', () => {
    const search = ContactSearchCache.key('u1', 'hopper', undefined);
    expect(ContactPageCache.key(search, 0, 50)).not.toBe(ContactPageCache.key(search, 50, 50));
    expect(ContactPageCache.key(search, 0, 50)).not.toBe(ContactPageCache.key(search, 0, 25));
    expect(ContactPageCache.key(search, 0, 50)).not.toBe(
      ContactPageCache.key(ContactSearchCache.key('u2', 'hopper', undefined), 0, 50),
    );
  });

  it('evicts the least recently used pages past the character budget', () => {
    const cache = new ContactPageCache({ maxChars: 10, maxPages: 100 });
    cache.set('a', page('1', 'aaaa'));
    cache.set('b', page('1', 'bbbb'));
    cache.get('a'); // a is now more recent than b
    cache.set('c', page('1', 'cccc'));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')?.body).toBe('aaaa');
    expect(cache.get('c')?.body).toBe('cccc');
    expect(cache.size).toEqual({ pages: 2, chars: 8 });
  });

  it('evicts past the page budget, never keeps a page larger than the whole budget, and releases a replaced page', () => {
    const cache = new ContactPageCache({ maxChars: 10, maxPages: 2 });
    cache.set('a', page('1', 'a'));
    cache.set('b', page('1', 'b'));
    cache.set('c', page('1', 'c'));
    expect(cache.get('a')).toBeUndefined();
    cache.set('huge', page('1', 'x'.repeat(11)));
    expect(cache.get('huge')).toBeUndefined();
    cache.set('b', page('2', 'bbb'));
    expect(cache.size).toEqual({ pages: 2, chars: 4 });
  });

  it('lets callers find a build under way, stores its page, and forgets the build once done', async () => {
    const cache = new ContactPageCache();
    let finish: (value: CachedPage | null) => void = () => undefined;
    const built = cache.load('a', () => new Promise((resolve) => (finish = resolve)));
    expect(cache.pending('a')).toBe(built);
    expect(cache.get('a')).toBeUndefined();
    const made = page('1', '[1]');
    finish(made);
    expect(await built).toBe(made);
    expect(cache.pending('a')).toBeUndefined();
    expect(cache.get('a')).toBe(made);
    // A null build stores nothing; a failed one is forgotten too.
    expect(await cache.load('b', async () => null)).toBeNull();
    await expect(cache.load('c', async () => Promise.reject(new Error('database down')))).rejects.toThrow(
      'database down',
    );
    expect([cache.get('b'), cache.get('c'), cache.pending('b'), cache.pending('c')]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('drops a page only while it is still the stored one', () => {
    const cache = new ContactPageCache();
    const old = page('1', '[]');
    cache.set('a', old);
    const newer = page('2', '[]');
    cache.set('a', newer);
    cache.drop('a', old);
    expect(cache.get('a')).toBe(newer);
    cache.drop('a', newer);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toEqual({ pages: 0, chars: 0 });
  });
});
