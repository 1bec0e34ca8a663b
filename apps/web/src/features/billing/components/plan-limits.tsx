import type { Plan } from '@sendwell/contract/billing';
import { Globe, Mail, Users } from 'lucide-react';

import { formatLimit } from '@/lib/format';

/** Subscribers, emails per month and custom domains of a plan; null shows as Unlimited. */
export function PlanLimits({ limits }: { limits: Plan['limits'] }) {
  const rows = [
    { label: 'Subscribers', value: limits.subscribers, icon: Users },
    { label: 'Emails per month', value: limits.emailsPerMonth, icon: Mail },
    { label: 'Custom domains', value: limits.domains, icon: Globe },
  ];
  return (
    <dl className="grid gap-3 sm:grid-cols-3">
      {rows.map(({ label, value, icon: Icon }) => (
        <div key={label} className="rounded-lg border p-4">
          <dt className="text-muted-foreground flex items-center gap-2 text-sm">
            <Icon className="size-4" aria-hidden="true" />
            {label}
          </dt>
          <dd className="mt-1 text-2xl font-semibold">{formatLimit(value)}</dd>
        </div>
      ))}
    </dl>
  );
}
