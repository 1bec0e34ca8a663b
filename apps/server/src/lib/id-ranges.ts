/** An inclusive range of ledger ids. */
export type IdRange = { fromId: number; toId: number };

/** The parts of `range` that none of `covered` holds, in order. */
export function uncoveredParts(range: IdRange, covered: readonly IdRange[]): IdRange[] {
  let parts: IdRange[] = [range];
  for (const cover of covered) {
    parts = parts.flatMap((part) => {
      if (cover.toId < part.fromId || cover.fromId > part.toId) return [part];
      const left = cover.fromId > part.fromId ? [{ fromId: part.fromId, toId: cover.fromId - 1 }] : [];
      const right = cover.toId < part.toId ? [{ fromId: cover.toId + 1, toId: part.toId }] : [];
      return [...left, ...right];
    });
  }
  return parts;
}
