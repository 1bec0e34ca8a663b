import * as React from 'react';
import type { Contact, ContactList, ContactsMatching } from '@sendwell/contract/contacts';

import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useContacts, type BulkTarget, type ContactsFilter } from '../api/use-contacts';
import { hasNextPage, pageCount } from '../contact-rules';

/** Search waits this long after the last key stroke before asking the server. */
const SEARCH_DEBOUNCE_MS = 300;

export type StatusFilter = 'all' | 'active' | 'unsubscribed';

/**
 * All Contacts' table state: the search (debounced) and status filter, the page and page size,
 * the selected contacts, and the page of contacts the server answers for them.
 */
export function useContactsTable({ listFilter, enabled }: { listFilter: ContactList | null; enabled: boolean }) {
  const [searchText, setSearchText] = React.useState('');
  const search = useDebouncedValue(searchText.trim(), SEARCH_DEBOUNCE_MS);
  const [status, setStatus] = React.useState<StatusFilter>('all');
  const [pageSize, setPageSize] = React.useState<number>(50);

  // Page and selection belong to one set of filters: changing a filter starts again at page 1, with nothing selected.
  const filterKey = JSON.stringify([search, status, listFilter?.id ?? null, pageSize]);
  const [paging, setPaging] = React.useState({ key: filterKey, page: 1 });
  const [selection, setSelection] = React.useState({
    key: filterKey,
    ids: new Map<number, Contact>(),
    allMatching: false,
  });
  const page = paging.key === filterKey ? paging.page : 1;
  const current = selection.key === filterKey;
  const selected = current ? selection.ids : new Map<number, Contact>();
  // "Select all N matching": every contact the filters match, on the server, not only this page's rows.
  const allMatching = current && selection.allMatching;
  const setSelected = (ids: Map<number, Contact>) => setSelection({ key: filterKey, ids, allMatching: false });

  const filter: ContactsFilter = {
    search: search || undefined,
    status: status === 'all' ? undefined : status,
    listId: listFilter?.id,
    page,
    pageSize,
  };
  const contacts = useContacts(filter, enabled);
  const rows = contacts.data?.data ?? [];
  const total = contacts.data?.total ?? 0;
  const exact = contacts.data?.exact ?? true;
  const pages = pageCount(total, pageSize);

  // After deletions the current page may no longer exist; go to the last one.
  React.useEffect(() => {
    if (!contacts.data || contacts.isPlaceholderData) return;
    if (exact && page > pages) setPaging({ key: filterKey, page: pages });
    else if (!exact && page > 1 && contacts.data.data.length === 0) setPaging({ key: filterKey, page: page - 1 });
  }, [contacts.data, contacts.isPlaceholderData, exact, page, pages, filterKey]);

  const matching: ContactsMatching = {
    search: search || undefined,
    status: status === 'all' ? undefined : status,
    listId: listFilter?.id,
  };
  const bulkTarget: BulkTarget | null = allMatching
    ? { matching, count: total }
    : selected.size > 0
      ? { contactIds: [...selected.keys()], count: selected.size }
      : null;

  const selectedOnPage = rows.filter((row) => selected.has(row.id)).length;
  const pageChecked: boolean | 'indeterminate' =
    rows.length > 0 && selectedOnPage === rows.length ? true : selectedOnPage > 0 ? 'indeterminate' : false;

  return {
    contacts,
    rows,
    total,
    /** False when the server stopped counting: `total` is then a lower bound. */
    exact,
    pages,
    page,
    setPage: (next: number) => setPaging({ key: filterKey, page: next }),
    hasNextPage: hasNextPage(page, pageSize, total, exact, rows.length),
    pageSize,
    setPageSize,
    searchText,
    setSearchText,
    status,
    setStatus,
    /** Any filter is set: an empty answer means 'no match', not 'no contacts yet'. */
    filtering: Boolean(search || status !== 'all' || listFilter),
    selected,
    /** What the bulk actions apply to (the selected rows, or all matching), or null with nothing selected. */
    bulkTarget,
    allMatching,
    /** Offered once the whole page is selected and more contacts match than the page shows. */
    canSelectAllMatching: !allMatching && rows.length > 0 && selectedOnPage === rows.length && total > rows.length,
    selectAllMatching: () => setSelection({ key: filterKey, ids: selected, allMatching: true }),
    /** The header checkbox: all rows of the page, some of them, or none. */
    pageChecked,
    toggleRow: (contact: Contact, checked: boolean) => {
      const next = new Map(selected);
      if (checked) next.set(contact.id, contact);
      else next.delete(contact.id);
      setSelected(next);
    },
    togglePage: (checked: boolean) => {
      const next = new Map(selected);
      for (const row of rows) {
        if (checked) next.set(row.id, row);
        else next.delete(row.id);
      }
      setSelected(next);
    },
    clearSelection: () => setSelected(new Map()),
  };
}

export type ContactsTableState = ReturnType<typeof useContactsTable>;
