import { useState } from 'react';
import { Clock, Eye, Filter, Pencil, RefreshCw, Trash2, Users } from 'lucide-react';
import type { Segment } from '@sendwell/contract/segments';

import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { formatNumber } from '@/lib/format';
import { toastError } from '@/lib/toast-error';
import { useDeleteSegment, useRefreshSegment } from '../api/use-segments';
import { formatRelativeTime, summarizeConditions } from '../segment-rules';
import { SEGMENT_FAILURE, toastSegmentSuccess } from './segment-feedback';

function contactsLabel(count: number): string {
  return `${formatNumber(count)} ${count === 1 ? 'contact' : 'contacts'}`;
}

/** One saved segment: status, size, freshness, its rules in words, and Preview / Edit / Refresh / Delete. */
export function SegmentCard({
  segment,
  onPreview,
  onEdit,
}: {
  segment: Segment;
  onPreview: (segment: Segment) => void;
  onEdit: (segment: Segment) => void;
}) {
  const refresh = useRefreshSegment();
  const remove = useDeleteSegment();
  const [confirmOpen, setConfirmOpen] = useState(false);
  const titleId = `segment-${segment.id}-title`;

  const onRefresh = () =>
    refresh.mutate(segment.id, {
      onSuccess: (updated) =>
        toastSegmentSuccess(`Segment membership refreshed: ${contactsLabel(updated.contactCount)}`),
      onError: (error) => toastError(error, SEGMENT_FAILURE.refresh, { serverMessage: 'never' }),
    });

  const onDelete = () =>
    remove.mutate(segment.id, {
      onSuccess: () => {
        setConfirmOpen(false);
        toastSegmentSuccess('Contact segment deleted successfully');
      },
      onError: (error) => {
        setConfirmOpen(false);
        toastError(error, SEGMENT_FAILURE.delete, { serverMessage: 'never' });
      },
    });

  return (
    <Card className="h-full gap-4">
      <CardHeader>
        <div className="flex flex-wrap items-start justify-between gap-2">
          <CardTitle className="min-w-0 break-words">
            <h3 id={titleId} className="text-base leading-snug">
              {segment.name}
            </h3>
          </CardTitle>
          <div className="flex flex-wrap gap-1.5">
            <Badge variant={segment.isActive ? 'default' : 'secondary'}>
              {segment.isActive ? 'Active' : 'Inactive'}
            </Badge>
            {segment.isAutoUpdate && (
              <Badge variant="outline">
                <RefreshCw aria-hidden="true" />
                Auto-update
              </Badge>
            )}
          </div>
        </div>
        {segment.description && <CardDescription className="break-words">{segment.description}</CardDescription>}
      </CardHeader>
      <CardContent className="flex-1 space-y-3">
        <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm">
          <span className="flex items-center gap-1.5 font-semibold" data-testid="segment-contact-count">
            <Users className="text-muted-foreground size-4" aria-hidden="true" />
            {contactsLabel(segment.contactCount)}
          </span>
          <span className="text-muted-foreground flex items-center gap-1.5">
            <Clock className="size-4" aria-hidden="true" />
            {segment.lastUpdatedAt ? `Updated ${formatRelativeTime(segment.lastUpdatedAt)}` : 'Not computed yet'}
          </span>
        </div>
        <p className="bg-muted/50 text-muted-foreground flex items-start gap-2 rounded-md px-3 py-2 text-sm">
          <Filter className="mt-0.5 size-3.5 shrink-0" aria-hidden="true" />
          <span className="min-w-0 break-words">
            <span className="sr-only">Rules: </span>
            {summarizeConditions(segment.conditions)}
          </span>
        </p>
      </CardContent>
      <CardFooter className="grid grid-cols-2 gap-2 sm:flex sm:flex-wrap">
        <Button variant="outline" size="sm" onClick={() => onPreview(segment)}>
          <Eye aria-hidden="true" />
          Preview
        </Button>
        <Button variant="outline" size="sm" onClick={() => onEdit(segment)}>
          <Pencil aria-hidden="true" />
          Edit
        </Button>
        <Button
          variant="outline"
          size="sm"
          onClick={onRefresh}
          disabled={refresh.isPending}
          aria-busy={refresh.isPending || undefined}
        >
          <RefreshCw className={refresh.isPending ? 'animate-spin' : undefined} aria-hidden="true" />
          {refresh.isPending ? 'Refreshing...' : 'Refresh'}
        </Button>
        <Button
          variant="outline"
          size="sm"
          className="text-destructive hover:text-destructive"
          onClick={() => setConfirmOpen(true)}
        >
          <Trash2 aria-hidden="true" />
          Delete
        </Button>
      </CardFooter>

      <AlertDialog open={confirmOpen} onOpenChange={(open) => !remove.isPending && setConfirmOpen(open)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Delete this segment?</AlertDialogTitle>
            <AlertDialogDescription>
              “{segment.name}” will be deleted. This action cannot be undone. The contacts in it are kept.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel disabled={remove.isPending}>Cancel</AlertDialogCancel>
            <Button variant="destructive" onClick={onDelete} disabled={remove.isPending}>
              {remove.isPending ? 'Deleting...' : 'Delete'}
            </Button>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </Card>
  );
}
