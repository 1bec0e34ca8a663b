/** Among the user's domains, the one mail from `fromDomain` belongs to: itself, else its closest parent. */
export function closestDomain<Row extends { domain: string }>(
  rows: readonly Row[],
  fromDomain: string,
): Row | undefined {
  const wanted = fromDomain.trim().toLowerCase().replace(/\.$/, '');
  return rows
    .filter((row) => wanted === row.domain || wanted.endsWith(`.${row.domain}`))
    .sort((a, b) => b.domain.length - a.domain.length)[0];
}
