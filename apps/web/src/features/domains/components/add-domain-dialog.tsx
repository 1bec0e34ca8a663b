import { useEffect, useReducer } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { ArrowLeft, CircleCheck, Clock, RefreshCw, TrendingUp } from 'lucide-react';
import { bareDomain, createDomainBodySchema, type Domain } from '@sendwell/contract/domains';

import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { getApiErrorFields, getApiErrorStatus } from '@/lib/api';
import { toastError } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';
import { useAddDomain, useVerifyDomain } from '../api/use-domains';
import { ADD_DOMAIN_FAILED, VERIFIED_CLOSE_MS, verifiedCount, WIZARD_START, wizardReducer } from '../domain-display';
import { DnsRecordList } from './dns-record-list';

/** The 'Add Custom Domain' dialog holding the setup wizard (spec §2, §4): input → dns → verified. */
export function AddDomainDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const [state, dispatch] = useReducer(wizardReducer, WIZARD_START);

  // Every opening starts at the input step.
  useEffect(() => {
    if (!open) dispatch({ type: 'reset' });
  }, [open]);

  // Spec §4/§9: the verified view closes itself after 2 s.
  useEffect(() => {
    if (!open || state.step !== 'verified') return;
    const timer = setTimeout(() => onOpenChange(false), VERIFIED_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [open, state.step, onOpenChange]);

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>Add Custom Domain</DialogTitle>
          <DialogDescription>
            {state.step === 'input' && 'Send from your own domain for better deliverability and brand recognition.'}
            {state.step === 'dns' &&
              `Add these three DNS records at your DNS host for ${state.domain?.domain ?? 'your domain'}.`}
            {state.step === 'verified' && 'Your domain is verified and ready to send.'}
          </DialogDescription>
        </DialogHeader>
        {state.step === 'input' && (
          <DomainInputStep
            added={state.domain}
            onAdded={(domain) => dispatch({ type: 'added', domain })}
            onCancel={() => onOpenChange(false)}
          />
        )}
        {state.step === 'dns' && state.domain && (
          <DnsStep
            domain={state.domain}
            onChecked={(domain) => dispatch({ type: 'checked', domain })}
            onBack={() => dispatch({ type: 'back' })}
            onLater={() => onOpenChange(false)}
          />
        )}
        {state.step === 'verified' && state.domain && <VerifiedStep domain={state.domain} />}
      </DialogContent>
    </Dialog>
  );
}

function DomainInputStep({
  added,
  onAdded,
  onCancel,
}: {
  /** The domain this wizard already added (after Back): submitting its name again returns to its records. */
  added: Domain | null;
  onAdded: (domain: Domain) => void;
  onCancel: () => void;
}) {
  const addDomain = useAddDomain();
  const form = useForm({
    resolver: zodResolver(createDomainBodySchema),
    defaultValues: { domain: added?.domain ?? '' },
  });
  const error = form.formState.errors.domain?.message;

  const submit = form.handleSubmit(async (body) => {
    if (added && body.domain === added.domain) {
      onAdded(added);
      return;
    }
    try {
      onAdded(await addDomain.mutateAsync(body));
    } catch (failure) {
      const field = getApiErrorFields(failure).domain;
      if (getApiErrorStatus(failure) === 400 && field) {
        form.setError('domain', { message: field });
        return;
      }
      toastError(failure, ADD_DOMAIN_FAILED, { serverMessage: 'client-error' });
    }
  });

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <div className="space-y-2">
        <Label htmlFor="add-domain-name">Domain</Label>
        <Input
          id="add-domain-name"
          placeholder="example.com"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          aria-required
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'add-domain-help add-domain-error' : 'add-domain-help'}
          {...form.register('domain')}
          onPaste={(event) => {
            // A copied address (https://www.example.com/…) is cleaned up rather than refused.
            const pasted = event.clipboardData.getData('text');
            const bare = bareDomain(pasted);
            if (bare === pasted.trim()) return;
            event.preventDefault();
            form.setValue('domain', bare, { shouldDirty: true });
          }}
        />
        <p id="add-domain-help" className="text-muted-foreground text-sm">
          Enter your domain without www or http://, e.g. example.com or mail.example.com.
        </p>
        {error && (
          <p id="add-domain-error" className="text-destructive text-sm">
            {error}
          </p>
        )}
      </div>
      <div className="flex items-start gap-3 rounded-lg border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-900 dark:border-emerald-900 dark:bg-emerald-950 dark:text-emerald-100">
        <TrendingUp className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <p>Custom domains get 41.8% higher open rates than shared sending domains.</p>
      </div>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? 'Adding...' : 'Add Domain'}
        </Button>
      </DialogFooter>
    </form>
  );
}

function DnsStep({
  domain,
  onChecked,
  onBack,
  onLater,
}: {
  domain: Domain;
  onChecked: (domain: Domain) => void;
  onBack: () => void;
  onLater: () => void;
}) {
  const verify = useVerifyDomain();
  const checkNow = async () => {
    try {
      const checked = await verify.mutateAsync(domain.id);
      onChecked(checked);
      if (!checked.isVerified) {
        toast({
          title: 'Not verified yet',
          description: `${verifiedCount(checked)} of 3 records verified. DNS changes can take a while to show up.`,
        });
      }
    } catch (failure) {
      toastError(failure, 'Failed to check the DNS records. Please try again.', { serverMessage: 'client-error' });
    }
  };

  return (
    <div className="space-y-4">
      <div
        className="flex items-start gap-3 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-100"
        role="note"
      >
        <Clock className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <p>
          DNS propagation takes 24-48 hours. We check again automatically (every 15 minutes for the first 48 hours, then
          hourly) and tell you when {domain.domain} is verified.
        </p>
      </div>
      <DnsRecordList records={domain.records} domain={domain.domain} />
      <DialogFooter className="gap-2 sm:justify-between">
        <Button type="button" variant="ghost" onClick={onBack}>
          <ArrowLeft aria-hidden="true" />
          Back
        </Button>
        <div className="flex flex-col-reverse gap-2 sm:flex-row">
          <Button type="button" variant="outline" onClick={onLater}>
            I'll Configure This Later
          </Button>
          <Button type="button" onClick={() => void checkNow()} disabled={verify.isPending}>
            <RefreshCw className={verify.isPending ? 'animate-spin' : undefined} aria-hidden="true" />
            {verify.isPending ? 'Checking...' : 'Check now'}
          </Button>
        </div>
      </DialogFooter>
    </div>
  );
}

function VerifiedStep({ domain }: { domain: Domain }) {
  return (
    <div className="flex flex-col items-center gap-3 py-6 text-center" role="status">
      <span className="flex size-14 items-center justify-center rounded-full bg-emerald-100 text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300">
        <CircleCheck className="size-8" aria-hidden="true" />
      </span>
      <h3 className="text-lg font-semibold">Domain verified!</h3>
      <p className="text-muted-foreground max-w-md text-sm">
        SPF, DKIM and DMARC are in place for {domain.domain}. Warming starts now: up to 1,000 emails a day in the first
        week, rising to 10,000 a day by week 4.
      </p>
    </div>
  );
}
