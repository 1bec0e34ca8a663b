import { Link } from 'wouter';
import { FlaskConical, Megaphone, Workflow } from 'lucide-react';
import type { OutboxItem } from '@sendwell/contract/outbox';

import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { cn } from '@/lib/utils';
import { formatSentAt, formatSentAtFull } from '../outbox-view';

const SKELETON_ROWS = 6;
// Secondary text: text-muted-foreground falls below 4.5:1 on a hovered (bg-muted) row.
const SUBTLE_TEXT = 'text-foreground/70';

/** The badge of a test message (sent with Send Test, not to the campaign's list). */
export function TestBadge() {
  return (
    <Badge
      variant="outline"
      className="border-transparent bg-violet-100 text-violet-800 dark:bg-violet-950 dark:text-violet-200"
    >
      <FlaskConical aria-hidden="true" />
      Test
    </Badge>
  );
}

function SentAt({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={formatSentAtFull(iso)} className="whitespace-nowrap tabular-nums">
      {formatSentAt(iso)}
    </time>
  );
}

/** What sent a message: its campaign, or its sequence and the step within it; null for single messages. */
function sentByOf(item: OutboxItem): { kind: 'campaign' | 'sequence'; name: string } | null {
  if (item.campaignName !== null) return { kind: 'campaign', name: item.campaignName };
  if (item.sequenceName !== null)
    return {
      kind: 'sequence',
      name: item.sequenceStep ? `${item.sequenceName} · ${item.sequenceStep}` : item.sequenceName,
    };
  return null;
}

/** The campaign or sequence icon; named for screen readers where nothing else says which it is. */
function SentByIcon({ kind, className, named }: { kind: 'campaign' | 'sequence'; className: string; named: boolean }) {
  const Icon = kind === 'campaign' ? Megaphone : Workflow;
  return named ? (
    <Icon className={className} role="img" aria-label={kind === 'campaign' ? 'Campaign' : 'Sequence'} />
  ) : (
    <Icon className={className} aria-hidden="true" />
  );
}

function SentBy({ item }: { item: OutboxItem }) {
  const sentBy = sentByOf(item);
  if (sentBy === null) return <span className={SUBTLE_TEXT}>—</span>;
  return (
    <span className="flex max-w-48 min-w-0 items-center gap-1.5">
      <SentByIcon kind={sentBy.kind} className="size-3.5 shrink-0" named />
      {/* A long name ends in an ellipsis; its title shows it whole. */}
      <span className="truncate" title={sentBy.name}>
        {sentBy.name}
      </span>
    </span>
  );
}

/** The phone card's "sent by" part, before the sender address. */
function SentByLine({ item }: { item: OutboxItem }) {
  const sentBy = sentByOf(item);
  if (sentBy === null) return null;
  return (
    <>
      <SentByIcon kind={sentBy.kind} className="size-3 shrink-0" named={false} />
      <span className="truncate">{sentBy.name}</span>
      <span aria-hidden="true">·</span>
    </>
  );
}

/**
 * One page of stored messages: a table on wide screens, a list of cards on phones. Each message
 * links to its viewer; `linkSuffix` carries the list's search and page so Back returns here.
 */
export function OutboxList({
  messages,
  isLoading,
  dimmed,
  messageHref,
}: {
  messages: readonly OutboxItem[];
  isLoading: boolean;
  dimmed: boolean;
  messageHref: (id: number) => string;
}) {
  return (
    <>
      <Card className={cn('hidden gap-0 overflow-hidden py-0 md:flex', dimmed && 'opacity-60')}>
        <Table aria-label="Sent messages" aria-busy={isLoading || dimmed || undefined} className="table-fixed">
          <TableHeader>
            <TableRow className="hover:bg-transparent">
              <TableHead className="w-[24%] pl-4">To</TableHead>
              <TableHead>Subject</TableHead>
              <TableHead className="w-[18%]">Sent by</TableHead>
              <TableHead className="w-[20%]">From</TableHead>
              <TableHead className="w-32 pr-4 text-right">Sent</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {isLoading
              ? Array.from({ length: SKELETON_ROWS }, (_, i) => (
                  <TableRow key={i} aria-hidden="true">
                    {[36, 56, 28, 32].map((width, j) => (
                      <TableCell key={j} className={j === 0 ? 'pl-4' : undefined}>
                        <Skeleton className="h-4" style={{ width: `${width * 4}px`, maxWidth: '100%' }} />
                      </TableCell>
                    ))}
                    <TableCell className="pr-4">
                      <Skeleton className="ml-auto h-4 w-16" />
                    </TableCell>
                  </TableRow>
                ))
              : messages.map((item) => (
                  <TableRow key={item.id} className="group relative">
                    <TableCell className="truncate pl-4 font-medium" title={item.to}>
                      {item.to}
                    </TableCell>
                    <TableCell>
                      <div className="flex min-w-0 items-center gap-2">
                        {/* The link covers the whole row (its ::after), so a click anywhere opens the message. */}
                        <Link
                          href={messageHref(item.id)}
                          className="focus-visible:ring-ring/50 truncate rounded-sm outline-none group-hover:underline after:absolute after:inset-0 focus-visible:ring-[3px]"
                          title={item.subject}
                        >
                          {item.subject || '(no subject)'}
                        </Link>
                        {item.isTest && <TestBadge />}
                      </div>
                    </TableCell>
                    <TableCell className={SUBTLE_TEXT}>
                      <SentBy item={item} />
                    </TableCell>
                    <TableCell className={cn(SUBTLE_TEXT, 'truncate')} title={item.from}>
                      {item.from}
                    </TableCell>
                    <TableCell className={cn(SUBTLE_TEXT, 'pr-4 text-right')}>
                      <SentAt iso={item.createdAt} />
                    </TableCell>
                  </TableRow>
                ))}
          </TableBody>
        </Table>
      </Card>

      <ul
        aria-label="Sent messages"
        aria-busy={isLoading || dimmed || undefined}
        className={cn('space-y-2 md:hidden', dimmed && 'opacity-60')}
      >
        {isLoading
          ? Array.from({ length: SKELETON_ROWS }, (_, i) => (
              <li key={i} aria-hidden="true" className="bg-card space-y-2 rounded-xl border p-4">
                <div className="flex justify-between gap-4">
                  <Skeleton className="h-4 w-40" />
                  <Skeleton className="h-4 w-12" />
                </div>
                <Skeleton className="h-4 w-56" />
                <Skeleton className="h-3 w-32" />
              </li>
            ))
          : messages.map((item) => (
              <li key={item.id}>
                <Link
                  href={messageHref(item.id)}
                  className="bg-card hover:bg-accent/60 focus-visible:ring-ring/50 block rounded-xl border p-4 shadow-xs outline-none focus-visible:ring-[3px]"
                >
                  <span className="flex items-baseline justify-between gap-3">
                    <span className="min-w-0 truncate text-sm font-medium">{item.to}</span>
                    <span className={cn(SUBTLE_TEXT, 'shrink-0 text-xs')}>
                      <SentAt iso={item.createdAt} />
                    </span>
                  </span>
                  <span className="mt-1 flex min-w-0 items-center gap-2">
                    <span className="truncate text-sm">{item.subject || '(no subject)'}</span>
                    {item.isTest && <TestBadge />}
                  </span>
                  <span className={cn(SUBTLE_TEXT, 'mt-1 flex min-w-0 items-center gap-1.5 text-xs')}>
                    <SentByLine item={item} />
                    <span className="truncate">from {item.from}</span>
                  </span>
                </Link>
              </li>
            ))}
      </ul>
    </>
  );
}
