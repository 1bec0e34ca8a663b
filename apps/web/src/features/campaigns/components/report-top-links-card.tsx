import { Link2 } from 'lucide-react';
import type { CampaignReport } from '@sendwell/contract/campaigns';

import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatNumber } from '@/lib/format';
import { EmptyPanel } from './report-widgets';

/** The report's most-clicked links: clicks and unique clicks per link. */
export function TopLinksCard({ links }: { links: CampaignReport['topLinks'] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Most-clicked links</h2>
        </CardTitle>
        <CardDescription>Human clicks on each link in the email (link scanners left out).</CardDescription>
      </CardHeader>
      <CardContent>
        {links.length === 0 ? (
          <EmptyPanel icon={Link2} text="No clicks yet." />
        ) : (
          // A fixed layout gives the link column what is left, so a long URL is cut with an ellipsis
          // instead of widening the card past a phone's screen (first-hour finding 8).
          <Table aria-label="Most-clicked links" className="table-fixed">
            <TableHeader>
              <TableRow>
                <TableHead>Link</TableHead>
                <TableHead className="w-16 text-right">Clicks</TableHead>
                <TableHead className="w-16 text-right">Unique</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {links.map((link) => (
                <TableRow key={link.url}>
                  <TableCell className="truncate" title={link.url}>
                    {link.url}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{formatNumber(link.clicks)}</TableCell>
                  <TableCell className="text-right tabular-nums">{formatNumber(link.uniqueClicks)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
