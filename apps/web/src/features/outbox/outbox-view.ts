/** Messages per page of the Outbox list. */
export const OUTBOX_PAGE_SIZE = 25;

/** What the Outbox list shows, kept in its URL (`/outbox?q=spring&page=2`) so Back and reload return to it. */
export interface OutboxListQuery {
  search: string;
  page: number;
}

/** Reads the list's search and page from a URL query string; anything malformed means page 1 and no search. */
export function readListQuery(queryString: string): OutboxListQuery {
  const params = new URLSearchParams(queryString);
  const page = Number(params.get('page'));
  return { search: (params.get('q') ?? '').trim(), page: Number.isInteger(page) && page > 1 ? page : 1 };
}

/** The URL query string for a list state: '' for the first page without a search, else '?q=…&page=…'. */
export function listQueryString({ search, page }: OutboxListQuery): string {
  const params = new URLSearchParams();
  if (search.trim()) params.set('q', search.trim());
  if (page > 1) params.set('page', String(page));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** How many pages `total` messages fill (at least 1, so an empty list is "page 1 of 1"). */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** "Showing 26–50 of 120 messages", "1 message", or "No messages". */
export function pageRangeText(page: number, pageSize: number, total: number): string {
  if (total <= 0) return 'No messages';
  if (total === 1) return '1 message';
  const first = (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  const count = new Intl.NumberFormat('en-US').format(total);
  return first > total ? `${count} messages` : `Showing ${first}–${last} of ${count} messages`;
}

function dayKey(date: Date, timeZone: string | undefined): string {
  return date.toLocaleDateString('en-CA', { timeZone });
}

/**
 * A sent time for the list, as short as is still clear: the time for today ("3:05 PM"), the day
 * and time this year ("Mar 4, 3:05 PM"), the date for older mail ("Mar 4, 2025").
 */
export function formatSentAt(iso: string, now: Date = new Date(), timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  if (dayKey(date, timeZone) === dayKey(now, timeZone)) {
    return date.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit', timeZone });
  }
  const sameYear =
    date.toLocaleDateString('en-US', { year: 'numeric', timeZone }) ===
    now.toLocaleDateString('en-US', { year: 'numeric', timeZone });
  return sameYear
    ? date.toLocaleString('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZone })
    : date.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone });
}

/** A sent time in full, with seconds ("March 4, 2026 at 3:05:09 PM"), for the message view and tooltips. */
export function formatSentAtFull(iso: string, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleString('en-US', { dateStyle: 'long', timeStyle: 'medium', timeZone });
}

/**
 * The document the viewer's sandboxed iframe shows: the email's HTML with `<base target="_blank">`,
 * so a click on a link asks for a new window, which the sandbox (no allow-popups) refuses. The
 * frame never navigates away from the email, and nothing is fetched on a click.
 */
export function viewerDocument(html: string): string {
  const base = '<base target="_blank">';
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (head) return `${html.slice(0, head.index + head[0].length)}${base}${html.slice(head.index + head[0].length)}`;
  return `${base}${html}`;
}

/** A file name for downloading a message's source: its subject made safe, with the .eml extension. */
export function emlFileName(subject: string, id: number): string {
  const safe = subject
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .replace(/\s+/g, '-')
    .slice(0, 60);
  return `${safe || 'message'}-${id}.eml`;
}
