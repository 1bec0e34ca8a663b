import * as React from 'react';
import { ChevronLeft, ChevronRight, Download, Search, Users } from 'lucide-react';
import { CAMPAIGN_ACTIVITY_KINDS, type CampaignActivityKind } from '@sendwell/contract/campaigns';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { formatNumber } from '@/lib/format';
import { campaignActivityParams, useCampaignActivity } from '../api/use-campaigns';
import { formatDateTime } from './campaign-table';
import { EmptyPanel } from './report-widgets';

const PAGE_SIZE = 25;

const KIND_LABEL: Record<CampaignActivityKind, { tab: string; detail: string; empty: string }> = {
  opened: { tab: 'Opened', detail: 'How', empty: 'Nobody has opened it yet (machine opens are not listed).' },
  clicked: { tab: 'Clicked', detail: 'Links', empty: 'Nobody has clicked yet (link scanners are not listed).' },
  bounced: { tab: 'Bounced', detail: 'Reason', empty: 'No bounces.' },
  unsubscribed: { tab: 'Unsubscribed', detail: 'Detail', empty: 'Nobody unsubscribed.' },
  complained: { tab: 'Complained', detail: 'Detail', empty: 'No spam complaints.' },
};

/**
 * Who did what with the campaign: who opened (a human open or a click), clicked, bounced (with the
 * reason), unsubscribed and complained; searchable by address or name, a page at a time, and the
 * whole list as CSV (GET /api/campaigns/:id/activity and activity.csv).
 */
export function ActivityCard({ campaignId }: { campaignId: number }) {
  const [kind, setKind] = React.useState<CampaignActivityKind>('opened');
  const [search, setSearch] = React.useState('');
  const deferredSearch = React.useDeferredValue(search);
  const [page, setPage] = React.useState(1);
  const activity = useCampaignActivity(campaignId, { kind, search: deferredSearch, page });
  const total = activity.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const exportHref = `/api/campaigns/${campaignId}/activity.csv?${campaignActivityParams({ kind, search: deferredSearch })}`;
  const label = KIND_LABEL[kind];

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Who opened, clicked, bounced or left</h2>
        </CardTitle>
        <CardDescription>
          Each recipient once, with when they first did it. Opens are human opens and opens implied by a click.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <Tabs
          value={kind}
          onValueChange={(value) => {
            setKind(value as CampaignActivityKind);
            setPage(1);
          }}
        >
          <div className="-mx-1 overflow-x-auto px-1">
            <TabsList aria-label="Which recipients">
              {CAMPAIGN_ACTIVITY_KINDS.map((k) => (
                <TabsTrigger key={k} value={k}>
                  {KIND_LABEL[k].tab}
                </TabsTrigger>
              ))}
            </TabsList>
          </div>
          {/* One panel, the chosen tab's: each tab's aria-controls then names a panel that exists. */}
          <TabsContent value={kind} className="mt-2 space-y-4">
            <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
              <div className="relative flex-1">
                <Search
                  className="text-muted-foreground pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2"
                  aria-hidden="true"
                />
                <Input
                  type="search"
                  value={search}
                  maxLength={200}
                  onChange={(event) => {
                    setSearch(event.target.value);
                    setPage(1);
                  }}
                  placeholder="Search by email or name"
                  aria-label="Search recipients"
                  className="pl-8"
                />
              </div>
              <Button variant="outline" size="sm" asChild>
                <a href={exportHref} download>
                  <Download aria-hidden="true" />
                  Export CSV
                </a>
              </Button>
            </div>

            {activity.isError ? (
              <div className="flex items-center justify-between gap-3 text-sm">
                <p className="text-muted-foreground">The list could not be loaded.</p>
                <Button variant="outline" size="sm" onClick={() => void activity.refetch()}>
                  Retry
                </Button>
              </div>
            ) : !activity.data ? (
              <Skeleton className="h-32 w-full" />
            ) : activity.data.items.length === 0 ? (
              <EmptyPanel
                icon={Users}
                text={deferredSearch.trim() ? 'No recipient matches the search.' : label.empty}
              />
            ) : (
              <Table aria-label={`Recipients who ${label.tab.toLowerCase()}`} className="table-fixed">
                <TableHeader>
                  <TableRow>
                    <TableHead>Recipient</TableHead>
                    <TableHead className="hidden w-40 sm:table-cell">First</TableHead>
                    <TableHead className="w-14 text-right">Times</TableHead>
                    <TableHead className="hidden md:table-cell">{label.detail}</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {activity.data.items.map((item) => (
                    <TableRow key={`${item.email}-${item.at}`}>
                      <TableCell className="whitespace-normal">
                        <p className="truncate font-medium" title={item.email}>
                          {item.email}
                        </p>
                        {item.name && <p className="text-muted-foreground truncate text-xs">{item.name}</p>}
                        <p className="text-muted-foreground text-xs sm:hidden">{formatDateTime(item.at)}</p>
                      </TableCell>
                      <TableCell className="hidden sm:table-cell">{formatDateTime(item.at)}</TableCell>
                      <TableCell className="text-right tabular-nums">{formatNumber(item.count)}</TableCell>
                      <TableCell
                        className="text-muted-foreground hidden truncate md:table-cell"
                        title={item.detail ?? ''}
                      >
                        {item.detail ?? '—'}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}

            {total > 0 && (
              <nav className="flex items-center justify-between gap-2 text-sm" aria-label="Pages">
                <p className="text-muted-foreground tabular-nums" aria-live="polite">
                  {formatNumber((page - 1) * PAGE_SIZE + 1)}–{formatNumber(Math.min(page * PAGE_SIZE, total))} of{' '}
                  {formatNumber(total)}
                </p>
                <div className="flex gap-2">
                  <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
                    <ChevronLeft aria-hidden="true" />
                    Previous
                  </Button>
                  <Button variant="outline" size="sm" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
                    Next
                    <ChevronRight aria-hidden="true" />
                  </Button>
                </div>
              </nav>
            )}
          </TabsContent>
        </Tabs>
      </CardContent>
    </Card>
  );
}
