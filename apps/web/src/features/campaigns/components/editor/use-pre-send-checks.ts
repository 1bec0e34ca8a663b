import * as React from 'react';
import type { CurrentUser } from '@sendwell/contract/auth';

import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useContactLists, useEmailPreview, useSegments } from '../../api/use-editor-data';
import { previewableBlocks } from '../../editor/campaign-form';
import { blockingChecks, preSendChecks } from '../../editor/pre-send-checks';
import type { CampaignDraftState } from './use-campaign-draft';
import type { useSenderChoices } from './use-sender-choices';

/** The id of the checklist's section: the action bar's "fix" button scrolls to it. */
export const PRE_SEND_CHECKLIST_ID = 'pre-send-checklist';

/**
 * The pre-send checklist for the draft as it is now, from the same lists, segments and sender
 * overview the editor shows, and the user's postal address. `blocked` lines disable Send and Schedule.
 */
export function usePreSendChecks(
  draft: CampaignDraftState,
  senders: ReturnType<typeof useSenderChoices>,
  user: CurrentUser,
) {
  const lists = useContactLists(true);
  const segments = useSegments(true);
  const listCounts = React.useMemo(
    () => (lists.data ? new Map(lists.data.map((list) => [list.id, list.subscriberCount])) : undefined),
    [lists.data],
  );
  const segmentCounts = React.useMemo(
    () => (segments.data ? new Map(segments.data.map((segment) => [segment.id, segment.contactCount])) : undefined),
    [segments.data],
  );
  // The same request as the preview's (same debounce, same key), so the size costs no extra render.
  const previewPayload = React.useMemo(
    () => ({ blocks: previewableBlocks(draft.draft.blocks), subject: draft.draft.subject }),
    [draft.draft.blocks, draft.draft.subject],
  );
  const settled = useDebouncedValue(previewPayload, 300);
  const rendered = useEmailPreview(settled.blocks, settled.subject, true);
  const checks = preSendChecks(draft.draft, {
    listCounts,
    segmentCounts,
    senderStanding: senders.overviewLoaded ? senders.standing : undefined,
    postalAddress: user.postalAddress,
    selectedContacts: draft.selection?.chosen ? draft.selection.contactIds.length : 0,
    renderedHtml: rendered.data?.html,
  });
  const blocked = blockingChecks(checks);

  /** Reads the lists, segments and senders again (after fixing something in another tab). */
  const recheck = () => {
    void lists.refetch();
    void segments.refetch();
    senders.refresh();
  };

  return { checks, blocked, recheck };
}

export type PreSendChecksState = ReturnType<typeof usePreSendChecks>;
