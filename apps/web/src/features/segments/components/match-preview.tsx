import type { ReactNode } from 'react';
import { Users } from 'lucide-react';
import { segmentConditionsSchema } from '@sendwell/contract/segments';

import { Spinner } from '@/components/ui/spinner';
import { formatNumber } from '@/lib/format';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { MATCH_PREVIEW_SIZE, useSegmentMatchPreview } from '../api/use-segments';
import { areRulesComplete, humanizeRuleMessage, type EditableRule } from '../segment-rules';

/** The live count waits this long after the last edit before asking the server. */
const MATCH_PREVIEW_DEBOUNCE_MS = 400;

/**
 * 'N contacts match' under the rule list: the unsaved rules are counted by the server (debounced),
 * with the first few matching emails. Incomplete rules are not sent; the box says what to do instead.
 */
export function MatchPreview({ operator, rules }: { operator: 'AND' | 'OR'; rules: readonly EditableRule[] }) {
  const complete = areRulesComplete(rules);
  // Complete rules can still be invalid (a date that is not one): the contract says why, without a request.
  const parsed = complete ? segmentConditionsSchema.safeParse({ operator, rules }) : null;
  const invalidMessage = parsed && !parsed.success ? describeIssue(parsed.error.issues[0], rules) : null;
  // Debounce the serialised conditions: a stable string, so unchanged rules do not restart the timer.
  const serialized = parsed?.success ? JSON.stringify(parsed.data) : null;
  const debounced = useDebouncedValue(serialized, MATCH_PREVIEW_DEBOUNCE_MS);
  const preview = useSegmentMatchPreview(
    debounced === null ? null : (JSON.parse(debounced) as { operator: 'AND' | 'OR'; rules: EditableRule[] }),
  );
  const settling = serialized !== debounced || preview.isFetching;

  let body: ReactNode;
  if (!complete) {
    body = <p className="text-muted-foreground">Complete the rules to see matches</p>;
  } else if (invalidMessage !== null) {
    body = <p className="text-destructive">{invalidMessage}</p>;
  } else if (preview.isError && !settling) {
    body = <p className="text-destructive">Could not count the matching contacts.</p>;
  } else if (!preview.data) {
    body = (
      <p className="text-muted-foreground flex items-center gap-2">
        <Spinner label="Counting matching contacts" /> Counting matching contacts…
      </p>
    );
  } else {
    const { count, contacts } = preview.data;
    const more = count - contacts.length;
    body = (
      <div className="space-y-1">
        <p className="flex flex-wrap items-center gap-2 font-medium">
          <span data-testid="segment-match-count">
            {formatNumber(count)} {count === 1 ? 'contact matches' : 'contacts match'}
          </span>
          {settling && <Spinner label="Updating the count" className="size-3.5" />}
        </p>
        {contacts.length > 0 && (
          <p className="text-muted-foreground text-xs break-words">
            {contacts
              .slice(0, MATCH_PREVIEW_SIZE)
              .map((contact) => contact.email)
              .join(', ')}
            {more > 0 ? ` and ${formatNumber(more)} more` : ''}
          </p>
        )}
      </div>
    );
  }

  return (
    <div className="bg-muted/40 flex items-start gap-3 rounded-lg border border-dashed p-3 text-sm" aria-live="polite">
      <Users className="text-muted-foreground mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <div className="min-w-0 flex-1">{body}</div>
    </div>
  );
}

/** A contract issue about the rules, with the rule's field shown by its label. */
function describeIssue(
  issue: { message: string; path: readonly PropertyKey[] } | undefined,
  rules: readonly EditableRule[],
): string {
  if (!issue) return 'These rules are not valid.';
  const index = issue.path[0] === 'rules' && typeof issue.path[1] === 'number' ? issue.path[1] : -1;
  const rule = rules[index];
  return rule ? humanizeRuleMessage(issue.message, rule.field) : issue.message;
}
