import { LayoutTemplate, Plus, Workflow } from 'lucide-react';
import type { Sequence } from '@sendwell/contract/sequences';

import { EmptyState } from '@/components/empty-state';
import { Button } from '@/components/ui/button';
import { SequenceCard } from './sequence-card';

/** The My Sequences tab: loading text, the empty state, or the sequence cards (spec §2). */
export function SequenceList({
  sequences,
  isLoading,
  isError,
  onCreate,
  onBrowseTemplates,
  onEdit,
  onEnrol,
}: {
  sequences: readonly Sequence[] | undefined;
  isLoading: boolean;
  isError: boolean;
  onCreate: () => void;
  onBrowseTemplates: () => void;
  onEdit: (sequence: Sequence) => void;
  onEnrol: (sequence: Sequence) => void;
}) {
  if (isLoading) {
    return (
      <p className="text-muted-foreground text-sm" role="status">
        Loading sequences...
      </p>
    );
  }
  if (isError) {
    return (
      <p className="text-destructive text-sm" role="alert">
        Could not load your sequences. Please refresh the page.
      </p>
    );
  }
  if (!sequences || sequences.length === 0) {
    return (
      <EmptyState
        icon={Workflow}
        title="No email sequences yet"
        action={
          <div className="flex flex-wrap justify-center gap-2">
            <Button onClick={onCreate}>
              <Plus aria-hidden="true" />
              Create Your First Sequence
            </Button>
            <Button variant="outline" onClick={onBrowseTemplates}>
              <LayoutTemplate aria-hidden="true" />
              Browse templates
            </Button>
          </div>
        }
      >
        Send the right emails at the right time: welcome new subscribers, follow up, and branch on what they do.
      </EmptyState>
    );
  }
  return (
    <ul className="grid gap-4 lg:grid-cols-2">
      {sequences.map((sequence) => (
        <li key={sequence.id}>
          <SequenceCard sequence={sequence} onEdit={onEdit} onEnrol={onEnrol} />
        </li>
      ))}
    </ul>
  );
}
