import { Filter, LayoutTemplate, Plus } from 'lucide-react';
import type { Segment } from '@sendwell/contract/segments';

import { EmptyState } from '@/components/empty-state';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { SegmentCard } from './segment-card';

/** Skeleton cards while the segments load. */
const SKELETON_CARDS = 3;

/** The My Segments tab: skeleton cards, the empty state, or the segment cards. */
export function SegmentList({
  segments,
  isLoading,
  isError,
  onCreate,
  onBrowseTemplates,
  onPreview,
  onEdit,
}: {
  segments: readonly Segment[] | undefined;
  isLoading: boolean;
  isError: boolean;
  onCreate: () => void;
  onBrowseTemplates: () => void;
  onPreview: (segment: Segment) => void;
  onEdit: (segment: Segment) => void;
}) {
  if (isLoading) {
    return (
      <ul className="grid gap-4 lg:grid-cols-2" aria-busy="true" aria-label="Loading segments">
        {Array.from({ length: SKELETON_CARDS }, (_, i) => (
          <li key={i}>
            <Card className="gap-4">
              <CardHeader className="space-y-2">
                <Skeleton className="h-5 w-1/2" />
                <Skeleton className="h-4 w-3/4" />
              </CardHeader>
              <CardContent className="space-y-3">
                <Skeleton className="h-4 w-1/3" />
                <Skeleton className="h-9 w-full" />
                <div className="flex gap-2">
                  <Skeleton className="h-8 w-20" />
                  <Skeleton className="h-8 w-16" />
                  <Skeleton className="h-8 w-20" />
                </div>
              </CardContent>
            </Card>
          </li>
        ))}
      </ul>
    );
  }
  if (isError) {
    return (
      <p className="text-destructive text-sm" role="alert">
        Could not load your segments. Please refresh the page.
      </p>
    );
  }
  if (!segments || segments.length === 0) {
    return (
      <EmptyState
        icon={Filter}
        title="No segments yet"
        action={
          <div className="flex flex-wrap justify-center gap-2">
            <Button onClick={onCreate}>
              <Plus aria-hidden="true" />
              Create Segment
            </Button>
            <Button variant="outline" onClick={onBrowseTemplates}>
              <LayoutTemplate aria-hidden="true" />
              Browse templates
            </Button>
          </div>
        }
      >
        Group contacts by engagement, location, job title or tags, and send to exactly the right people. Start from
        scratch or from a template.
      </EmptyState>
    );
  }
  return (
    <ul className="grid gap-4 lg:grid-cols-2">
      {segments.map((segment) => (
        <li key={segment.id}>
          <SegmentCard segment={segment} onPreview={onPreview} onEdit={onEdit} />
        </li>
      ))}
    </ul>
  );
}
