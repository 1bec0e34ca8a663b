import * as React from 'react';
import { Plus } from 'lucide-react';
import { addSenderAddressBodySchema } from '@sendwell/contract/sender-addresses';

import { FieldError } from '@/components/field-error';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { apiErrorText } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';
import { useAddSenderAddress } from '../api/use-sender-addresses';

const ADD_FAILED = 'Failed to add the sender address. Please try again.';

/** One field and a button: adds a sender address, which is mailed its confirmation link. */
export function AddSenderAddressForm() {
  const add = useAddSenderAddress();
  const [email, setEmail] = React.useState('');
  const [error, setError] = React.useState<string | undefined>();

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = addSenderAddressBodySchema.safeParse({ email });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    add.mutate(parsed.data, {
      onSuccess: (address) => {
        setEmail('');
        toast({
          title: 'Confirmation Link Sent',
          description: `We emailed a link to ${address.email}. Follow it while signed in to confirm the address.`,
        });
      },
      onError: (failure) => setError(apiErrorText(failure, ADD_FAILED, 'client-error')),
    });
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-1.5">
      <Label htmlFor="sender-address-email">Add a sender address</Label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Input
          id="sender-address-email"
          type="email"
          value={email}
          placeholder="you@example.com"
          autoComplete="email"
          onChange={(event) => setEmail(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'sender-address-email-error' : undefined}
        />
        <Button type="submit" disabled={add.isPending} className="shrink-0">
          {add.isPending ? <Spinner className="size-4" label="Adding" /> : <Plus aria-hidden="true" />}
          Add Address
        </Button>
      </div>
      <FieldError id="sender-address-email-error" message={error} />
    </form>
  );
}
