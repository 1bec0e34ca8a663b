import { useState } from 'react';
import { Pause, Pencil, Play, Trash2, UserPlus, Users, Zap } from 'lucide-react';
import type { Sequence } from '@sendwell/contract/sequences';

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
import { useDeleteSequence, useSetSequenceStatus } from '../api/use-sequences';
import { DELETE_CONFIRMATION, SEQUENCE_FAILURE, toastSequenceSuccess } from '../sequence-feedback';
import { STATUS_LABELS, TRIGGER_LABELS } from '../sequence-labels';

/** One sequence: status and trigger badges, its subscriber counts, and Edit / Enrol / Activate-Pause / Delete. */
export function SequenceCard({
  sequence,
  onEdit,
  onEnrol,
}: {
  sequence: Sequence;
  onEdit: (sequence: Sequence) => void;
  onEnrol: (sequence: Sequence) => void;
}) {
  const setStatus = useSetSequenceStatus();
  const remove = useDeleteSequence();
  const [confirmOpen, setConfirmOpen] = useState(false);
  const active = sequence.status === 'active';

  const onToggle = () =>
    setStatus.mutate(
      { id: sequence.id, status: active ? 'paused' : 'active' },
      {
        onSuccess: () => toastSequenceSuccess(active ? 'Email sequence paused' : 'Email sequence activated'),
        // The server explains a refusal (say, a flow that cannot run): its message says more than ours.
        onError: (error) => toastError(error, SEQUENCE_FAILURE.status, { serverMessage: 'client-error' }),
      },
    );

  const onDelete = () =>
    remove.mutate(sequence.id, {
      onSuccess: () => {
        setConfirmOpen(false);
        toastSequenceSuccess('Email sequence deleted successfully');
      },
      onError: (error) => {
        setConfirmOpen(false);
        toastError(error, SEQUENCE_FAILURE.delete, { serverMessage: 'never' });
      },
    });

  return (
    <Card className="h-full gap-4" data-sequence={sequence.name}>
      <CardHeader>
        <div className="flex flex-wrap items-start justify-between gap-2">
          <CardTitle className="min-w-0 break-words">
            <h3 className="text-base leading-snug">{sequence.name}</h3>
          </CardTitle>
          <div className="flex flex-wrap gap-1.5">
            <Badge variant={active ? 'default' : 'secondary'} data-testid="sequence-status">
              {STATUS_LABELS[sequence.status]}
            </Badge>
            <Badge variant="outline">
              <Zap aria-hidden="true" />
              {TRIGGER_LABELS[sequence.triggerType]}
            </Badge>
          </div>
        </div>
        {sequence.description && <CardDescription className="break-words">{sequence.description}</CardDescription>}
      </CardHeader>
      <CardContent className="flex-1">
        <dl className="grid grid-cols-2 gap-3 text-sm">
          <div className="bg-muted/50 rounded-md px-3 py-2">
            <dt className="text-muted-foreground flex items-center gap-1.5 text-xs">
              <Users className="size-3.5" aria-hidden="true" />
              Total subscribers
            </dt>
            <dd className="text-lg font-semibold" data-testid="total-subscribers">
              {formatNumber(sequence.totalSubscribers)}
            </dd>
          </div>
          <div className="bg-muted/50 rounded-md px-3 py-2">
            <dt className="text-muted-foreground flex items-center gap-1.5 text-xs">
              <Play className="size-3.5" aria-hidden="true" />
              Active subscribers
            </dt>
            <dd className="text-lg font-semibold" data-testid="active-subscribers">
              {formatNumber(sequence.activeSubscribers)}
            </dd>
          </div>
        </dl>
      </CardContent>
      <CardFooter className="grid grid-cols-2 gap-2 sm:flex sm:flex-wrap">
        <Button
          variant={active ? 'outline' : 'default'}
          size="sm"
          onClick={onToggle}
          disabled={setStatus.isPending}
          aria-label={`${active ? 'Pause' : 'Activate'} ${sequence.name}`}
        >
          {active ? <Pause aria-hidden="true" /> : <Play aria-hidden="true" />}
          {active ? 'Pause' : 'Activate'}
        </Button>
        <Button variant="outline" size="sm" onClick={() => onEdit(sequence)} aria-label={`Edit ${sequence.name}`}>
          <Pencil aria-hidden="true" />
          Edit
        </Button>
        <Button
          variant="outline"
          size="sm"
          onClick={() => onEnrol(sequence)}
          aria-label={`Enrolments of ${sequence.name}`}
        >
          <UserPlus aria-hidden="true" />
          Enrolments
        </Button>
        <Button
          variant="outline"
          size="sm"
          className="text-destructive hover:text-destructive"
          onClick={() => setConfirmOpen(true)}
          aria-label={`Delete ${sequence.name}`}
        >
          <Trash2 aria-hidden="true" />
          Delete
        </Button>
      </CardFooter>

      <AlertDialog open={confirmOpen} onOpenChange={(open) => !remove.isPending && setConfirmOpen(open)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Delete “{sequence.name}”?</AlertDialogTitle>
            <AlertDialogDescription>{DELETE_CONFIRMATION}</AlertDialogDescription>
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
