import type { BillingUsage, UsageMeter } from '@sendwell/contract/billing';
import { Globe, Mail, Users } from 'lucide-react';

import { Progress } from '@/components/ui/progress';
import { cn } from '@/lib/utils';

const count = (value: number) => value.toLocaleString('en-US');

/** One limit's bar: "1,234 of 10,000 subscribers"; an unlimited one shows only the use. */
function Meter({
  label,
  unit,
  meter,
  icon: Icon,
}: {
  label: string;
  unit: string;
  meter: UsageMeter;
  icon: typeof Users;
}) {
  const share = meter.limit ? Math.min(100, (meter.used / meter.limit) * 100) : 0;
  // "0 of 1 domain", "0 of 5 domains"
  const noun = meter.limit === 1 ? unit.replace(/s$/, '') : unit;
  const text =
    meter.limit === null
      ? `${count(meter.used)} ${unit} · no limit`
      : `${count(meter.used)} of ${count(meter.limit)} ${noun}`;
  return (
    <div className="space-y-2 rounded-lg border p-4">
      <div className="text-muted-foreground flex items-center gap-2 text-sm">
        <Icon className="size-4" aria-hidden="true" />
        {label}
      </div>
      <p className="font-medium">{text}</p>
      {meter.limit !== null && (
        <Progress
          value={share}
          aria-label={`${label}: ${text}`}
          className={cn(share >= 100 ? '[&>*]:bg-destructive' : share >= 80 && '[&>*]:bg-amber-500')}
        />
      )}
    </div>
  );
}

/** The account's use of each plan limit (Current Plan tab). */
export function UsageMeters({ usage }: { usage: BillingUsage }) {
  return (
    <section aria-labelledby="usage-heading" className="space-y-3">
      <h3 id="usage-heading" className="font-medium">
        Usage
      </h3>
      <div className="grid gap-3 sm:grid-cols-3">
        <Meter label="Subscribers" unit="subscribers" meter={usage.subscribers} icon={Users} />
        <Meter label="Emails this month" unit="emails" meter={usage.emailsThisMonth} icon={Mail} />
        <Meter label="Custom domains" unit="domains" meter={usage.domains} icon={Globe} />
      </div>
    </section>
  );
}
