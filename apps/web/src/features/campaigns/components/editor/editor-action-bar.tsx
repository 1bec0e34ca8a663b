import * as React from 'react';
import { CalendarClock, Check, CircleAlert, Loader2, Save, Send } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useToastClearance } from '@/lib/toast-clearance';
import type { PreSendCheck } from '../../editor/pre-send-checks';
import type { AutosaveState, EditorBusy } from './use-save-and-send';

/**
 * The editor's bottom bar: whether the draft is saved (Saving… while it is saved automatically), then Cancel, Save Draft, Schedule Later and
 * Send Campaign. While a pre-send check blocks, Schedule Later and Send Campaign are disabled and the
 * bar says why, with a link to the checklist.
 */
export function EditorActionBar({
  dirty,
  everSaved,
  autosave,
  busy,
  confirmingSend,
  blocked,
  onShowChecklist,
  onCancel,
  onSave,
  onSchedule,
  onSend,
}: {
  dirty: boolean;
  /** The campaign exists on the server (saved at least once). */
  everSaved: boolean;
  /** What the automatic save of the draft is doing. */
  autosave: AutosaveState;
  busy: EditorBusy;
  /** The send confirmation is open (its own button shows the progress then). */
  confirmingSend: boolean;
  /** The pre-send checks that do not pass. */
  blocked: readonly PreSendCheck[];
  onShowChecklist: () => void;
  onCancel: () => void;
  onSave: () => void;
  onSchedule: () => void;
  onSend: () => void;
}) {
  const bar = React.useRef<HTMLDivElement>(null);
  useToastClearance(bar);
  const sendBlocked = blocked.length > 0;
  const first = blocked[0];
  const blockedReason = first ? `Can’t send yet — ${first.label}: ${first.detail}` : null;
  return (
    <div
      ref={bar}
      className="bg-background flex flex-wrap items-center justify-between gap-2 border-t px-4 py-3 sm:px-6"
    >
      <div className="min-w-0 flex-1 space-y-0.5">
        <p className="text-muted-foreground flex items-center gap-1 text-xs" aria-live="polite">
          {autosave === 'saving' ? (
            <>
              <Loader2 className="size-3.5 animate-spin" aria-hidden="true" />
              <span>Saving…</span>
            </>
          ) : dirty ? (
            autosave === 'failed' ? (
              'Unsaved changes · could not save automatically, use Save Draft'
            ) : (
              'Unsaved changes'
            )
          ) : everSaved ? (
            <>
              <Check className="size-3.5 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
              <span>
                <span className="text-foreground font-medium">Saved</span> · All changes saved
              </span>
            </>
          ) : (
            'Not saved yet'
          )}
        </p>
        {blockedReason && (
          <p id="send-blocked-reason" className="text-destructive flex items-start gap-1 text-xs">
            <CircleAlert className="mt-px size-3.5 shrink-0" aria-hidden="true" />
            <span className="min-w-0">
              {blockedReason}{' '}
              <button
                type="button"
                className="font-medium whitespace-nowrap underline underline-offset-2"
                onClick={onShowChecklist}
              >
                {blocked.length === 1 ? 'Fix it' : `See all ${blocked.length}`}
              </button>
            </span>
          </p>
        )}
      </div>
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="ghost" onClick={onCancel} disabled={busy !== null}>
          Cancel
        </Button>
        <Button variant="outline" onClick={onSave} disabled={busy !== null}>
          {busy === 'save' ? <Spinner className="size-4" label="Saving" /> : <Save aria-hidden="true" />}
          {busy === 'save' ? 'Saving...' : 'Save Draft'}
        </Button>
        <Button
          variant="outline"
          onClick={onSchedule}
          disabled={busy !== null || sendBlocked}
          aria-describedby={sendBlocked ? 'send-blocked-reason' : undefined}
        >
          <CalendarClock aria-hidden="true" />
          Schedule Later
        </Button>
        <Button
          onClick={onSend}
          disabled={busy !== null || sendBlocked}
          aria-describedby={sendBlocked ? 'send-blocked-reason' : undefined}
        >
          {busy === 'send' && !confirmingSend ? (
            <Spinner className="size-4" label="Saving" />
          ) : (
            <Send aria-hidden="true" />
          )}
          Send Campaign
        </Button>
      </div>
    </div>
  );
}
