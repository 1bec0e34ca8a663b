import type { SubscriptionStatus } from '@sendwell/contract/billing';

/** Status text of the Current Plan tab (spec §2 Billing). */
export function subscriptionStatusText(status: SubscriptionStatus | string | null | undefined): string {
  switch (status) {
    case 'trialing':
      return '14-day trial';
    case 'active':
      return 'Active subscription';
    case 'past_due':
      return 'Payment overdue';
    case 'canceled':
      return 'Canceled';
    default:
      return 'Unknown status';
  }
}

export type StatusBadgeVariant = 'default' | 'secondary' | 'destructive' | 'outline';

/** Badge style and label: active default, trialing secondary, past_due destructive, else outline; empty → 'Trial'. */
export function subscriptionStatusBadge(status: SubscriptionStatus | string | null | undefined): {
  variant: StatusBadgeVariant;
  label: string;
} {
  if (!status) return { variant: 'outline', label: 'Trial' };
  const variant: StatusBadgeVariant =
    status === 'active'
      ? 'default'
      : status === 'trialing'
        ? 'secondary'
        : status === 'past_due'
          ? 'destructive'
          : 'outline';
  const label = status
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
  return { variant, label };
}
