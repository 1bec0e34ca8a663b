import * as React from 'react';
import type { CampaignDetail } from '@sendwell/contract/campaigns';

import { getApiErrorFields, isUnauthorizedError } from '@/lib/api';
import { formatNumber } from '@/lib/format';
import { toastError } from '@/lib/toast-error';
import { redirectToLogin } from '@/lib/unauthorized';
import { toast } from '@/lib/use-toast';
import { fetchRecipientCount, useCreateCampaign, useSendTest, useUpdateCampaign } from '../../api/use-campaigns';
import { useCreateSelectionList } from '../../api/use-editor-data';
import { SAVE_FAILED, SEND_FAILED } from '../../campaign-toasts';
import {
  draftFingerprint,
  serverDraftErrors,
  toCampaignBody,
  validateCampaignBody,
  type SaveStatus,
} from '../../editor/campaign-form';
import { formatScheduleTime } from '../../editor/schedule';
import type { CampaignDraftState } from './use-campaign-draft';

/** How the editor closed: nothing saved, or what happened to the campaign. */
export type EditorResult = { kind: 'saved' | 'scheduled' | 'sent'; campaign: CampaignDetail };

/** What the editor is waiting for: its buttons are disabled meanwhile. */
/** When a campaign is scheduled for, and the time zone it was chosen in. */
type Schedule = { at: string; timeZone: string };

export type EditorBusy = null | 'save' | 'schedule' | 'send' | 'test';

/** Autosave: what the last automatic save of the draft did ('idle' before any, or after a manual save). */
export type AutosaveState = 'idle' | 'saving' | 'saved' | 'failed';

/** How long the draft must rest after a change before it is saved automatically. */
const AUTOSAVE_DELAY_MS = 1500;

/** The send confirmation: the saved campaign and its recipient count (null while it loads). */
export interface SendConfirmation {
  id: number;
  name: string;
  count: number | null;
  countError: boolean;
}

/**
 * Save Draft, Schedule Later, Send Campaign (save, confirm with the recipient count, then save
 * with status 'sent', spec §4) and Send Test, with the state of their dialogs. Every action saves
 * the draft first; a save that fails shows its errors and stops the action.
 */
export function useSaveAndSend(draft: CampaignDraftState, onDone: (result: EditorResult) => void) {
  const create = useCreateCampaign();
  const update = useUpdateCampaign();
  const sendTest = useSendTest();
  const createSelectionList = useCreateSelectionList();
  const [busy, setBusy] = React.useState<EditorBusy>(null);
  const [scheduleOpen, setScheduleOpen] = React.useState(false);
  const [testOpen, setTestOpen] = React.useState(false);
  const [confirm, setConfirm] = React.useState<SendConfirmation | null>(null);
  const [autosave, setAutosave] = React.useState<AutosaveState>('idle');
  // Saves run one after another, and each reads the id the one before it got: an autosave and a
  // Save Draft pressed while it runs must not both create the campaign.
  const saveQueue = React.useRef<Promise<unknown>>(Promise.resolve());
  const savedId = React.useRef<number | null>(draft.campaignId);
  /** The list made for contacts picked on the Contacts page, once a save has made it. */
  const selectionListId = React.useRef<number | null>(null);

  /**
   * Saves the draft (create or update) with a status; null when it did not save. A manual save
   * shows what stopped it (fields, toast); a quiet one (autosave) only reports it by returning null.
   */
  const persist = (status: SaveStatus, schedule?: Schedule, quiet = false): Promise<CampaignDetail | null> => {
    const values = draft.draft;
    const run = saveQueue.current.then(() => persistNow(values, status, schedule, quiet));
    saveQueue.current = run.catch(() => undefined);
    return run;
  };

  const persistNow = async (
    saving: typeof draft.draft,
    status: SaveStatus,
    schedule: Schedule | undefined,
    quiet: boolean,
  ): Promise<CampaignDetail | null> => {
    let values = saving;
    let body = toCampaignBody(values, status, schedule);
    const invalid = validateCampaignBody(body);
    if (invalid) {
      if (quiet) return null;
      draft.showErrors(invalid);
      const first = Object.values(invalid.fields)[0] ?? Object.values(invalid.blocks)[0];
      toast({ title: 'Error', description: first ?? SAVE_FAILED, variant: 'destructive' });
      return null;
    }
    if (!quiet) draft.clearErrors();
    const id = savedId.current ?? draft.campaignId;
    try {
      // Contacts picked on the Contacts page get their list now, when a campaign is saved with them.
      const { selection } = draft;
      if (selection?.chosen && selectionListId.current === null) {
        const list = await createSelectionList.mutateAsync({
          name: selection.listName,
          contactIds: selection.contactIds,
        });
        selectionListId.current = list.id;
        draft.adoptSelectionList(list.id);
      }
      // A save queued before the list was made still holds the draft without it.
      const listId = selectionListId.current;
      if (listId !== null && !values.listIds.includes(listId)) {
        values = { ...values, listIds: [...values.listIds, listId] };
        body = toCampaignBody(values, status, schedule);
      }
      const print = draftFingerprint(values);
      const saved = id === null ? await create.mutateAsync(body) : await update.mutateAsync({ id, body });
      savedId.current = saved.id;
      draft.markSaved(saved.id, print);
      return saved;
    } catch (error) {
      if (quiet) return null;
      const fields = getApiErrorFields(error);
      if (Object.keys(fields).length > 0) draft.showErrors(serverDraftErrors(fields, draft.draft.blocks));
      toastError(error, SAVE_FAILED, { serverMessage: 'client-error' });
      return null;
    }
  };

  /**
   * Autosave: a draft that changed is saved once it rests for AUTOSAVE_DELAY_MS, quietly, when it
   * would pass the save's checks (a new campaign once it has a name, subject and sender) and
   * nothing else is being saved or sent. The bar shows Saving… then Saved.
   */
  const print = draftFingerprint(draft.draft);
  const autosaveNow = React.useRef<() => Promise<void>>(async () => undefined);
  autosaveNow.current = async () => {
    setAutosave('saving');
    const saved = await persist('draft', undefined, true);
    setAutosave(saved ? 'saved' : 'failed');
  };
  const canAutosave =
    draft.dirty &&
    busy === null &&
    confirm === null &&
    validateCampaignBody(toCampaignBody(draft.draft, 'draft')) === null;
  React.useEffect(() => {
    if (!canAutosave) return;
    const timer = window.setTimeout(() => void autosaveNow.current(), AUTOSAVE_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [canAutosave, print]);

  const saveDraft = async () => {
    setBusy('save');
    const saved = await persist('draft');
    setAutosave('idle');
    setBusy(null);
    if (!saved) return;
    // The editor stays open (first-hour finding 6: Save Draft used to close it); the bar says 'Saved'.
    toast({ title: 'Campaign Saved', description: 'Your campaign has been saved successfully!' });
  };

  const schedule = async (iso: string, date: Date, timeZone: string) => {
    setBusy('schedule');
    const saved = await persist('scheduled', { at: iso, timeZone });
    setBusy(null);
    setScheduleOpen(false);
    if (!saved) return;
    toast({
      title: 'Campaign Scheduled',
      description: `“${saved.name}” will be sent ${formatScheduleTime(date, timeZone)}.`,
    });
    onDone({ kind: 'scheduled', campaign: saved });
  };

  const startSend = async () => {
    setBusy('send');
    const saved = await persist('draft');
    if (!saved) {
      setBusy(null);
      return;
    }
    setConfirm({ id: saved.id, name: saved.name, count: null, countError: false });
    try {
      const { count } = await fetchRecipientCount(saved.id);
      setConfirm((current) => current && { ...current, count });
    } catch (error) {
      if (isUnauthorizedError(error)) {
        setConfirm(null);
        redirectToLogin();
      } else {
        setConfirm((current) => current && { ...current, countError: true });
      }
    } finally {
      setBusy(null);
    }
  };

  const confirmSend = async () => {
    if (!confirm) return;
    setBusy('send');
    try {
      const sent = await update.mutateAsync({ id: confirm.id, body: { status: 'sent' } });
      setConfirm(null);
      toast({
        title: 'Campaign Sending',
        description: `“${sent.name}” is on its way to ${formatNumber(sent.totalRecipients)} ${sent.totalRecipients === 1 ? 'recipient' : 'recipients'}.`,
      });
      onDone({ kind: 'sent', campaign: sent });
    } catch (error) {
      setConfirm(null);
      toastError(error, SEND_FAILED, { serverMessage: 'client-error' });
    } finally {
      setBusy(null);
    }
  };

  /** Send Test: saves the draft when it has changes (or was never saved), then sends the test. */
  const runSendTest = async (emails: string[]): Promise<boolean> => {
    setBusy('test');
    try {
      let id = draft.campaignId;
      if (id === null || draft.dirty) {
        const saved = await persist('draft');
        if (!saved) {
          setTestOpen(false);
          return false;
        }
        id = saved.id;
      }
      const { sent } = await sendTest.mutateAsync({ id, emails });
      toast({
        title: 'Test Email Sent',
        description: `Sent a test to ${sent === 1 ? emails[0] : `${sent} addresses`}.`,
      });
      return true;
    } catch (error) {
      toastError(error, 'Failed to send the test email. Please try again.', { serverMessage: 'client-error' });
      return false;
    } finally {
      setBusy(null);
    }
  };

  return {
    busy,
    autosave,
    saveDraft,
    schedule,
    scheduleOpen,
    setScheduleOpen,
    startSend,
    confirm,
    confirmSend,
    cancelSend: () => setConfirm(null),
    runSendTest,
    testOpen,
    setTestOpen,
  };
}
