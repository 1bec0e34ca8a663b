import { Star } from 'lucide-react';
import type { Domain } from '@sendwell/contract/domains';

import { Card, CardContent } from '@/components/ui/card';
import { Progress } from '@/components/ui/progress';
import { formatRate } from '../domain-display';
import { DomainStatusBadge } from './status-badges';

/**
 * The highlighted primary domain card (spec §2): name, 'Primary sending domain', Verified or
 * Pending, sender score, bounce and spam rates (or 'No sending yet'), and the warming bar while
 * warming is under 100%.
 */
export function PrimaryDomainCard({ domain }: { domain: Domain }) {
  const noSending = domain.senderScore === null;
  return (
    <Card className="border-primary border-2" aria-labelledby="primary-domain-name">
      <CardContent className="space-y-4">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="flex items-center gap-3">
            <span className="bg-primary text-primary-foreground flex size-10 items-center justify-center rounded-lg">
              <Star className="size-5" aria-hidden="true" />
            </span>
            <div>
              <h2 id="primary-domain-name" className="text-lg font-semibold break-all">
                {domain.domain}
              </h2>
              <p className="text-muted-foreground text-sm">Primary sending domain</p>
            </div>
          </div>
          <DomainStatusBadge isVerified={domain.isVerified} />
        </div>
        <dl className="grid grid-cols-3 gap-3 text-center">
          <div className="bg-background rounded-lg border p-3">
            <dt className="text-muted-foreground text-xs">Sender Score</dt>
            <dd className="text-lg font-semibold">{noSending ? '—' : domain.senderScore}</dd>
          </div>
          <div className="bg-background rounded-lg border p-3">
            <dt className="text-muted-foreground text-xs">Bounce Rate</dt>
            <dd className="text-lg font-semibold">{noSending ? '—' : formatRate(domain.bounceRate)}</dd>
          </div>
          <div className="bg-background rounded-lg border p-3">
            <dt className="text-muted-foreground text-xs">Spam Rate</dt>
            <dd className="text-lg font-semibold">{noSending ? '—' : formatRate(domain.spamRate)}</dd>
          </div>
        </dl>
        {noSending && (
          <p className="text-muted-foreground text-sm">No sending yet: scores appear once this domain has sent mail.</p>
        )}
        {domain.warmingProgress < 100 && (
          <div className="space-y-1">
            <div className="flex justify-between text-sm">
              <span id="primary-warming-label">Domain warming</span>
              <span className="text-muted-foreground">
                {domain.warming.status === 'not_started'
                  ? 'Starts once verified'
                  : `${domain.warmingProgress}% · Week ${domain.warming.week} of 4`}
              </span>
            </div>
            <Progress value={domain.warmingProgress} aria-labelledby="primary-warming-label" />
          </div>
        )}
      </CardContent>
    </Card>
  );
}
