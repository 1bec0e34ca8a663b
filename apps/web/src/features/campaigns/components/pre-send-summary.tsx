import { CheckCircle2, CircleAlert, Loader2, TriangleAlert } from 'lucide-react';
import type { CampaignDetail } from '@sendwell/contract/campaigns';

import { useCampaign } from '../api/use-campaigns';
import { useContactLists, useSegments, useSenderOverview } from '../api/use-editor-data';
import { initialDraft } from '../editor/campaign-form';
import { blockingChecks, preSendChecks, type PreSendCheck } from '../editor/pre-send-checks';
import { senderStanding } from '../editor/sender-options';

/**
 * The pre-send checklist of a saved campaign, for a send started outside the editor (the Campaigns
 * list): the same checks as the editor's, from the stored campaign. Undefined while it loads.
 */
export function useSavedCampaignChecks(
  campaignId: number | null,
  /** The account's postal address (the footer carries it); undefined while it is not known. */
  postalAddress: string | undefined,
): PreSendCheck[] | undefined {
  const enabled = campaignId !== null;
  const campaign = useCampaign(campaignId, enabled);
  const lists = useContactLists(enabled);
  const segments = useSegments(enabled);
  const overview = useSenderOverview(enabled);
  if (!campaign.data || postalAddress === undefined) return undefined;
  return checksOfSaved(campaign.data, {
    listCounts: lists.data ? new Map(lists.data.map((list) => [list.id, list.subscriberCount])) : undefined,
    segmentCounts: segments.data
      ? new Map(segments.data.map((segment) => [segment.id, segment.contactCount]))
      : undefined,
    senderStanding: overview.data ? senderStanding(campaign.data.fromEmail, overview.data) : undefined,
    postalAddress,
  });
}

function checksOfSaved(campaign: CampaignDetail, context: Parameters<typeof preSendChecks>[1]): PreSendCheck[] {
  const draft = initialDraft(campaign, { fromEmail: '', fromName: '', listIds: [], blocks: [] });
  return preSendChecks(draft, context);
}

/**
 * The checklist as the send confirmation shows it: each line ticked or with what is wrong (fixed in
 * the editor). Read-only: the confirmation is a last look, not a place to edit.
 */
export function PreSendSummary({ checks }: { checks: readonly PreSendCheck[] }) {
  const blocked = blockingChecks(checks);
  return (
    <section aria-labelledby="pre-send-summary-heading" className="bg-muted/40 space-y-2 rounded-md border p-3">
      <h3 id="pre-send-summary-heading" className="text-foreground text-sm font-semibold">
        Before you send
      </h3>
      <p className="text-xs" data-testid="pre-send-summary-status">
        {blocked.length === 0
          ? 'Everything is ready to send.'
          : `${blocked.length} ${blocked.length === 1 ? 'thing needs' : 'things need'} fixing in the editor before this can be sent.`}
      </p>
      <ul className="space-y-1.5" aria-label="Pre-send checklist">
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
              <Loader2 className="mt-0.5 size-4 shrink-0 animate-spin" aria-hidden="true" />
            ) : (
              <CircleAlert className="text-destructive mt-0.5 size-4 shrink-0" aria-hidden="true" />
            )}
            <p className="min-w-0 flex-1 text-xs break-words">
              <span className="text-foreground font-medium">{check.label}</span>
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
              {' — '}
              {check.detail}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
