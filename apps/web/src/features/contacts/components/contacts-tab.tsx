import { Plus, Search, Upload, Users, X } from 'lucide-react';
import type { ContactList } from '@sendwell/contract/contacts';

import { EmptyState } from '@/components/empty-state';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { useMediaQuery } from '@/lib/use-media-query';
import { ContactCards } from './contact-cards';
import { ContactsBulkActions } from './contacts-bulk-actions';
import { ContactsPagination } from './contacts-pagination';
import { ContactsTable } from './contacts-table';
import { useContactsTable, type StatusFilter } from './use-contacts-table';

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
  const table = useContactsTable({ listFilter, enabled });
  // Below the md breakpoint the eight columns do not fit: one card per contact instead.
  const wide = useMediaQuery('(min-width: 768px)');
  const Rows = wide ? ContactsTable : ContactCards;
  const { contacts, searchText } = table;

  if (!contacts.isLoading && !contacts.isError && table.total === 0 && !table.filtering && !searchText) {
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
            onChange={(event) => table.setSearchText(event.target.value)}
          />
        </div>
        <div className="flex items-center gap-2">
          <Label htmlFor="contacts-status" className="sr-only">
            Status
          </Label>
          <Select value={table.status} onValueChange={(value) => table.setStatus(value as StatusFilter)}>
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

      <ContactsBulkActions
        target={table.bulkTarget}
        exact={table.exact}
        selectAllMatching={table.canSelectAllMatching ? table.selectAllMatching : null}
        total={table.total}
        lists={lists}
        onClearSelection={table.clearSelection}
      />

      <Rows
        table={table}
        onOpenContact={onOpenContact}
        onClearFilters={() => {
          table.setSearchText('');
          table.setStatus('all');
          onClearListFilter();
        }}
      />

      <ContactsPagination table={table} />
    </div>
  );
}
