import { ChevronLeft, ChevronRight } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { PAGE_SIZES, paginationText } from '../contact-rules';
import type { ContactsTableState } from './use-contacts-table';

/** Below the contacts table: which rows are shown, rows per page, Previous and Next. */
export function ContactsPagination({ table }: { table: ContactsTableState }) {
  const { page, pages, pageSize, total, exact } = table;
  return (
    <nav
      aria-label="Contacts pagination"
      className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-center sm:justify-between"
    >
      <p className="text-muted-foreground text-sm" aria-live="polite">
        {table.contacts.isLoading
          ? 'Loading contacts…'
          : paginationText(page, pageSize, total, exact, table.rows.length)}
      </p>
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
        <div className="flex items-center gap-2">
          <Label htmlFor="contacts-page-size" className="text-muted-foreground text-sm font-normal">
            Rows per page
          </Label>
          <Select value={String(pageSize)} onValueChange={(value) => table.setPageSize(Number(value))}>
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
          <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => table.setPage(page - 1)}>
            <ChevronLeft aria-hidden="true" />
            Previous
          </Button>
          <span className="text-muted-foreground text-sm whitespace-nowrap tabular-nums">
            {exact ? `Page ${page} of ${pages}` : `Page ${page}`}
          </span>
          <Button variant="outline" size="sm" disabled={!table.hasNextPage} onClick={() => table.setPage(page + 1)}>
            Next
            <ChevronRight aria-hidden="true" />
          </Button>
        </div>
      </div>
    </nav>
  );
}
