import { SearchX } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatDate } from '@/lib/format';
import { cn } from '@/lib/utils';
import { contactDisplayName } from '../contact-rules';
import { ContactStatusBadge, EngagementScore, TagList } from './contact-badges';
import { SelectAllCheckbox } from './select-all-checkbox';
import type { ContactsTableState } from './use-contacts-table';

const SKELETON_ROWS = 5;
const COLUMNS = 8;
// Secondary text in rows: text-muted-foreground falls below 4.5:1 on a selected (bg-muted) row.
const SUBTLE_TEXT = 'text-foreground/70';

/** The contacts table: a checkbox per row and for the page; a click on a row opens the contact. */
export function ContactsTable({
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
                checked={table.pageChecked}
                disabled={rows.length === 0}
                onCheckedChange={table.togglePage}
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
                  <Button variant="outline" size="sm" className="mt-2" onClick={onClearFilters}>
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
                      onCheckedChange={(checked) => table.toggleRow(contact, checked === true)}
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
                    <EngagementScore score={contact.engagementScore} lastActivityAt={contact.lastActivityAt} />
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
  );
}
