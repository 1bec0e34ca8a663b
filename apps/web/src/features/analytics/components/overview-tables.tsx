import { Link } from 'wouter';
import type { OverviewDay, OverviewListDay, OverviewResponse, Reputation } from '@sendwell/contract/analytics';

import { Badge } from '@/components/ui/badge';
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatDate, formatNumber, formatPercent } from '@/lib/format';
import { cn } from '@/lib/utils';
import { formatDay } from '../overview-range';

const rate = (value: number | null) => (value === null ? '—' : formatPercent(value));
const num = 'text-right tabular-nums';

/** The mail chart's figures, a row per day. */
export function MailTable({ days }: { days: OverviewDay[] }) {
  return (
    <Table scrollLabel="Mail per day">
      <TableCaption className="sr-only">Mail per day (UTC)</TableCaption>
      <TableHeader>
        <TableRow>
          <TableHead scope="col">Day</TableHead>
          {['Sent', 'Delivered', 'Human opens', 'Machine opens', 'Clicks'].map((name) => (
            <TableHead key={name} scope="col" className={num}>
              {name}
            </TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {days.map((day) => (
          <TableRow key={day.day}>
            <TableHead scope="row" className="font-normal">
              {formatDay(day.day)}
            </TableHead>
            <TableCell className={num}>{formatNumber(day.sent)}</TableCell>
            <TableCell className={num}>{formatNumber(day.delivered)}</TableCell>
            <TableCell className={num}>{formatNumber(day.opened)}</TableCell>
            <TableCell className={num}>{formatNumber(day.machineOpened)}</TableCell>
            <TableCell className={num}>{formatNumber(day.clicked)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** The problems chart's figures, a row per day. */
export function ProblemsTable({ days }: { days: OverviewDay[] }) {
  return (
    <Table scrollLabel="Bounces, complaints and unsubscribes per day">
      <TableCaption className="sr-only">Bounces, complaints and unsubscribes per day (UTC)</TableCaption>
      <TableHeader>
        <TableRow>
          <TableHead scope="col">Day</TableHead>
          {['Bounces', 'Complaints', 'Unsubscribes'].map((name) => (
            <TableHead key={name} scope="col" className={num}>
              {name}
            </TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {days.map((day) => (
          <TableRow key={day.day}>
            <TableHead scope="row" className="font-normal">
              {formatDay(day.day)}
            </TableHead>
            <TableCell className={num}>{formatNumber(day.bounced)}</TableCell>
            <TableCell className={num}>{formatNumber(day.complaints)}</TableCell>
            <TableCell className={num}>{formatNumber(day.unsubscribes)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** The list chart's figures, a row per day. */
export function ListGrowthTable({ days }: { days: OverviewListDay[] }) {
  return (
    <Table scrollLabel="Contacts added and lost per day">
      <TableCaption className="sr-only">Contacts added and lost per day (UTC)</TableCaption>
      <TableHeader>
        <TableRow>
          <TableHead scope="col">Day</TableHead>
          {['Added', 'Unsubscribed', 'Bounced', 'Complained', 'Net'].map((name) => (
            <TableHead key={name} scope="col" className={num}>
              {name}
            </TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {days.map((day) => (
          <TableRow key={day.day}>
            <TableHead scope="row" className="font-normal">
              {formatDay(day.day)}
            </TableHead>
            <TableCell className={num}>{formatNumber(day.added)}</TableCell>
            <TableCell className={num}>{formatNumber(day.unsubscribed)}</TableCell>
            <TableCell className={num}>{formatNumber(day.bounced)}</TableCell>
            <TableCell className={num}>{formatNumber(day.complained)}</TableCell>
            <TableCell className={num}>{day.net > 0 ? `+${formatNumber(day.net)}` : formatNumber(day.net)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

const REPUTATION_LOOK: Record<Reputation, { label: string; className: string }> = {
  good: {
    label: 'Good',
    className: 'border-transparent bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300',
  },
  fair: {
    label: 'Fair',
    className: 'border-transparent bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-300',
  },
  poor: {
    label: 'Poor',
    className: 'border-transparent bg-rose-100 text-rose-800 dark:bg-rose-950 dark:text-rose-300',
  },
};

/** Each sending domain's mail and its reputation. */
export function DomainTable({ domains }: { domains: OverviewResponse['domains'] }) {
  if (domains.length === 0) return <p className="text-muted-foreground text-sm">No mail went out in this range.</p>;
  return (
    <Table scrollLabel="Sending domains">
      <TableHeader>
        <TableRow>
          <TableHead scope="col">Domain</TableHead>
          <TableHead scope="col" className={num}>
            Sent
          </TableHead>
          <TableHead scope="col" className={num}>
            Delivered
          </TableHead>
          <TableHead scope="col" className={num}>
            Bounce rate
          </TableHead>
          <TableHead scope="col" className={num}>
            Complaint rate
          </TableHead>
          <TableHead scope="col">Reputation</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {domains.map((domain) => (
          <TableRow key={domain.domain}>
            <TableHead scope="row" className="font-medium">
              {domain.domain || '(no domain)'}
            </TableHead>
            <TableCell className={num}>{formatNumber(domain.sent)}</TableCell>
            <TableCell className={num}>{formatNumber(domain.delivered)}</TableCell>
            <TableCell className={num}>{rate(domain.bounceRate)}</TableCell>
            <TableCell className={num}>{rate(domain.complaintRate)}</TableCell>
            <TableCell>
              <Badge className={cn(REPUTATION_LOOK[domain.reputation].className)}>
                {REPUTATION_LOOK[domain.reputation].label}
              </Badge>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** The best campaigns of the range by human open rate. */
export function TopCampaignsTable({
  campaigns,
  minSent,
}: {
  campaigns: OverviewResponse['topCampaigns'];
  minSent: number;
}) {
  if (campaigns.length === 0)
    return (
      <p className="text-muted-foreground text-sm">
        No campaign finished in this range with at least {formatNumber(minSent)} emails sent.
      </p>
    );
  return (
    <Table scrollLabel="Top campaigns">
      <TableHeader>
        <TableRow>
          <TableHead scope="col">Campaign</TableHead>
          <TableHead scope="col" className={num}>
            Sent
          </TableHead>
          <TableHead scope="col" className={num}>
            Open rate
          </TableHead>
          <TableHead scope="col" className={num}>
            Click rate
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {campaigns.map((campaign) => (
          <TableRow key={campaign.id}>
            <TableHead scope="row" className="font-medium">
              <Link href={`/campaigns/${campaign.id}/report`} className="underline underline-offset-4">
                {campaign.name}
              </Link>
              <span className="text-muted-foreground block text-xs font-normal">{formatDate(campaign.sentAt)}</span>
            </TableHead>
            <TableCell className={num}>{formatNumber(campaign.sent)}</TableCell>
            <TableCell className={num}>{formatPercent(campaign.openRate)}</TableCell>
            <TableCell className={num}>{formatPercent(campaign.clickRate)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** The most clicked links of the range (human clicks). */
export function TopLinksTable({ links }: { links: OverviewResponse['topLinks'] }) {
  if (links.length === 0) return <p className="text-muted-foreground text-sm">No link was clicked in this range.</p>;
  return (
    <Table className="table-fixed">
      <TableHeader>
        <TableRow>
          <TableHead scope="col">Link</TableHead>
          <TableHead scope="col" className={cn(num, 'w-20')}>
            Clicks
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {links.map((link) => (
          <TableRow key={link.url}>
            <TableHead scope="row" className="truncate font-normal" title={link.url}>
              {link.url}
            </TableHead>
            <TableCell className={num}>{formatNumber(link.clicks)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
