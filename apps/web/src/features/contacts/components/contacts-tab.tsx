import * as React from 'react';
import { useLocation } from 'wouter';
import {
  ChevronLeft,
  ChevronRight,
  ListPlus,
  Plus,
  Search,
  SearchX,
  Send,
  Trash2,
  Upload,
  Users,
  X,
} from 'lucide-react';
import type { Contact, ContactList } from '@sendwell/contract/contacts';

import { EmptyState } from '@/components/empty-state';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Badge } from '@/components/ui/badge';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { toastError } from '@/lib/toast-error';
import { formatDate } from '@/lib/format';
import { toast } from '@/lib/use-toast';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { cn } from '@/lib/utils';
import { useBulkDeleteContacts, useContacts, useCreateContactList, type ContactsFilter } from '../api/use-contacts';
import {
  contactDisplayName,
  hasNextPage,
  pageCount,
  PAGE_SIZES,
  paginationText,
  pluralContacts,
  selectionListName,
} from '../contact-rules';
import { AddToListDialog } from './add-to-list-dialog';
import { ContactStatusBadge, EngagementScore, TagList } from './contact-badges';
import { SelectAllCheckbox } from './select-all-checkbox';

/** Search waits this long after the last key stroke before asking the server. */
const SEARCH_DEBOUNCE_MS = 300;
const SKELETON_ROWS = 5;
const COLUMNS = 8;
// Secondary text in rows: text-muted-foreground falls below 4.5:1 on a selected (bg-muted) row.
const SUBTLE_TEXT = 'text-foreground/70';

type StatusFilter = 'all' | 'active' | 'unsubscribed';

/** The campaign editor, opened for a list (the campaigns page reads `new` and `listId`). */
export function newCampaignHref(listId: number): string {
  return `/campaigns?new=1&listId=${listId}`;
}

/**
 * All Contacts: server-side search (debounced), status and list filters, a paged table with
 * checkbox selection, and the bulk actions Add to List, Send Campaign and Delete.
 */
export function ContactsTab({
  enabled,
  lists,
  listFilter,
  onClearListFilter,
  onOpenContact,
  onImport,
  onNewContact,
}: {
  enabled: boolean;
  lists: readonly ContactList[];
  listFilter: ContactList | null;
  onClearListFilter: () => void;
  onOpenContact: (id: number) => void;
  onImport: () => void;
  onNewContact: () => void;
}) {
  const [, navigate] = useLocation();
  const [searchText, setSearchText] = React.useState('');
  const search = useDebouncedValue(searchText.trim(), SEARCH_DEBOUNCE_MS);
  const [status, setStatus] = React.useState<StatusFilter>('all');
  const [pageSize, setPageSize] = React.useState<number>(50);

  // Page and selection belong to one set of filters: changing a filter starts again at page 1, with nothing selected.
  const filterKey = JSON.stringify([search, status, listFilter?.id ?? null, pageSize]);
  const [paging, setPaging] = React.useState({ key: filterKey, page: 1 });
  const [selection, setSelection] = React.useState({ key: filterKey, ids: new Map<number, Contact>() });
  const page = paging.key === filterKey ? paging.page : 1;
  const selected = selection.key === filterKey ? selection.ids : new Map<number, Contact>();
  const setPage = (next: number) => setPaging({ key: filterKey, page: next });
  const setSelected = (ids: Map<number, Contact>) => setSelection({ key: filterKey, ids });
  const clearSelection = () => setSelected(new Map());

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
  const nextPage = hasNextPage(page, pageSize, total, exact, rows.length);
  const filtering = Boolean(search || status !== 'all' || listFilter);

  // After deletions the current page may no longer exist; go to the last one.
  React.useEffect(() => {
    if (!contacts.data || contacts.isPlaceholderData) return;
    if (exact && page > pages) setPaging({ key: filterKey, page: pages });
    else if (!exact && page > 1 && contacts.data.data.length === 0) setPaging({ key: filterKey, page: page - 1 });
  }, [contacts.data, contacts.isPlaceholderData, exact, page, pages, filterKey]);

  const [addToListOpen, setAddToListOpen] = React.useState(false);
  const [confirmDelete, setConfirmDelete] = React.useState(false);
  const bulkDelete = useBulkDeleteContacts();
  const createList = useCreateContactList();

  const pageIds = rows.map((row) => row.id);
  const selectedOnPage = pageIds.filter((id) => selected.has(id)).length;
  const headerChecked =
    rows.length > 0 && selectedOnPage === rows.length ? true : selectedOnPage > 0 ? 'indeterminate' : false;

  const toggleRow = (contact: Contact, checked: boolean) => {
    const next = new Map(selected);
    if (checked) next.set(contact.id, contact);
    else next.delete(contact.id);
    setSelected(next);
  };
  const togglePage = (checked: boolean) => {
    const next = new Map(selected);
    for (const row of rows) {
      if (checked) next.set(row.id, row);
      else next.delete(row.id);
    }
    setSelected(next);
  };

  const selectedIds = [...selected.keys()];

  const onBulkDelete = async () => {
    try {
      const { affected } = await bulkDelete.mutateAsync(selectedIds);
      toast({ title: 'Contacts deleted', description: `${pluralContacts(affected)} deleted.` });
      setConfirmDelete(false);
      clearSelection();
    } catch (error) {
      toastError(error, 'Failed to delete contacts');
    }
  };

  const onSendCampaign = async () => {
    try {
      const list = await createList.mutateAsync({ name: selectionListName(new Date()), contactIds: selectedIds });
      toast({
        title: 'List created',
        description: `“${list.name}” holds the ${pluralContacts(list.subscriberCount)} you selected.`,
      });
      navigate(newCampaignHref(list.id));
    } catch (error) {
      toastError(error, 'Failed to prepare the campaign list');
    }
  };

  if (!contacts.isLoading && !contacts.isError && total === 0 && !filtering && !searchText) {
    return (
      <EmptyState
        icon={Users}
        title="No contacts yet"
        action={
          <div className="flex flex-wrap justify-center gap-2">
            <Button variant="outline" onClick={onImport}>
              <Upload aria-hidden="true" />
              Import CSV
            </Button>
            <Button onClick={onNewContact}>
              <Plus aria-hidden="true" />
              New Contact
            </Button>
          </div>
        }
      >
        Import a CSV file or add your first contact to start building your audience.
      </EmptyState>
    );
  }

  return (
    <div className="space-y-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-center">
        <div className="relative min-w-0 flex-1 sm:max-w-sm">
          <Label htmlFor="contacts-search" className="sr-only">
            Search contacts
          </Label>
          <Search
            className="text-muted-foreground pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2"
            aria-hidden="true"
          />
          <Input
            id="contacts-search"
            type="search"
            placeholder="Search by name, email or company"
            className="pl-9"
            value={searchText}
            onChange={(event) => setSearchText(event.target.value)}
          />
        </div>
        <div className="flex items-center gap-2">
          <Label htmlFor="contacts-status" className="sr-only">
            Status
          </Label>
          <Select value={status} onValueChange={(value) => setStatus(value as StatusFilter)}>
            <SelectTrigger id="contacts-status" className="w-40">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value="all">All statuses</SelectItem>
              <SelectItem value="active">Active</SelectItem>
              <SelectItem value="unsubscribed">Unsubscribed</SelectItem>
            </SelectContent>
          </Select>
        </div>
        {listFilter && (
          <Badge variant="secondary" className="h-8 gap-1 py-0 pr-0.5 pl-2.5 text-sm font-normal">
            List: <span className="max-w-48 truncate font-medium">{listFilter.name}</span>
            <Button
              type="button"
              variant="ghost"
              size="icon"
              className="size-7 rounded-sm"
              aria-label={`Remove the list filter ${listFilter.name}`}
              onClick={onClearListFilter}
            >
              <X aria-hidden="true" />
            </Button>
          </Badge>
        )}
      </div>

      {selected.size > 0 && (
        <div
          role="region"
          aria-label="Bulk actions"
          className="bg-muted/60 flex flex-col gap-2 rounded-lg border p-2 sm:flex-row sm:items-center sm:justify-between"
        >
          <p className="px-2 text-sm font-medium" aria-live="polite">
            {pluralContacts(selected.size)} selected
          </p>
          <div className="flex flex-wrap gap-2">
            <Button size="sm" variant="outline" onClick={() => setAddToListOpen(true)}>
              <ListPlus aria-hidden="true" />
              Add to List
            </Button>
            <Button size="sm" variant="outline" disabled={createList.isPending} onClick={onSendCampaign}>
              <Send aria-hidden="true" />
              Send Campaign
            </Button>
            <Button size="sm" variant="destructive" onClick={() => setConfirmDelete(true)}>
              <Trash2 aria-hidden="true" />
              Delete
            </Button>
            <Button size="sm" variant="ghost" onClick={clearSelection}>
              Clear selection
            </Button>
          </div>
        </div>
      )}

      <Card className="gap-0 overflow-hidden py-0">
        <Table
          aria-label="Contacts"
          aria-busy={contacts.isFetching || undefined}
          className={cn(contacts.isPlaceholderData && 'opacity-60')}
        >
          <TableHeader>
            <TableRow className="hover:bg-transparent">
              <TableHead className="w-10 pl-4">
                <SelectAllCheckbox
                  label="Select all contacts on this page"
                  checked={headerChecked}
                  disabled={rows.length === 0}
                  onCheckedChange={togglePage}
                />
              </TableHead>
              <TableHead>Name</TableHead>
              <TableHead>Email</TableHead>
              <TableHead>Company</TableHead>
              <TableHead>Status</TableHead>
              <TableHead>Engagement</TableHead>
              <TableHead>Tags</TableHead>
              <TableHead className="pr-4">Added</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {contacts.isLoading ? (
              Array.from({ length: SKELETON_ROWS }, (_, i) => (
                <TableRow key={i} aria-hidden="true">
                  <TableCell className="pl-4">
                    <Skeleton className="size-4" />
                  </TableCell>
                  {[28, 40, 24, 16, 10, 20, 24].map((width, j) => (
                    <TableCell key={j}>
                      <Skeleton className="h-4" style={{ width: `${width * 4}px` }} />
                    </TableCell>
                  ))}
                </TableRow>
              ))
            ) : contacts.isError ? (
              <TableRow>
                <TableCell colSpan={COLUMNS} className="text-destructive py-10 text-center" role="alert">
                  Could not load your contacts. Please refresh the page.
                </TableCell>
              </TableRow>
            ) : rows.length === 0 ? (
              <TableRow className="hover:bg-transparent">
                <TableCell colSpan={COLUMNS} className="py-12">
                  <div className="flex flex-col items-center gap-2 text-center whitespace-normal">
                    <SearchX className="text-muted-foreground size-8" aria-hidden="true" />
                    <p className="font-medium">No contacts match your search</p>
                    <p className="text-muted-foreground text-sm">Try another search or clear the filters.</p>
                    <Button
                      variant="outline"
                      size="sm"
                      className="mt-2"
                      onClick={() => {
                        setSearchText('');
                        setStatus('all');
                        onClearListFilter();
                      }}
                    >
                      Clear filters
                    </Button>
                  </div>
                </TableCell>
              </TableRow>
            ) : (
              rows.map((contact) => {
                const isSelected = selected.has(contact.id);
                return (
                  <TableRow
                    key={contact.id}
                    data-state={isSelected ? 'selected' : undefined}
                    className="cursor-pointer"
                    onClick={() => onOpenContact(contact.id)}
                  >
                    <TableCell className="pl-4" onClick={(event) => event.stopPropagation()}>
                      <Checkbox
                        aria-label={`Select ${contact.email}`}
                        checked={isSelected}
                        onCheckedChange={(checked) => toggleRow(contact, checked === true)}
                      />
                    </TableCell>
                    <TableCell className="font-medium">
                      <button
                        type="button"
                        className="focus-visible:ring-ring/50 rounded-sm text-left hover:underline focus-visible:ring-[3px] focus-visible:outline-none"
                        onClick={(event) => {
                          event.stopPropagation();
                          onOpenContact(contact.id);
                        }}
                      >
                        {contactDisplayName(contact)}
                      </button>
                    </TableCell>
                    <TableCell className={SUBTLE_TEXT}>{contact.email}</TableCell>
                    <TableCell>{contact.company || <span className={SUBTLE_TEXT}>—</span>}</TableCell>
                    <TableCell>
                      <ContactStatusBadge contact={contact} />
                    </TableCell>
                    <TableCell>
                      <EngagementScore score={contact.engagementScore} />
                    </TableCell>
                    <TableCell>
                      <TagList tags={contact.tags} max={3} />
                    </TableCell>
                    <TableCell className={cn(SUBTLE_TEXT, 'pr-4')}>{formatDate(contact.createdAt)}</TableCell>
                  </TableRow>
                );
              })
            )}
          </TableBody>
        </Table>
      </Card>

      <nav
        aria-label="Contacts pagination"
        className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-center sm:justify-between"
      >
        <p className="text-muted-foreground text-sm" aria-live="polite">
          {contacts.isLoading ? 'Loading contacts…' : paginationText(page, pageSize, total, exact, rows.length)}
        </p>
        <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
          <div className="flex items-center gap-2">
            <Label htmlFor="contacts-page-size" className="text-muted-foreground text-sm font-normal">
              Rows per page
            </Label>
            <Select value={String(pageSize)} onValueChange={(value) => setPageSize(Number(value))}>
              <SelectTrigger id="contacts-page-size" size="sm" className="w-20">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {PAGE_SIZES.map((size) => (
                  <SelectItem key={size} value={String(size)}>
                    {size}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <div className="flex items-center gap-2">
            <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
              <ChevronLeft aria-hidden="true" />
              Previous
            </Button>
            <span className="text-muted-foreground text-sm whitespace-nowrap tabular-nums">
              {exact ? `Page ${page} of ${pages}` : `Page ${page}`}
            </span>
            <Button variant="outline" size="sm" disabled={!nextPage} onClick={() => setPage(page + 1)}>
              Next
              <ChevronRight aria-hidden="true" />
            </Button>
          </div>
        </div>
      </nav>

      <AddToListDialog
        open={addToListOpen}
        onOpenChange={setAddToListOpen}
        contactIds={selectedIds}
        lists={lists}
        onAdded={clearSelection}
      />

      <AlertDialog open={confirmDelete} onOpenChange={setConfirmDelete}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Delete {pluralContacts(selected.size)}?</AlertDialogTitle>
            <AlertDialogDescription>
              The selected contacts will be removed from your contacts and from every list. This cannot be undone.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction
              className={buttonVariants({ variant: 'destructive' })}
              disabled={bulkDelete.isPending}
              onClick={(event) => {
                event.preventDefault();
                void onBulkDelete();
              }}
            >
              {bulkDelete.isPending ? 'Deleting...' : `Delete ${pluralContacts(selected.size)}`}
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  );
}
