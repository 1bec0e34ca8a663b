import * as React from 'react';
import { Plus } from 'lucide-react';
import {
  createDestinationBodySchema,
  DESTINATION_WEIGHT_MAX,
  DESTINATION_WEIGHT_MIN,
  type EmailAlias,
} from '@sendwell/contract/aliases';

import { FieldError } from '@/components/field-error';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { getApiErrorFields } from '@/lib/api';
import { toastError } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';
import { useCreateDestination } from '../api/use-aliases';

type Errors = Partial<Record<'email' | 'name' | 'weight', string>>;

/** Add a destination (spec §5 Destination): a valid address, an optional name, weight 1–10. */
export function AddDestinationForm({ alias }: { alias: EmailAlias }) {
  const create = useCreateDestination();
  const [draft, setDraft] = React.useState({ email: '', name: '', weight: '1' });
  const [errors, setErrors] = React.useState<Errors>({});

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const weight = draft.weight.trim() === '' ? Number.NaN : Number(draft.weight);
    const body = { email: draft.email, name: draft.name, weight, aliasId: alias.id };
    const parsed = createDestinationBodySchema.safeParse(body);
    if (!parsed.success) {
      const next: Errors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if (field === 'email' || field === 'name' || field === 'weight') next[field] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    create.mutate(body, {
      onSuccess: (destination) => {
        setDraft({ email: '', name: '', weight: '1' });
        toast({
          title: 'Destination Added',
          description: destination.isConfirmed
            ? `${destination.email} now receives mail for ${alias.address}.`
            : `We emailed ${destination.email} a link to confirm it; it gets nothing until then.`,
        });
      },
      onError: (error) => {
        setErrors(getApiErrorFields(error));
        toastError(error, 'Failed to add the destination. Please try again.', { serverMessage: 'client-error' });
      },
    });
  };

  const invalid = (key: keyof Errors) =>
    errors[key] ? { 'aria-invalid': true, 'aria-describedby': `dest-${key}-error` } : {};
  return (
    <form
      onSubmit={submit}
      noValidate
      className="grid gap-3 @lg:grid-cols-[minmax(0,2fr)_minmax(0,1.5fr)_5rem] @lg:items-start"
    >
      <div className="space-y-1.5">
        <Label htmlFor="dest-email">Destination email</Label>
        <Input
          id="dest-email"
          type="email"
          placeholder="teammate@example.com"
          value={draft.email}
          onChange={(e) => setDraft((d) => ({ ...d, email: e.target.value }))}
          {...invalid('email')}
        />
        <FieldError id="dest-email-error" message={errors.email} />
      </div>
      <div className="space-y-1.5">
        <Label htmlFor="dest-name">Name (optional)</Label>
        <Input
          id="dest-name"
          value={draft.name}
          onChange={(e) => setDraft((d) => ({ ...d, name: e.target.value }))}
          {...invalid('name')}
        />
        <FieldError id="dest-name-error" message={errors.name} />
      </div>
      <div className="space-y-1.5">
        <Label htmlFor="dest-weight">Weight</Label>
        <Input
          id="dest-weight"
          type="number"
          inputMode="numeric"
          min={DESTINATION_WEIGHT_MIN}
          max={DESTINATION_WEIGHT_MAX}
          value={draft.weight}
          onChange={(e) => setDraft((d) => ({ ...d, weight: e.target.value }))}
          {...invalid('weight')}
        />
        <FieldError id="dest-weight-error" message={errors.weight} />
      </div>
      <Button type="submit" disabled={create.isPending} className="@lg:col-span-3 @lg:justify-self-end">
        {create.isPending ? <Spinner className="size-4" label="Adding" /> : <Plus aria-hidden="true" />}
        Add Destination
      </Button>
    </form>
  );
}
