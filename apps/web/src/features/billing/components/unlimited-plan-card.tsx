import { Infinity as InfinityIcon, Sparkles } from 'lucide-react';

import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { PlanFeatures } from './plan-features';

/** The unlimited features of spec §2 Billing. */
const UNLIMITED_FEATURES = [
  'Unlimited subscribers and emails',
  'Custom domain sending',
  'Advanced automation',
  'A/B testing',
  'Advanced analytics',
  'API access',
  'Priority support',
  'White-label options',
] as const;

/** Billing view of a user on plan 'unlimited': no upgrade, no portal. */
export function UnlimitedPlanCard() {
  const limits = ['Subscribers', 'Emails per month', 'Domains'];
  return (
    <Card className="border-violet-300 dark:border-violet-800">
      <CardHeader>
        <div className="flex flex-wrap items-center gap-2">
          <Sparkles className="size-5 text-violet-600 dark:text-violet-400" aria-hidden="true" />
          <CardTitle>
            <h2 className="text-xl">Unlimited Plan</h2>
          </CardTitle>
          <Badge className="bg-violet-700 text-white">Unlimited Pro</Badge>
        </div>
        <CardDescription>Your account has unlimited access to every Sendwell feature.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        <dl className="grid gap-3 sm:grid-cols-3">
          {limits.map((label) => (
            <div key={label} className="flex flex-col-reverse rounded-lg border p-4 text-center">
              <dt className="text-muted-foreground text-sm">{label}</dt>
              <dd className="text-3xl font-bold">
                <span aria-hidden="true">∞</span>
                <span className="sr-only">Unlimited</span>
              </dd>
            </div>
          ))}
        </dl>
        <div className="space-y-3">
          <h3 className="flex items-center gap-2 font-medium">
            <InfinityIcon className="size-4" aria-hidden="true" />
            Unlimited features
          </h3>
          <PlanFeatures features={UNLIMITED_FEATURES} twoColumns />
        </div>
      </CardContent>
    </Card>
  );
}
