import { Ban, CircleCheck, CircleDashed } from 'lucide-react';
import type { AliasMessageOutcome, EmailAlias } from '@sendwell/contract/aliases';

import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/utils';
import { ALIAS_STATUS_LABELS, aliasStatus, OUTCOME_LABELS, OUTCOME_STYLES } from '../alias-display';

const STATUS_STYLES = {
  active: 'border-transparent bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300',
  pending: 'border-transparent bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
  off: 'border-transparent bg-zinc-200 text-zinc-800 dark:bg-zinc-800 dark:text-zinc-200',
} as const;
const STATUS_ICONS = { active: CircleCheck, pending: CircleDashed, off: Ban } as const;

/** An alias's Pending / Active badge (spec §4), or Off when the user switched it off. */
export function AliasStatusBadge({ alias }: { alias: Pick<EmailAlias, 'isVerified' | 'isActive' | 'domainVerified'> }) {
  const status = aliasStatus(alias);
  const Icon = STATUS_ICONS[status];
  return (
    <Badge className={STATUS_STYLES[status]} data-status={status}>
      <Icon aria-hidden="true" />
      {ALIAS_STATUS_LABELS[status]}
    </Badge>
  );
}

/** A destination's confirmation: Confirmed, or Pending until its link is followed. */
export function ConfirmationBadge({ confirmed }: { confirmed: boolean }) {
  const status = confirmed ? 'active' : 'pending';
  const Icon = STATUS_ICONS[status];
  return (
    <Badge className={STATUS_STYLES[status]} data-status={confirmed ? 'confirmed' : 'pending'}>
      <Icon aria-hidden="true" />
      {confirmed ? 'Confirmed' : 'Pending'}
    </Badge>
  );
}

/** What became of one message (activity log, test result). */
export function OutcomeBadge({ outcome, className }: { outcome: AliasMessageOutcome; className?: string }) {
  return (
    <Badge className={cn(OUTCOME_STYLES[outcome], className)} data-outcome={outcome}>
      {OUTCOME_LABELS[outcome]}
    </Badge>
  );
}
