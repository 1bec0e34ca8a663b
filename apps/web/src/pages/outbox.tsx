import * as React from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { ChevronLeft, ChevronRight, Inbox, Mail, RefreshCw, Search, SearchX, Server } from 'lucide-react';

import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { useAuth } from '@/features/auth/api/use-auth';
import { useOutbox } from '@/features/outbox/api/use-outbox';
import { OutboxList } from '@/features/outbox/components/outbox-list';
import { TransportNotice } from '@/features/outbox/components/transport-notice';
import {
  listQueryString,
  OUTBOX_PAGE_SIZE,
  pageCount,
  pageRangeText,
  readListQuery,
} from '@/features/outbox/outbox-view';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { cn } from '@/lib/utils';

/** Search waits this long after the last key stroke before asking the server. */
const SEARCH_DEBOUNCE_MS = 300;

/**
 * /outbox: the mail the built-in catcher stored (no SMTP_URL), newest first, with search and
 * paging kept in the URL; each message opens its viewer. With SMTP_URL set it says mail goes there.
 */
export default function OutboxPage() {
  const { isAuthenticated } = useAuth();
  const [, navigate] = useLocation();
  const query = readListQuery(useSearch());
  const [searchText, setSearchText] = React.useState(query.search);
  const debouncedSearch = useDebouncedValue(searchText.trim(), SEARCH_DEBOUNCE_MS);

  // The URL leads: when Back or a link changes its search, the box follows.
  const [searchInUrl, setSearchInUrl] = React.useState(query.search);
  if (query.search !== searchInUrl) {
    setSearchInUrl(query.search);
    if (query.search !== searchText.trim()) setSearchText(query.search);
  }
  // Typing leads once it pauses: a new search starts again at page 1, replacing the URL rather
  // than adding a history entry per pause. Only a change of the typed search moves the URL, so a
  // Back that changed the URL is not undone by the search box's older value.
  const lastTypedSearch = React.useRef(debouncedSearch);
  React.useEffect(() => {
    if (debouncedSearch === lastTypedSearch.current) return;
    lastTypedSearch.current = debouncedSearch;
    if (debouncedSearch !== query.search)
      navigate(`/outbox${listQueryString({ search: debouncedSearch, page: 1 })}`, { replace: true });
  }, [debouncedSearch, query.search, navigate]);

  const outbox = useOutbox({ search: query.search, page: query.page, pageSize: OUTBOX_PAGE_SIZE }, isAuthenticated);
  const messages = outbox.data?.messages ?? [];
  const total = outbox.data?.total ?? 0;
  const pages = pageCount(total, OUTBOX_PAGE_SIZE);
  const goToPage = (page: number) => navigate(`/outbox${listQueryString({ search: query.search, page })}`);

  // A page past the end (messages went away, or an old link) shows the last page instead.
  React.useEffect(() => {
    if (outbox.data && !outbox.isPlaceholderData && query.page > pages) {
      navigate(`/outbox${listQueryString({ search: query.search, page: pages })}`, { replace: true });
    }
  }, [outbox.data, outbox.isPlaceholderData, query.page, query.search, pages, navigate]);

  const listSuffix = listQueryString(query);
  const messageHref = (id: number) => `/outbox/${id}${listSuffix}`;
  const transport = outbox.data?.transport;
  const nothingStored =
    outbox.data !== undefined && !outbox.isPlaceholderData && total === 0 && !query.search && !searchText;

  return (
    <div className="space-y-6">
      <PageHeader
        title="Outbox"
        description="Mail the built-in catcher stored instead of delivering it, exactly as recipients would get it."
        actions={
          <Button variant="outline" onClick={() => void outbox.refetch()} disabled={!outbox.data || outbox.isFetching}>
            <RefreshCw className={cn(outbox.isFetching && 'animate-spin')} aria-hidden="true" />
            Refresh
          </Button>
        }
      />

      {outbox.isLoading ? (
        <Skeleton className="h-[74px] w-full rounded-lg" aria-hidden="true" />
      ) : (
        transport &&
        !(nothingStored && transport === 'smtp') && (
          <TransportNotice transport={transport} hasMessages={total > 0 || Boolean(query.search)} />
        )
      )}

      {outbox.isError ? (
        <Card>
          <CardContent>
            <p className="text-destructive text-sm" role="alert">
              Could not load your outbox. Please refresh the page.
            </p>
          </CardContent>
        </Card>
      ) : nothingStored ? (
        transport === 'smtp' ? (
          <EmptyState icon={Server} title="Mail goes to your SMTP server">
            SMTP_URL is set, so every message is delivered through your SMTP server and no copy is kept here. Messages
            appear on this page only when no SMTP server is configured.
          </EmptyState>
        ) : (
          <EmptyState
            icon={Inbox}
            title="No messages yet"
            action={
              <Button asChild variant="outline">
                <Link href="/campaigns">
                  <Mail aria-hidden="true" />
                  Go to Campaigns
                </Link>
              </Button>
            }
          >
            While no SMTP server is configured, every email Sendwell sends (campaigns and test emails) is stored here
            instead of being delivered, so you can see exactly what your recipients would get. Send a test email from a
            campaign to see one.
          </EmptyState>
        )
      ) : (
        <div className="space-y-4">
          <div className="relative sm:max-w-sm">
            <Label htmlFor="outbox-search" className="sr-only">
              Search messages
            </Label>
            <Search
              className="text-muted-foreground pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2"
              aria-hidden="true"
            />
            <Input
              id="outbox-search"
              type="search"
              // Short enough to show whole at 390 px ('Search by recipient, sender or subje…'); the label says Search.
              placeholder="Recipient, sender or subject"
              className="pl-9"
              maxLength={200}
              value={searchText}
              onChange={(event) => setSearchText(event.target.value)}
            />
          </div>

          {!outbox.isLoading && messages.length === 0 ? (
            <Card>
              <CardContent className="flex flex-col items-center gap-2 py-10 text-center">
                <SearchX className="text-muted-foreground size-8" aria-hidden="true" />
                <p className="font-medium">No messages match “{query.search || searchText.trim()}”</p>
                <p className="text-muted-foreground text-sm">
                  Search looks at the recipient, the sender and the subject.
                </p>
                <Button variant="outline" size="sm" className="mt-2" onClick={() => setSearchText('')}>
                  Clear search
                </Button>
              </CardContent>
            </Card>
          ) : (
            <OutboxList
              messages={messages}
              isLoading={outbox.isLoading}
              dimmed={outbox.isPlaceholderData}
              messageHref={messageHref}
            />
          )}

          {total > 0 && (
            <nav
              aria-label="Outbox pagination"
              className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between"
            >
              <p className="text-muted-foreground text-sm" aria-live="polite">
                {pageRangeText(query.page, OUTBOX_PAGE_SIZE, total)}
              </p>
              {pages > 1 && (
                <div className="flex items-center gap-2">
                  <Button
                    variant="outline"
                    size="sm"
                    disabled={query.page <= 1}
                    onClick={() => goToPage(query.page - 1)}
                  >
                    <ChevronLeft aria-hidden="true" />
                    Previous
                  </Button>
                  <span className="text-muted-foreground text-sm whitespace-nowrap tabular-nums">
                    Page {query.page} of {pages}
                  </span>
                  <Button
                    variant="outline"
                    size="sm"
                    disabled={query.page >= pages}
                    onClick={() => goToPage(query.page + 1)}
                  >
                    Next
                    <ChevronRight aria-hidden="true" />
                  </Button>
                </div>
              )}
            </nav>
          )}
        </div>
      )}
    </div>
  );
}
