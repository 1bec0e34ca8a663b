import { SearchX } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDate } from '@/lib/format';
import { cn } from '@/lib/utils';
import { contactDisplayName } from '../contact-rules';
import { ContactStatusBadge, EngagementScore, TagList } from './contact-badges';
import { SelectAllCheckbox } from './select-all-checkbox';
import type { ContactsTableState } from './use-contacts-table';

/**
 * The contacts at phone width: one card each (name, email, status, engagement, tags, added),
 * with the same selection as the table (first-hour finding 8: the table scrolled sideways).
 */
export function ContactCards({
  table,
  onOpenContact,
  onClearFilters,
}: {
  table: ContactsTableState;
  onOpenContact: (id: number) => void;
  onClearFilters: () => void;
}) {
  const { contacts, rows, selected } = table;
  return (
    <Card className={cn('gap-0 overflow-hidden py-0', contacts.isPlaceholderData && 'opacity-60')}>
      <div className="flex items-center gap-3 border-b px-4 py-3">
        <SelectAllCheckbox
          label="Select all contacts on this page"
          checked={table.pageChecked}
          disabled={rows.length === 0}
          onCheckedChange={table.togglePage}
        />
        <span className="text-muted-foreground text-sm">Select all on this page</span>
      </div>
      {contacts.isLoading ? (
        <div className="divide-y" aria-hidden="true">
          {[0, 1, 2].map((i) => (
            <div key={i} className="space-y-2 px-4 py-3">
              <Skeleton className="h-4 w-32" />
              <Skeleton className="h-4 w-48" />
            </div>
          ))}
        </div>
      ) : contacts.isError ? (
        <p className="text-destructive px-4 py-10 text-center text-sm" role="alert">
          Could not load your contacts. Please refresh the page.
        </p>
      ) : rows.length === 0 ? (
        <div className="flex flex-col items-center gap-2 px-4 py-12 text-center">
          <SearchX className="text-muted-foreground size-8" aria-hidden="true" />
          <p className="font-medium">No contacts match your search</p>
          <p className="text-muted-foreground text-sm">Try another search or clear the filters.</p>
          <Button variant="outline" size="sm" className="mt-2" onClick={onClearFilters}>
            Clear filters
          </Button>
        </div>
      ) : (
        <ul className="divide-y" aria-label="Contacts" aria-busy={contacts.isFetching || undefined}>
          {rows.map((contact) => {
            const isSelected = selected.has(contact.id);
            return (
              <li key={contact.id} className={cn('flex gap-3 px-4 py-3', isSelected && 'bg-muted')}>
                <Checkbox
                  className="mt-0.5"
                  aria-label={`Select ${contact.email}`}
                  checked={isSelected}
                  onCheckedChange={(checked) => table.toggleRow(contact, checked === true)}
                />
                <div className="min-w-0 flex-1 space-y-1.5">
                  <div className="flex items-start justify-between gap-2">
                    <button
                      type="button"
                      className="focus-visible:ring-ring/50 min-w-0 rounded-sm text-left font-medium break-words hover:underline focus-visible:ring-[3px] focus-visible:outline-none"
                      onClick={() => onOpenContact(contact.id)}
                    >
                      {contactDisplayName(contact)}
                    </button>
                    <ContactStatusBadge contact={contact} />
                  </div>
                  <p className="text-foreground/70 text-sm break-all">{contact.email}</p>
                  {contact.company && <p className="text-sm break-words">{contact.company}</p>}
                  <div className="flex flex-wrap items-center gap-2">
                    <EngagementScore score={contact.engagementScore} lastActivityAt={contact.lastActivityAt} />
                    <TagList tags={contact.tags} max={3} />
                  </div>
                  <p className="text-foreground/70 text-xs">Added {formatDate(contact.createdAt)}</p>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}
