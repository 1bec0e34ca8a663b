import type { Suppression } from '@sendwell/contract/suppressions';

/** What put the address on the list, in words (the soft-bounce threshold writes its count into the detail). */
export function suppressionReasonLabel(row: Pick<Suppression, 'reason' | 'detail'>): string {
  switch (row.reason) {
    case 'bounce':
      return row.detail && /^\d+ soft bounces/.test(row.detail) ? 'Soft bounces' : 'Hard bounce';
    case 'complaint':
      return 'Complaint';
    case 'unsubscribe':
      return 'Unsubscribed';
    case 'unengaged':
      return 'Unengaged';
    default:
      return row.reason;
  }
}

/** "Showing 1–50 of 120" under the list. */
export function suppressionsRangeText(page: number, pageSize: number, total: number, onPage: number): string {
  if (total === 0 || onPage === 0) return `${total} suppressed`;
  const first = (page - 1) * pageSize + 1;
  return `Showing ${first}–${first + onPage - 1} of ${total}`;
}
