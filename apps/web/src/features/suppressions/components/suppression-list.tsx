import * as React from 'react';
import { Link } from 'wouter';
import { ChevronLeft, ChevronRight, Search, SearchX, ShieldCheck, Trash2 } from 'lucide-react';
import type { Suppression } from '@sendwell/contract/suppressions';

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
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatDate } from '@/lib/format';
import { toastError } from '@/lib/toast-error';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useMediaQuery } from '@/lib/use-media-query';
import { toast } from '@/lib/use-toast';
import { cn } from '@/lib/utils';
import { useRemoveSuppression, useSuppressions } from '../api/use-suppressions';
import { suppressionReasonLabel, suppressionsRangeText } from '../suppression-rules';

const SEARCH_DEBOUNCE_MS = 300;

/**
 * The account's suppression list: who is never mailed again, why, since when and from which
 * campaign; a search by address, pages, and Remove behind a warning (the address may be mailed again).
 */
export function SuppressionList() {
  const [searchText, setSearchText] = React.useState('');
  const search = useDebouncedValue(searchText.trim(), SEARCH_DEBOUNCE_MS);
  const [page, setPage] = React.useState(1);
  const [removing, setRemoving] = React.useState<Suppression | null>(null);
  const wide = useMediaQuery('(min-width: 768px)');
  const list = useSuppressions({ search, page });
  const remove = useRemoveSuppression();

  // A new search starts at its first page.
  React.useEffect(() => setPage(1), [search]);

  const data = list.data;
  const rows = data?.suppressions ?? [];
  const total = data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / (data?.pageSize ?? 1)));

  const confirmRemove = async () => {
    if (!removing) return;
    try {
      await remove.mutateAsync(removing.id);
      toast({ title: 'Removed from the suppression list', description: `${removing.email} can be mailed again.` });
      setRemoving(null);
    } catch (error) {
      toastError(error, 'Could not remove the address. Please try again.');
    }
  };

  if (!list.isLoading && total === 0 && search === '' && searchText === '') {
    return (
      <EmptyState icon={ShieldCheck} title="No suppressed addresses">
        Addresses that hard-bounce, bounce softly too often, complain or unsubscribe land here and are never mailed
        again.
      </EmptyState>
    );
  }

  return (
    <div className="space-y-4">
      <div className="relative min-w-0 sm:max-w-sm">
        <Label htmlFor="suppressions-search" className="sr-only">
          Search suppressed addresses
        </Label>
        <Search
          className="text-muted-foreground pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2"
          aria-hidden="true"
        />
        <Input
          id="suppressions-search"
          type="search"
          placeholder="Search by email address"
          className="pl-9"
          value={searchText}
          onChange={(event) => setSearchText(event.target.value)}
        />
      </div>

      {list.isError ? (
        <EmptyState icon={SearchX} title="Could not load the suppression list">
          Please reload the page.
        </EmptyState>
      ) : !list.isLoading && rows.length === 0 ? (
        <EmptyState icon={SearchX} title="No matching addresses">
          Nothing on your suppression list matches “{search}”.
        </EmptyState>
      ) : wide ? (
        <Card className={cn('gap-0 overflow-hidden py-0', list.isPlaceholderData && 'opacity-60')}>
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead className="pl-4">Email</TableHead>
                <TableHead>Reason</TableHead>
                <TableHead>Campaign</TableHead>
                <TableHead>Suppressed since</TableHead>
                <TableHead className="pr-4 text-right">
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {list.isLoading
                ? Array.from({ length: 3 }, (_, i) => (
                    <TableRow key={i} aria-hidden="true">
                      <TableCell colSpan={5} className="px-4">
                        <Skeleton className="h-5 w-full" />
                      </TableCell>
                    </TableRow>
                  ))
                : rows.map((row) => (
                    <TableRow key={row.id}>
                      <TableCell className="pl-4 font-medium break-all whitespace-normal">{row.email}</TableCell>
                      <TableCell className="max-w-sm whitespace-normal">
                        <Reason row={row} />
                      </TableCell>
                      <TableCell className="whitespace-normal">
                        <CampaignLink row={row} />
                      </TableCell>
                      <TableCell className="whitespace-nowrap">{formatDate(row.createdAt)}</TableCell>
                      <TableCell className="pr-4 text-right">
                        <Button variant="ghost" size="sm" onClick={() => setRemoving(row)}>
                          <Trash2 aria-hidden="true" />
                          Remove<span className="sr-only"> {row.email}</span>
                        </Button>
                      </TableCell>
                    </TableRow>
                  ))}
            </TableBody>
          </Table>
        </Card>
      ) : (
        <ul className={cn('space-y-3', list.isPlaceholderData && 'opacity-60')} aria-label="Suppressed addresses">
          {rows.map((row) => (
            <li key={row.id}>
              <Card className="gap-3 px-4 py-4">
                <p className="font-medium break-all">{row.email}</p>
                <Reason row={row} />
                <dl className="text-muted-foreground grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                  <dt>Campaign</dt>
                  <dd className="min-w-0 break-words">
                    <CampaignLink row={row} />
                  </dd>
                  <dt>Since</dt>
                  <dd>{formatDate(row.createdAt)}</dd>
                </dl>
                <Button variant="outline" size="sm" className="w-full" onClick={() => setRemoving(row)}>
                  <Trash2 aria-hidden="true" />
                  Remove<span className="sr-only"> {row.email}</span>
                </Button>
              </Card>
            </li>
          ))}
        </ul>
      )}

      {total > 0 && (
        <nav
          aria-label="Suppression list pagination"
          className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between"
        >
          <p className="text-muted-foreground text-sm" aria-live="polite">
            {suppressionsRangeText(page, data?.pageSize ?? 0, total, rows.length)}
          </p>
          {pages > 1 && (
            <div className="flex items-center gap-2">
              <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                <ChevronLeft aria-hidden="true" />
                Previous
              </Button>
              <span className="text-muted-foreground text-sm whitespace-nowrap tabular-nums">
                Page {page} of {pages}
              </span>
              <Button variant="outline" size="sm" disabled={page >= pages} onClick={() => setPage(page + 1)}>
                Next
                <ChevronRight aria-hidden="true" />
              </Button>
            </div>
          )}
        </nav>
      )}

      <AlertDialog open={removing !== null} onOpenChange={(open) => !open && setRemoving(null)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Remove {removing?.email} from the suppression list?</AlertDialogTitle>
            <AlertDialogDescription>
              Your campaigns and sequences will mail this address again. If it bounced or complained, mailing it again
              can hurt your sender reputation: remove it only if you know the address works and wants your mail.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction
              className="bg-destructive hover:bg-destructive/90 text-white"
              disabled={remove.isPending}
              onClick={(event) => {
                // Keep the confirmation open until the call answers.
                event.preventDefault();
                void confirmRemove();
              }}
            >
              {remove.isPending ? 'Removing...' : 'Remove'}
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  );
}

/** The reason as a badge, and the classified bounce reason or receiver's answer under it. */
function Reason({ row }: { row: Suppression }) {
  return (
    <div className="space-y-1">
      <Badge variant={row.reason === 'unsubscribe' ? 'secondary' : 'outline'}>{suppressionReasonLabel(row)}</Badge>
      {row.detail && <p className="text-muted-foreground text-xs break-words">{row.detail}</p>}
    </div>
  );
}

function CampaignLink({ row }: { row: Suppression }) {
  if (row.campaignId === null) return <span className="text-muted-foreground">—</span>;
  return (
    <Link href={`/campaigns/${row.campaignId}/report`} className="underline underline-offset-4">
      {row.campaignName ?? `Campaign ${row.campaignId}`}
    </Link>
  );
}
