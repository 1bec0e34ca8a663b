import type { EditImpact, EnrolmentState, SequenceStatus, TriggerType } from '@sendwell/contract/sequences';

import { formatNumber } from '@/lib/format';

/** How a sequence's status reads on its badge. */
export const STATUS_LABELS: Record<SequenceStatus, string> = { draft: 'Draft', active: 'Active', paused: 'Paused' };

/** How a trigger type reads, on the sequence's card and in the builder alike. */
export const TRIGGER_LABELS: Record<TriggerType, string> = {
  signup: 'A contact joins a list',
  segment_joined: 'A contact joins a segment',
  tag_added: 'A tag is added to a contact',
  custom_event: 'A custom event (API)',
  manual: 'Manual enrolment only',
};

/** How an enrolment's state reads. */
export const ENROLMENT_STATE_LABELS: Record<EnrolmentState, string> = {
  active: 'Active',
  completed: 'Completed',
  exited: 'Exited',
};

/** What saving an edit does to the enrolments in flight, in words (the edit-impact confirmation). */
export function editImpactText(impact: EditImpact): string {
  const inFlight = `${formatNumber(impact.active)} ${impact.active === 1 ? 'enrolment is' : 'enrolments are'} in this sequence now.`;
  if (!impact.publishesVersion) return `${inFlight} The flow is unchanged for them.`;
  return `${inFlight} ${formatNumber(impact.moving)} will move on in the updated flow; ${formatNumber(impact.finishingOnOld)} will finish on the current one.`;
}

/** The answer to a manual enrolment ({enrolled}), in words. */
export function enrolResultText(enrolled: number): string {
  if (enrolled === 0) return 'No one was enrolled: they are already in this sequence or cannot be mailed.';
  return `Enrolled ${formatNumber(enrolled)} ${enrolled === 1 ? 'contact' : 'contacts'}.`;
}
