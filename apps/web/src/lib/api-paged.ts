import { throwIfResNotOk } from './api';

/** One page of a listing and the total the server reported in `X-Total-Count`. */
export interface Paged<T> {
  data: T[];
  total: number;
  /** False when the server stopped counting (`X-Total-Count-Exact: false`): the total is a lower bound. */
  exact: boolean;
}

/** The total of a paged answer: the X-Total-Count header, or the rows on the page when it is missing or malformed. */
export function parseTotalCount(header: string | null, rowsOnPage: number): number {
  if (header === null || header.trim() === '') return rowsOnPage;
  const total = Number(header);
  return Number.isInteger(total) && total >= 0 ? total : rowsOnPage;
}

/** `path?key=value…` with empty, null and undefined values left out. */
export function urlWithQuery(
  path: string,
  params: Record<string, string | number | boolean | null | undefined>,
): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    search.set(key, String(value));
  }
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

/** GETs a paged JSON listing with the session cookie; throws the transport error `{status}: {body}` on non-2xx. */
export async function fetchPaged<T>(url: string, signal?: AbortSignal): Promise<Paged<T>> {
  const res = await fetch(url, { credentials: 'include', signal });
  await throwIfResNotOk(res);
  const data = (await res.json()) as T[];
  return {
    data,
    total: parseTotalCount(res.headers.get('X-Total-Count'), data.length),
    exact: res.headers.get('X-Total-Count-Exact') !== 'false',
  };
}
