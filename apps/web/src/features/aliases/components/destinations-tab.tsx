import * as React from 'react';
import { Send, Trash2, Users } from 'lucide-react';
import {
  DESTINATION_WEIGHT_MAX,
  DESTINATION_WEIGHT_MIN,
  type EmailAlias,
  type ForwardingDestination,
} from '@sendwell/contract/aliases';

import { Button } from '@/components/ui/button';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { toastError } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';
import {
  useDeleteDestination,
  useDestinations,
  useResendDestinationConfirmation,
  useUpdateDestination,
} from '../api/use-aliases';
import { AddDestinationForm } from './add-destination-form';
import { ConfirmationBadge } from './alias-badges';
import { ConfirmDeleteDialog } from './confirm-delete-dialog';

const WEIGHTS = Array.from({ length: DESTINATION_WEIGHT_MAX - DESTINATION_WEIGHT_MIN + 1 }, (_, i) =>
  String(DESTINATION_WEIGHT_MIN + i),
);

/**
 * The Destinations tab: each with its weight (changeable), on/off switch and Pending/Confirmed
 * badge; resend the link, delete.
 */
export function DestinationsTab({ alias }: { alias: EmailAlias }) {
  const destinations = useDestinations(alias.id);
  const remove = useDeleteDestination();
  const resend = useResendDestinationConfirmation();
  const update = useUpdateDestination();
  const [deleting, setDeleting] = React.useState<ForwardingDestination | null>(null);
  const list = destinations.data ?? [];

  const confirmDelete = () => {
    const destination = deleting;
    if (!destination) return;
    remove.mutate(destination, {
      onSuccess: () => {
        setDeleting(null);
        toast({
          title: 'Destination Removed',
          description: `${destination.email} no longer receives this alias's mail.`,
        });
      },
      onError: (error) => {
        setDeleting(null);
        toastError(error, 'Failed to remove the destination. Please try again.');
      },
    });
  };
  const onUpdate = (destination: ForwardingDestination, body: { weight?: number; isActive?: boolean }) =>
    update.mutate(
      { id: destination.id, body },
      {
        onSuccess: (saved) =>
          toast({
            title: 'Destination Updated',
            description:
              body.weight !== undefined
                ? `${saved.email} now has weight ${saved.weight}.`
                : `${saved.email} is ${saved.isActive ? 'on' : 'off'}.`,
          }),
        onError: (error) => toastError(error, 'Failed to update the destination. Please try again.'),
      },
    );
  const onResend = (destination: ForwardingDestination) =>
    resend.mutate(destination, {
      onSuccess: (answer) =>
        toast(
          answer.sent
            ? { title: 'Confirmation Link Sent', description: `We emailed a new link to ${answer.email}.` }
            : { title: 'Already Confirmed', description: `${answer.email} is already confirmed.` },
        ),
      onError: (error) =>
        toastError(error, 'Failed to send the link. Please try again.', { serverMessage: 'client-error' }),
    });

  return (
    <div className="space-y-4">
      <p className="text-muted-foreground text-sm">
        Split sends each message to one destination chosen by weight; round robin takes them in turn; simple uses them
        all when the alias has no destination of its own. A destination gets nothing until it follows the link we email
        to it.
      </p>
      {destinations.isLoading ? (
        <div className="space-y-2" aria-busy="true" aria-label="Loading destinations">
          <Skeleton className="h-12 w-full" />
        </div>
      ) : destinations.isError ? (
        <p className="text-destructive text-sm" role="alert">
          Could not load the destinations. Please refresh the page.
        </p>
      ) : list.length === 0 ? (
        <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed px-4 py-8 text-center">
          <Users className="text-muted-foreground size-6" aria-hidden="true" />
          <h3 className="font-semibold">No destinations yet</h3>
          <p className="text-muted-foreground max-w-sm text-sm">Add the addresses this alias shares its mail with.</p>
        </div>
      ) : (
        <ul className="divide-y rounded-lg border" aria-label="Forwarding destinations">
          {list.map((destination) => (
            <li
              key={destination.id}
              className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center"
              data-destination={destination.email}
            >
              <div className="min-w-0 flex-1">
                <p className="font-mono text-sm break-all">{destination.email}</p>
                {destination.name && <p className="text-muted-foreground text-xs">{destination.name}</p>}
              </div>
              <div className="flex flex-wrap items-center gap-2">
                <Select
                  value={String(destination.weight)}
                  onValueChange={(value) => onUpdate(destination, { weight: Number(value) })}
                >
                  <SelectTrigger
                    size="sm"
                    className="w-28"
                    aria-label={`Weight of ${destination.email}`}
                    data-testid="destination-weight"
                  >
                    <SelectValue>Weight {destination.weight}</SelectValue>
                  </SelectTrigger>
                  <SelectContent>
                    {WEIGHTS.map((weight) => (
                      <SelectItem key={weight} value={weight}>
                        Weight {weight}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
                <Switch
                  checked={destination.isActive}
                  onCheckedChange={(on) => onUpdate(destination, { isActive: on })}
                  aria-label={`Destination ${destination.email} active`}
                />
                <ConfirmationBadge confirmed={destination.isConfirmed} />
                {!destination.isConfirmed && (
                  <Button
                    size="sm"
                    variant="outline"
                    onClick={() => onResend(destination)}
                    disabled={resend.isPending}
                    aria-label={`Resend confirmation to ${destination.email}`}
                  >
                    <Send aria-hidden="true" />
                    Resend
                  </Button>
                )}
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => setDeleting(destination)}
                  aria-label={`Delete destination ${destination.email}`}
                  title={`Delete destination ${destination.email}`}
                >
                  <Trash2 aria-hidden="true" />
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <div className="@container rounded-lg border p-3">
        <AddDestinationForm alias={alias} />
      </div>
      <ConfirmDeleteDialog
        title={deleting ? `Remove ${deleting.email}?` : null}
        description="It stops receiving this alias's mail at once."
        pending={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      />
    </div>
  );
}
