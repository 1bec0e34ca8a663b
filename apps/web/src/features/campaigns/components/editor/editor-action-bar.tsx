import { CalendarClock, Save, Send } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import type { EditorBusy } from './use-save-and-send';

/** The editor's bottom bar: whether the draft is saved, then Cancel, Save Draft, Schedule Later and Send Campaign. */
export function EditorActionBar({
  dirty,
  everSaved,
  busy,
  confirmingSend,
  onCancel,
  onSave,
  onSchedule,
  onSend,
}: {
  dirty: boolean;
  /** The campaign exists on the server (saved at least once). */
  everSaved: boolean;
  busy: EditorBusy;
  /** The send confirmation is open (its own button shows the progress then). */
  confirmingSend: boolean;
  onCancel: () => void;
  onSave: () => void;
  onSchedule: () => void;
  onSend: () => void;
}) {
  return (
    <div className="bg-background flex flex-wrap items-center justify-between gap-2 border-t px-4 py-3 sm:px-6">
      <p className="text-muted-foreground text-xs" aria-live="polite">
        {dirty ? 'Unsaved changes' : everSaved ? 'All changes saved' : 'Not saved yet'}
      </p>
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="ghost" onClick={onCancel} disabled={busy !== null}>
          Cancel
        </Button>
        <Button variant="outline" onClick={onSave} disabled={busy !== null}>
          {busy === 'save' ? <Spinner className="size-4" label="Saving" /> : <Save aria-hidden="true" />}
          {busy === 'save' ? 'Saving...' : 'Save Draft'}
        </Button>
        <Button variant="outline" onClick={onSchedule} disabled={busy !== null}>
          <CalendarClock aria-hidden="true" />
          Schedule Later
        </Button>
        <Button onClick={onSend} disabled={busy !== null}>
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
