import * as React from 'react';
import { Plus } from 'lucide-react';
import { ALIAS_CREATE_FAILED, createAliasBodySchema } from '@sendwell/contract/aliases';
import type { Domain } from '@sendwell/contract/domains';

import { FieldError } from '@/components/field-error';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { getApiErrorFields, getApiErrorStatus } from '@/lib/api';
import { apiErrorText, toastError } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';
import { aliasFormErrors, type AliasFormErrors } from '../alias-form-errors';
import { useCreateAlias } from '../api/use-aliases';

type Errors = AliasFormErrors;

/**
 * The simple form (spec §5): an alias on the chosen domain and the address it forwards to. The
 * destination is mailed a confirmation link; the alias is Pending until it is followed.
 */
export function CreateAliasForm({
  domain,
  alias,
  onAliasChange,
}: {
  domain: Domain;
  /** The alias field, owned by the panel so a popular alias can fill it. */
  alias: string;
  onAliasChange: (alias: string) => void;
}) {
  const create = useCreateAlias(domain.id);
  const [destination, setDestination] = React.useState('');
  const [errors, setErrors] = React.useState<Errors>({});

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = createAliasBodySchema.safeParse({ alias, destination });
    if (!parsed.success) {
      setErrors(aliasFormErrors({ alias, destination }));
      return;
    }
    setErrors({});
    create.mutate(
      { alias: parsed.data.alias, destination: parsed.data.destination },
      {
        onSuccess: (created) => {
          onAliasChange('');
          setDestination('');
          toast({
            title: 'Alias Created',
            description: created.isVerified
              ? `${created.address} now forwards to ${created.destination}.`
              : `${created.address} is Pending: we emailed ${created.destination} a link to confirm it.`,
          });
        },
        onError: (error) => {
          const status = getApiErrorStatus(error);
          if (status !== null && status >= 400 && status < 500) {
            const fields = getApiErrorFields(error);
            setErrors({
              alias: fields.alias ?? (fields.destination ? undefined : apiErrorText(error, ALIAS_CREATE_FAILED)),
              destination: fields.destination,
            });
          }
          toastError(error, ALIAS_CREATE_FAILED, { serverMessage: 'never' });
        },
      },
    );
  };

  return (
    <div className="@container">
      <form onSubmit={submit} noValidate className="grid gap-3 @2xl:grid-cols-[1fr_1fr_auto] @2xl:items-start">
        <div className="space-y-1.5">
          <Label htmlFor="new-alias">Alias</Label>
          <div className="flex items-center gap-1.5">
            <Input
              id="new-alias"
              value={alias}
              placeholder="hello"
              autoComplete="off"
              onChange={(event) => onAliasChange(event.target.value)}
              aria-invalid={errors.alias ? true : undefined}
              aria-describedby={errors.alias ? 'new-alias-error' : 'new-alias-domain'}
            />
            <span id="new-alias-domain" className="text-muted-foreground max-w-40 shrink-0 truncate text-sm">
              @{domain.domain}
            </span>
          </div>
          <FieldError id="new-alias-error" message={errors.alias} />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="new-alias-destination">Forward to</Label>
          <Input
            id="new-alias-destination"
            type="email"
            value={destination}
            placeholder="you@example.com"
            autoComplete="email"
            onChange={(event) => setDestination(event.target.value)}
            aria-invalid={errors.destination ? true : undefined}
            aria-describedby={errors.destination ? 'new-alias-destination-error' : undefined}
          />
          <FieldError id="new-alias-destination-error" message={errors.destination} />
        </div>
        <Button type="submit" disabled={create.isPending} className="@2xl:mt-[1.375rem]">
          {create.isPending ? <Spinner className="size-4" label="Adding" /> : <Plus aria-hidden="true" />}
          Add Alias
        </Button>
      </form>
    </div>
  );
}
