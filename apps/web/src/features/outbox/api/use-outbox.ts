import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { MailTransport, OutboxItem, OutboxList, OutboxMessage } from '@sendwell/contract/outbox';

import { apiJson, throwIfResNotOk } from '@/lib/api';
import { parseTotalCount, urlWithQuery } from '@/lib/api-paged';

/** Every Outbox query starts with this key. */
const OUTBOX_KEY = ['/api/outbox'] as const;

/** One page of stored messages, the total matching the search, and where new mail goes. */
export interface OutboxPage {
  messages: OutboxItem[];
  total: number;
  transport: MailTransport;
}

/** GET /api/outbox?search&page&pageSize → one page, its total (X-Total-Count) and the transport in use. */
export function useOutbox(filter: { search: string; page: number; pageSize: number }, enabled: boolean) {
  return useQuery<OutboxPage>({
    queryKey: [...OUTBOX_KEY, 'page', filter],
    queryFn: async ({ signal }) => {
      const res = await fetch(
        urlWithQuery('/api/outbox', { search: filter.search, page: filter.page, pageSize: filter.pageSize }),
        {
          credentials: 'include',
          signal,
        },
      );
      await throwIfResNotOk(res);
      const body = (await res.json()) as OutboxList;
      return { ...body, total: parseTotalCount(res.headers.get('X-Total-Count'), body.messages.length) };
    },
    enabled,
    // Mail arrives while the user is elsewhere (a campaign sending in the background): every visit asks again.
    staleTime: 0,
    // The previous page stays on screen while the next one loads, so the list does not jump.
    placeholderData: keepPreviousData,
  });
}

/** GET /api/outbox/:id → the message with its HTML, text, headers and source (a stored message never changes). */
export function useOutboxMessage(id: number | null, enabled: boolean) {
  return useQuery<OutboxMessage>({
    queryKey: [...OUTBOX_KEY, 'message', id],
    queryFn: () => apiJson<OutboxMessage>('GET', `/api/outbox/${id}`),
    enabled: enabled && id !== null,
  });
}
