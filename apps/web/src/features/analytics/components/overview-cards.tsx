import type { OverviewResponse } from '@sendwell/contract/analytics';

import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { formatNumber, formatPercent } from '@/lib/format';

type Totals = OverviewResponse['totals'];
const rate = (value: number | null) => (value === null ? '—' : formatPercent(value));

/** Each figure: its name, the count, and what it is a share of (every rate says what it counts). */
const CARDS: { title: string; value: (t: Totals) => string; basis: (t: Totals) => string }[] = [
  {
    title: 'Sent',
    value: (t) => formatNumber(t.sent),
    basis: (t) => `${formatNumber(t.delivered)} delivered (sent minus hard bounces)`,
  },
  {
    title: 'Human opens',
    value: (t) => rate(t.openRate),
    basis: (t) =>
      `${formatNumber(t.opened)} opened or clicked · ${rate(t.machineOpenRate)} machine opens (${formatNumber(t.machineOpened)}) not counted`,
  },
  {
    title: 'Clicks',
    value: (t) => rate(t.clickRate),
    basis: (t) => `${formatNumber(t.clicked)} clicked by a reader · link scanners not counted`,
  },
  {
    title: 'Bounces',
    value: (t) => rate(t.bounceRate),
    basis: (t) => `${formatNumber(t.bounced)} hard bounces of sent`,
  },
  {
    title: 'Complaints',
    value: (t) => rate(t.complaintRate),
    basis: (t) => `${formatNumber(t.complaints)} marked as spam, of delivered`,
  },
  {
    title: 'Unsubscribes',
    value: (t) => rate(t.unsubscribeRate),
    basis: (t) => `${formatNumber(t.unsubscribes)} of delivered`,
  },
  {
    title: 'List growth',
    value: (t) => {
      const net = t.contactsAdded - t.contactsLost;
      return net > 0 ? `+${formatNumber(net)}` : formatNumber(net);
    },
    basis: (t) => `${formatNumber(t.contactsAdded)} added · ${formatNumber(t.contactsLost)} lost`,
  },
];

/** The range's totals, one card each; rates are of the mail sent in the range. */
export function OverviewCards({ totals }: { totals: Totals }) {
  return (
    <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4" aria-label="Totals for the range">
      {CARDS.map((card) => (
        <li key={card.title}>
          <Card className="h-full gap-2">
            <CardHeader>
              <h2 className="text-muted-foreground text-sm font-medium">{card.title}</h2>
            </CardHeader>
            <CardContent className="space-y-1">
              <p className="text-2xl font-bold tabular-nums">{card.value(totals)}</p>
              <p className="text-muted-foreground text-xs">{card.basis(totals)}</p>
            </CardContent>
          </Card>
        </li>
      ))}
    </ul>
  );
}
