import { CircleAlert, CircleCheck, CircleDashed } from 'lucide-react';
import type { DnsRecordStatus } from '@sendwell/contract/domains';

import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/utils';
import { STATUS_LABELS } from '../domain-display';

const STATUS_STYLES: Record<DnsRecordStatus, string> = {
  verified: 'border-transparent bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300',
  missing: 'border-transparent bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
  wrong: 'border-transparent bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-300',
};
const STATUS_ICONS = { verified: CircleCheck, missing: CircleDashed, wrong: CircleAlert } as const;

/** A DNS record's real status: Verified, Missing or Wrong value. */
export function RecordStatusBadge({ status }: { status: DnsRecordStatus }) {
  const Icon = STATUS_ICONS[status];
  return (
    <Badge className={STATUS_STYLES[status]} data-status={status}>
      <Icon aria-hidden="true" />
      {STATUS_LABELS[status]}
    </Badge>
  );
}

/** A domain's Verified or Pending badge (spec §4). */
export function DomainStatusBadge({ isVerified, className }: { isVerified: boolean; className?: string }) {
  return (
    <Badge className={cn(isVerified ? STATUS_STYLES.verified : STATUS_STYLES.missing, className)}>
      {isVerified ? <CircleCheck aria-hidden="true" /> : <CircleDashed aria-hidden="true" />}
      {isVerified ? 'Verified' : 'Pending'}
    </Badge>
  );
}
