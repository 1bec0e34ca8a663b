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
export type EditorBusy = null | 'save' | 'schedule' | 'send' | 'test';

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

  /** Saves the draft (create or update) with a status; null when it did not save (errors are shown). */
  const persist = async (status: SaveStatus, scheduledAt?: string): Promise<CampaignDetail | null> => {
    let values = draft.draft;
    let body = toCampaignBody(values, status, scheduledAt);
    const invalid = validateCampaignBody(body);
    if (invalid) {
      draft.showErrors(invalid);
      const first = Object.values(invalid.fields)[0] ?? Object.values(invalid.blocks)[0];
      toast({ title: 'Error', description: first ?? SAVE_FAILED, variant: 'destructive' });
      return null;
    }
    draft.clearErrors();
    const id = draft.campaignId;
    try {
      // Contacts picked on the Contacts page get their list now, when a campaign is saved with them.
      const { selection } = draft;
      if (selection?.chosen) {
        const list = await createSelectionList.mutateAsync({
          name: selection.listName,
          contactIds: selection.contactIds,
        });
        draft.adoptSelectionList(list.id);
        values = { ...values, listIds: [...values.listIds, list.id] };
        body = toCampaignBody(values, status, scheduledAt);
      }
      const print = draftFingerprint(values);
      const saved = id === null ? await create.mutateAsync(body) : await update.mutateAsync({ id, body });
      draft.markSaved(saved.id, print);
      return saved;
    } catch (error) {
      const fields = getApiErrorFields(error);
      if (Object.keys(fields).length > 0) draft.showErrors(serverDraftErrors(fields, draft.draft.blocks));
      toastError(error, SAVE_FAILED, { serverMessage: 'client-error' });
      return null;
    }
  };

  const saveDraft = async () => {
    setBusy('save');
    const saved = await persist('draft');
    setBusy(null);
    if (!saved) return;
    // The editor stays open (first-hour finding 6: Save Draft used to close it); the bar says 'Saved'.
    toast({ title: 'Campaign Saved', description: 'Your campaign has been saved successfully!' });
  };

  const schedule = async (iso: string, date: Date) => {
    setBusy('schedule');
    const saved = await persist('scheduled', iso);
    setBusy(null);
    setScheduleOpen(false);
    if (!saved) return;
    toast({ title: 'Campaign Scheduled', description: `“${saved.name}” will be sent ${formatScheduleTime(date)}.` });
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
