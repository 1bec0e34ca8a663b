import { MailX } from 'lucide-react';
import type { BounceReason } from '@sendwell/contract/bounces';
import type { CampaignReport } from '@sendwell/contract/campaigns';

import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatNumber } from '@/lib/format';
import { EmptyPanel } from './report-widgets';

/** What each reason of the fixed set (packages/contract/src/bounces.ts) means, in a reader's words. */
const REASON_LABELS: Record<BounceReason, string> = {
  'user-unknown': 'Mailbox does not exist',
  'host-unknown': 'Domain does not exist',
  'has-moved': 'Address has moved',
  'not-accepting-mail': 'Domain accepts no mail',
  'mailbox-full': 'Mailbox full',
  'message-too-big': 'Message too big',
  blocked: 'Blocked (sender reputation)',
  'policy-violation': "Receiver's policy",
  'spam-detected': 'Judged as spam',
  'content-error': 'Content refused',
  'security-error': 'Authentication failed',
  'rate-limited': 'Rate limited',
  expired: 'Gave up retrying',
  'system-error': "Receiver's system error",
  'network-error': 'Receiver unreachable',
  suspended: 'Mailbox disabled',
  filtered: "Recipient's filter",
  undetermined: 'Reason not given',
};

/** The report's bounces by reason: hard ones (the address is bad, now suppressed) apart from soft. */
export function BouncesByReasonCard({ bounces }: { bounces: CampaignReport['bouncesByReason'] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Bounces by reason</h2>
        </CardTitle>
        <CardDescription>
          Hard bounces mean the address is bad and it is no longer mailed; soft ones are counted, and an address
          suppressed after its third in 30 days.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {bounces.length === 0 ? (
          <EmptyPanel icon={MailX} text="No bounces." />
        ) : (
          <Table aria-label="Bounces by reason">
            <TableHeader>
              <TableRow>
                <TableHead>Reason</TableHead>
                <TableHead>Kind</TableHead>
                <TableHead className="text-right">Bounces</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {bounces.map((row) => (
                <TableRow key={`${row.reason}-${row.hard}`}>
                  <TableCell>{REASON_LABELS[row.reason]}</TableCell>
                  <TableCell>
                    <Badge variant={row.hard ? 'destructive' : 'secondary'}>{row.hard ? 'Hard' : 'Soft'}</Badge>
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{formatNumber(row.count)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
