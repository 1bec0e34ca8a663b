import { useState, type ReactNode } from 'react';
import { ChevronLeft, ChevronRight, Users } from 'lucide-react';
import type { Contact } from '@sendwell/contract/contacts';
import type { Segment } from '@sendwell/contract/segments';

import { EngagementScore } from '@/components/engagement-score';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatNumber } from '@/lib/format';
import { cn } from '@/lib/utils';
import { FETCH_CONTACTS_FAILED, useSegmentMembers } from '../api/use-segments';
import { formatRelativeTime } from '../segment-rules';
import { useLastNonNull } from '../use-last-non-null';

/** Contacts per page in the preview. */
const MEMBERS_PAGE_SIZE = 20;

function fullName(contact: Contact): string {
  return `${contact.firstName} ${contact.lastName}`.trim();
}

/** The Preview dialog: the segment's stored members, a page at a time. */
export function SegmentMembersDialog({
  segment,
  onOpenChange,
}: {
  segment: Segment | null;
  onOpenChange: (open: boolean) => void;
}) {
  // The content stays filled while the dialog animates closed.
  const shown = useLastNonNull(segment);
  return (
    <Dialog open={segment !== null} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-4xl">
        {shown && <SegmentMembers key={shown.id} segment={shown} />}
      </DialogContent>
    </Dialog>
  );
}

function SegmentMembers({ segment }: { segment: Segment }) {
  const [page, setPage] = useState(1);
  const members = useSegmentMembers(segment.id, page, MEMBERS_PAGE_SIZE);
  const total = members.data?.total ?? 0;
  const contacts = members.data?.contacts ?? [];
  const lastPage = Math.max(1, Math.ceil(total / MEMBERS_PAGE_SIZE));
  const first = total === 0 ? 0 : (page - 1) * MEMBERS_PAGE_SIZE + 1;
  const last = Math.min(total, page * MEMBERS_PAGE_SIZE);

  let body: ReactNode;
  if (members.isError) {
    body = (
      <p className="text-destructive py-6 text-center text-sm" role="alert">
        {FETCH_CONTACTS_FAILED}
      </p>
    );
  } else if (members.isLoading) {
    body = (
      <div className="space-y-2" aria-busy="true" aria-label="Loading contacts">
        {Array.from({ length: 5 }, (_, i) => (
          <Skeleton key={i} className="h-9 w-full" />
        ))}
      </div>
    );
  } else if (contacts.length === 0) {
    body = (
      <div className="flex flex-col items-center gap-2 py-10 text-center">
        <span className="bg-muted flex size-12 items-center justify-center rounded-full">
          <Users className="size-6" aria-hidden="true" />
        </span>
        <p className="font-semibold">No contacts in this segment</p>
        <p className="text-muted-foreground max-w-sm text-sm">
          No contact matches these rules yet. Add contacts or change the rules, then refresh the segment.
        </p>
      </div>
    );
  } else {
    body = (
      // A focusable, labelled scroll region (not the Table wrapper) so keyboard users can scroll a wide table.
      <div
        role="region"
        aria-label={`Contacts in ${segment.name}`}
        tabIndex={0}
        className="focus-visible:ring-ring/50 w-full overflow-x-auto rounded-md outline-none focus-visible:ring-[3px]"
      >
        <table className={cn('w-full caption-bottom text-sm', members.isPlaceholderData && 'opacity-60')}>
          <TableHeader>
            <TableRow>
              <TableHead>Contact</TableHead>
              <TableHead className="hidden md:table-cell">Company</TableHead>
              <TableHead className="text-right">Engagement</TableHead>
              <TableHead className="hidden sm:table-cell">Status</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {contacts.map((contact) => (
              <TableRow key={contact.id}>
                <TableCell className="w-full max-w-0 whitespace-normal">
                  <span className="block font-medium break-words">{fullName(contact) || '—'}</span>
                  <span className="text-muted-foreground block text-xs break-all">{contact.email}</span>
                </TableCell>
                <TableCell className="hidden md:table-cell">{contact.company || '—'}</TableCell>
                <TableCell className="text-right" data-testid="segment-member-engagement">
                  <EngagementScore score={contact.engagementScore} lastActivityAt={contact.lastActivityAt} />
                </TableCell>
                <TableCell className="hidden sm:table-cell">
                  <Badge variant={contact.isActive ? 'secondary' : 'outline'}>
                    {contact.isActive ? 'Active' : 'Unsubscribed'}
                  </Badge>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </table>
      </div>
    );
  }

  return (
    <>
      <DialogHeader className="pr-6">
        <DialogTitle>Preview: {segment.name}</DialogTitle>
        <DialogDescription>
          The contacts in this segment.{' '}
          {segment.lastUpdatedAt ? `Membership was last updated ${formatRelativeTime(segment.lastUpdatedAt)}.` : ''}
        </DialogDescription>
      </DialogHeader>
      <div className="min-w-0">{body}</div>
      {!members.isError && total > 0 && (
        <div className="flex flex-col items-center justify-between gap-3 sm:flex-row">
          <p className="text-muted-foreground text-sm" aria-live="polite">
            Showing {formatNumber(first)}–{formatNumber(last)} of {formatNumber(total)}
          </p>
          <div className="flex gap-2">
            <Button
              variant="outline"
              size="sm"
              disabled={page <= 1 || members.isFetching}
              onClick={() => setPage((p) => p - 1)}
            >
              <ChevronLeft aria-hidden="true" />
              Previous
            </Button>
            <Button
              variant="outline"
              size="sm"
              disabled={page >= lastPage || members.isFetching}
              onClick={() => setPage((p) => p + 1)}
            >
              Next
              <ChevronRight aria-hidden="true" />
            </Button>
          </div>
        </div>
      )}
    </>
  );
}
