import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  idParamsSchema,
  INT32_MAX,
  isWithinDateRange,
  nulCharacterPaths,
  refusingNulCharacters,
  rowIdSchema,
} from './common.ts';

describe('request rules every route shares (security finding 6: 500 for bad input)', () => {
  it('finds every string holding a NUL character, by its path', () => {
    expect(nulCharacterPaths({ a: 'ok', b: ['x', 'y\u0000'], c: { d: '\u0000' }, e: 1, f: null })).toEqual([
      ['b', 1],
      ['c', 'd'],
    ]);
    expect(nulCharacterPaths('a\u0000')).toEqual([[]]);
    expect(nulCharacterPaths({ text: 'no NUL here', n: 0 })).toEqual([]);
  });

  it('walks input nested far deeper than the call stack allows', () => {
    const deep = JSON.parse('['.repeat(100_000) + '"\\u0000"' + ']'.repeat(100_000)) as unknown;
    expect(nulCharacterPaths(deep)[0]).toHaveLength(100_000);
    // A NUL at every level of 50,000: the first ten are named, not all (each path is as long as its
    // depth, so naming all would take billions of steps and time the test out).
    const everyLevel = JSON.parse('["\\u0000",'.repeat(50_000) + '0' + ']'.repeat(50_000)) as unknown;
    expect(nulCharacterPaths(everyLevel)).toHaveLength(10);
  });

  it('refuses NUL before the schema runs, naming the field', () => {
    const schema = refusingNulCharacters(z.object({ name: z.string(), tags: z.array(z.string()) }));
    const refused = schema.safeParse({ name: 'a\u0000', tags: ['ok', '\u0000'] });
    expect(refused.error?.issues.map((issue) => [issue.path, issue.message])).toEqual([
      [['name'], 'name must not contain NUL characters'],
      [['tags', 1], 'tags.1 must not contain NUL characters'],
    ]);
    expect(schema.parse({ name: 'a', tags: [] })).toEqual({ name: 'a', tags: [] });
  });

  it('bounds ids to int4, in paths (as not found) and in bodies', () => {
    expect(idParamsSchema.safeParse({ id: String(INT32_MAX) }).success).toBe(true);
    expect(idParamsSchema.safeParse({ id: String(INT32_MAX + 1) }).error?.issues[0]?.message).toBe('Not found');
    const listId = rowIdSchema('Choose a list');
    expect(listId.safeParse(INT32_MAX).success).toBe(true);
    for (const bad of [INT32_MAX + 1, 0, -1, 1.5, 2 ** 53]) {
      expect(listId.safeParse(bad).error?.issues[0]?.message, String(bad)).toBe('Choose a list');
    }
  });

  it('takes dates from 1900-01-01 to the end of 9999-12-31 (UTC)', () => {
    expect(isWithinDateRange(Date.parse('1900-01-01T00:00:00Z'))).toBe(true);
    expect(isWithinDateRange(Date.parse('9999-12-31T23:59:59.999Z'))).toBe(true);
    expect(isWithinDateRange(Date.parse('1899-12-31T23:59:59.999Z'))).toBe(false);
    expect(isWithinDateRange(Date.parse('0000-01-01T00:00:00Z'))).toBe(false);
    expect(isWithinDateRange(Date.parse('9999-12-31T23:59:59-12:00'))).toBe(false);
    expect(isWithinDateRange(Number.NaN)).toBe(false);
  });
});
