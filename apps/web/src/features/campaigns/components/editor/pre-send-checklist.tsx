import * as React from 'react';
import { CheckCircle2, CircleAlert, ExternalLink, Loader2, RefreshCw, TriangleAlert } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { apiErrorText } from '@/lib/toast-error';
import { useSavePostalAddress } from '../../api/use-editor-data';
import type { PreSendCheck, PreSendFix } from '../../editor/pre-send-checks';
import { PRE_SEND_CHECKLIST_ID, type PreSendChecksState } from './use-pre-send-checks';

/** Where an editor field lives, to focus it when its check's fix is pressed. */
const FIELD_TARGET: Record<'subject' | 'fromEmail' | 'recipients', string> = {
  subject: 'campaign-subject',
  fromEmail: 'campaign-fromEmail',
  recipients: 'list-group-heading',
};

/** Shows the Settings tab and focuses an element in it once it is on screen. */
function focusInSettings(showSettings: () => void, elementId: string) {
  showSettings();
  window.setTimeout(() => {
    const element = document.getElementById(elementId);
    if (!element) return;
    element.scrollIntoView({ block: 'center', behavior: 'smooth' });
    // A heading is not focusable: the first checkbox of the group is.
    const focusable =
      element.tagName === 'H3' ? element.closest('section')?.querySelector<HTMLElement>('button, input') : element;
    focusable?.focus({ preventScroll: true });
  }, 0);
}

/** The postal address typed in place (the editor stays open with its draft). */
function PostalAddressFix() {
  const save = useSavePostalAddress();
  const [value, setValue] = React.useState('');
  const [error, setError] = React.useState<string | undefined>();
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!value.trim()) {
      setError('Enter your postal address');
      return;
    }
    setError(undefined);
    save.mutate(value.trim(), { onError: (failure) => setError(apiErrorText(failure, 'Could not save the address.')) });
  };
  return (
    <form onSubmit={submit} className="mt-2 space-y-1.5" noValidate>
      <Label htmlFor="pre-send-postal-address" className="text-xs">
        Postal address
      </Label>
      <div className="flex gap-2">
        <Input
          id="pre-send-postal-address"
          value={value}
          maxLength={500}
          placeholder="1 Garden Lane, Springfield"
          className="h-8 text-sm"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'pre-send-postal-address-error' : undefined}
          onChange={(event) => setValue(event.target.value)}
        />
        <Button type="submit" size="sm" className="h-8" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save'}
        </Button>
      </div>
      {error && (
        <p id="pre-send-postal-address-error" className="text-destructive text-xs" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

function FixAction({
  check,
  fix,
  showSettings,
  selectBlock,
}: {
  check: PreSendCheck;
  fix: PreSendFix;
  showSettings: () => void;
  selectBlock: (id: string) => void;
}) {
  switch (fix.kind) {
    case 'postal-address':
      return <PostalAddressFix />;
    case 'page':
      // A new browser tab keeps the draft open; Check again reads what changed there.
      return (
        <a
          href={fix.href}
          target="_blank"
          rel="noreferrer"
          className="text-primary mt-1 inline-flex items-center gap-1 text-xs font-medium underline underline-offset-2"
        >
          {check.fixLabel}
          <ExternalLink className="size-3" aria-hidden="true" />
          <span className="sr-only">(opens in a new tab)</span>
        </a>
      );
    case 'field':
      return (
        <button
          type="button"
          className="text-primary mt-1 text-xs font-medium underline underline-offset-2"
          onClick={() => focusInSettings(showSettings, FIELD_TARGET[fix.field])}
        >
          {check.fixLabel}
        </button>
      );
    case 'block':
      return (
        <button
          type="button"
          className="text-primary mt-1 text-xs font-medium underline underline-offset-2"
          onClick={() => selectBlock(fix.blockId)}
        >
          {check.fixLabel}
        </button>
      );
  }
}

/**
 * "Before you send": each thing a send needs, ticked or with what is wrong and a link to its fix
 * (first-hour finding 1: the postal-address rule surfaced only after Send Now, as a toast).
 */
export function PreSendChecklist({
  state,
  showSettings,
  selectBlock,
}: {
  state: PreSendChecksState;
  showSettings: () => void;
  selectBlock: (id: string) => void;
}) {
  const { checks, blocked, recheck } = state;
  return (
    <section
      id={PRE_SEND_CHECKLIST_ID}
      aria-labelledby="pre-send-heading"
      tabIndex={-1}
      className="bg-card space-y-2 rounded-lg border p-3 outline-none"
    >
      <div className="flex items-center justify-between gap-2">
        <h3 id="pre-send-heading" className="text-sm font-semibold">
          Before you send
        </h3>
        <Button type="button" variant="ghost" size="sm" className="h-7 px-2 text-xs" onClick={recheck}>
          <RefreshCw className="size-3.5" aria-hidden="true" />
          Check again
        </Button>
      </div>
      <p className="text-muted-foreground text-xs" aria-live="polite">
        {blocked.length === 0
          ? 'Everything is ready to send.'
          : `${blocked.length} ${blocked.length === 1 ? 'thing needs' : 'things need'} fixing before you can send or schedule.`}
      </p>
      <ul className="space-y-2" aria-label="Pre-send checklist">
        {checks.map((check) => (
          <li key={check.id} data-check={check.id} data-status={check.status} className="flex items-start gap-2">
            {check.status === 'ok' ? (
              <CheckCircle2
                className="mt-0.5 size-4 shrink-0 text-emerald-600 dark:text-emerald-400"
                aria-hidden="true"
              />
            ) : check.status === 'warning' ? (
              <TriangleAlert className="mt-0.5 size-4 shrink-0 text-amber-600 dark:text-amber-400" aria-hidden="true" />
            ) : check.status === 'checking' ? (
              <Loader2 className="text-muted-foreground mt-0.5 size-4 shrink-0 animate-spin" aria-hidden="true" />
            ) : (
              <CircleAlert className="text-destructive mt-0.5 size-4 shrink-0" aria-hidden="true" />
            )}
            <div className="min-w-0 flex-1 text-sm">
              <p className="font-medium">
                {check.label}
                <span className="sr-only">
                  :{' '}
                  {check.status === 'ok'
                    ? 'ready'
                    : check.status === 'checking'
                      ? 'checking'
                      : check.status === 'warning'
                        ? 'worth a look'
                        : 'needs fixing'}
                </span>
              </p>
              <p className="text-muted-foreground text-xs break-words">{check.detail}</p>
              {(check.status === 'blocked' || check.status === 'warning') && check.fix && (
                <FixAction check={check} fix={check.fix} showSettings={showSettings} selectBlock={selectBlock} />
              )}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
