import { describe, expect, it } from 'vitest';
import { uncoveredParts } from './id-ranges.ts';

describe('uncoveredParts', () => {
  it('keeps a range nothing covers', () => {
    expect(uncoveredParts({ fromId: 1, toId: 1000 }, [{ fromId: 1001, toId: 2000 }])).toEqual([
      { fromId: 1, toId: 1000 },
    ]);
  });
  it('drops a range a live job covers whole', () => {
    expect(uncoveredParts({ fromId: 249, toId: 1000 }, [{ fromId: 1, toId: 1000 }])).toEqual([]);
  });
  it('keeps what lies on either side of a cover, and only that', () => {
    expect(
      uncoveredParts({ fromId: 1, toId: 3000 }, [
        { fromId: 1001, toId: 2000 },
        { fromId: 2500, toId: 2600 },
      ]),
    ).toEqual([
      { fromId: 1, toId: 1000 },
      { fromId: 2001, toId: 2499 },
      { fromId: 2601, toId: 3000 },
    ]);
  });
  it('handles covers overlapping each other and the edges', () => {
    expect(
      uncoveredParts({ fromId: 10, toId: 20 }, [
        { fromId: 5, toId: 12 },
        { fromId: 11, toId: 15 },
        { fromId: 20, toId: 30 },
      ]),
    ).toEqual([{ fromId: 16, toId: 19 }]);
  });
});
