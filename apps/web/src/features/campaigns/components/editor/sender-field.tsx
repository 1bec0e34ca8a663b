import { AlertTriangle, ExternalLink, Info, ShieldCheck } from 'lucide-react';

import { FieldError } from '@/components/field-error';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import type { SenderStanding } from '../../editor/sender-options';
import type { useSenderChoices } from './use-sender-choices';

/** Where senders are added and confirmed: Domain Settings' Sender Addresses tab (a new browser tab keeps the draft open). */
const SENDER_ADDRESSES_PATH = '/domain-settings?tab=senders';

const warning =
  'flex items-start gap-1.5 rounded-md border border-amber-300 bg-amber-50 p-2 text-xs text-amber-900 dark:border-amber-900 dark:bg-amber-950/50 dark:text-amber-200';

/** What the chosen sender means for sending, and how to fix it when it cannot send. */
function StandingNote({ standing, address }: { standing: SenderStanding; address: string }) {
  switch (standing) {
    case 'domain':
      return (
        <p className="flex items-center gap-1.5 text-xs text-emerald-700 dark:text-emerald-400">
          <ShieldCheck className="size-3.5 shrink-0" aria-hidden="true" />
          Signed by your verified domain
        </p>
      );
    case 'address':
      return (
        <p className="text-muted-foreground flex items-start gap-1.5 text-xs">
          <Info className="mt-px size-3.5 shrink-0" aria-hidden="true" />
          <span>
            A confirmed address: it goes out without your own domain’s signature. Verify a domain for the best delivery.
          </span>
        </p>
      );
    case 'unconfirmed-account':
      return (
        <p className={warning}>
          <AlertTriangle className="mt-px size-3.5 shrink-0" aria-hidden="true" />
          <span>Confirm your email address to send from it: follow the link we emailed you.</span>
        </p>
      );
    case 'pending':
      return (
        <p className={warning}>
          <AlertTriangle className="mt-px size-3.5 shrink-0" aria-hidden="true" />
          <span>{address} is not confirmed yet: follow the link we emailed to it.</span>
        </p>
      );
    case 'unproven':
      return (
        <p className={warning}>
          <AlertTriangle className="mt-px size-3.5 shrink-0" aria-hidden="true" />
          <span>
            You cannot send from {address}: verify its domain in Domain Settings, or add it as a sender address and
            confirm it.
          </span>
        </p>
      );
  }
}

/**
 * The sender choice: exactly the addresses the account may send from. A saved sender it may no
 * longer use stays shown (disabled) with how to fix it; with nothing proven yet, says how to get one.
 */
export function SenderField({
  value,
  error,
  senders,
  onChange,
}: {
  value: string;
  error: string | undefined;
  senders: ReturnType<typeof useSenderChoices>;
  onChange: (fromEmail: string) => void;
}) {
  const offered = senders.choices.some((choice) => choice.address === value);
  return (
    <div className="space-y-1.5">
      <Label htmlFor="campaign-fromEmail">From email</Label>
      {senders.loading ? (
        <Skeleton className="h-9 w-full" />
      ) : (
        <Select
          value={value}
          onValueChange={onChange}
          onOpenChange={(open) => {
            if (open) senders.refresh();
          }}
        >
          <SelectTrigger
            id="campaign-fromEmail"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'campaign-fromEmail-error' : undefined}
            className="w-full"
          >
            <SelectValue placeholder="Choose a sender" />
          </SelectTrigger>
          <SelectContent>
            {value && !offered && (
              <SelectItem value={value} disabled>
                {value}
              </SelectItem>
            )}
            {senders.choices.map((choice) => (
              <SelectItem key={choice.address} value={choice.address}>
                {choice.address}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      )}
      <FieldError id="campaign-fromEmail-error" message={error} />
      {!senders.loading && value && <StandingNote standing={senders.standing} address={value} />}
      {!senders.loading && !senders.proven && (
        <p className="text-muted-foreground text-xs">
          No confirmed sender yet. Confirm your own email address, verify a domain in Domain Settings, or add an address
          and follow the link we email to it.
        </p>
      )}
      <a
        href={SENDER_ADDRESSES_PATH}
        target="_blank"
        rel="noopener"
        className="text-primary inline-flex items-center gap-1 text-xs font-medium underline-offset-4 hover:underline"
      >
        Add a sender address
        <ExternalLink className="size-3" aria-hidden="true" />
        <span className="sr-only">(opens in a new tab)</span>
      </a>
    </div>
  );
}
