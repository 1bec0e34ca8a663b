import { Link } from 'wouter';
import { Ban, BarChart3, CalendarX, Copy, MoreHorizontal, Pause, Pencil, Play, Send, Trash2 } from 'lucide-react';
import type { CampaignListItem } from '@sendwell/contract/campaigns';

import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Spinner } from '@/components/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatNumber, formatPercent } from '@/lib/format';
import { cn } from '@/lib/utils';
import { campaignActions } from '../campaign-stats';
import { CampaignStatusBadge } from './campaign-status-badge';
import type { SendControls } from './send-controls';

/**
 * 'Apr 9, 2026, 3:05 PM EDT': in the given IANA time zone (a campaign's, else the account's), with
 * the zone named so a reader elsewhere is not misled; in the browser's zone when none is given.
 */
export function formatDateTime(iso: string | null, timeZone?: string): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  // The parts of dateStyle 'medium' and timeStyle 'short' spelled out: the styles cannot name the zone.
  return date.toLocaleString('en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    ...(timeZone ? { timeZone, timeZoneName: 'short' } : {}),
  });
}

/** What the 'Sent' column says, in the campaign's time zone (else the account's). */
function whenText(campaign: CampaignListItem, accountZone: string): { text: string; muted: boolean } {
  const zone = campaign.timeZone ?? accountZone;
  if (campaign.sentAt) return { text: formatDateTime(campaign.sentAt, zone), muted: false };
  if (campaign.status === 'scheduled' && campaign.scheduledAt)
    return { text: `Scheduled ${formatDateTime(campaign.scheduledAt, zone)}`, muted: false };
  if (campaign.status === 'sending') return { text: 'Sending now…', muted: false };
  if (campaign.status === 'paused')
    return {
      text: `Paused after ${formatNumber(campaign.totalSent)} of ${formatNumber(campaign.totalRecipients)}`,
      muted: false,
    };
  if (campaign.status === 'canceled') return { text: 'Canceled', muted: true };
  return { text: 'Not sent', muted: true };
}

/**
 * How many a campaign goes (or went) to: the count it was sent to, or for a scheduled one how many its
 * lists and segments reach now (counted by the server on read, and again when it starts); a dash for a draft.
 */
function RecipientsFigure({ campaign, suffix = '' }: { campaign: CampaignListItem; suffix?: string }) {
  if (campaign.totalRecipients > 0) return <>{`${formatNumber(campaign.totalRecipients)}${suffix}`}</>;
  if (campaign.status === 'scheduled' && campaign.audienceNow !== null)
    return (
      <span title="How many the chosen lists and segments reach now">{`${formatNumber(campaign.audienceNow)}${suffix} now`}</span>
    );
  return suffix ? null : <span className="text-muted-foreground">—</span>;
}

/** The campaign rows (spec §2 Campaigns): name, subject, recipients, sent date, rates when sent, status and actions. */
export function CampaignTable(props: CampaignRowsProps) {
  return (
    <>
      <div className="hidden md:block">
        <CampaignRowsTable {...props} />
      </div>
      <ul className="divide-y md:hidden" aria-label="Campaigns">
        {props.campaigns.map((campaign) => (
          <CampaignListCard key={campaign.id} campaign={campaign} {...props} />
        ))}
      </ul>
    </>
  );
}

interface CampaignRowsProps {
  campaigns: readonly CampaignListItem[];
  onEdit: (campaign: CampaignListItem) => void;
  onSend: (campaign: CampaignListItem) => void;
  onDelete: (campaign: CampaignListItem) => void;
  /** Takes a scheduled campaign back to a draft (its time is cleared), so it can be edited or deleted. */
  onUnschedule: (campaign: CampaignListItem) => void;
  /** Makes a new draft "Copy of …" of any campaign. */
  onDuplicate: (campaign: CampaignListItem) => void;
  /** The campaign being copied now (its Duplicate button waits). */
  duplicatingId: number | null;
  /** Pause, resume and cancel (the row menu); cancel asks first. */
  controls: SendControls;
  /** The account's time zone: times show in it unless a campaign chose its own. */
  timeZone: string;
}

/** One campaign on a phone: the same facts and actions as a table row, stacked. */
function CampaignListCard({ campaign, ...props }: CampaignRowsProps & { campaign: CampaignListItem }) {
  const sent = campaign.status === 'sent';
  const when = whenText(campaign, props.timeZone);
  return (
    <li className="space-y-3 px-4 py-4">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="font-medium break-words">{campaign.name}</p>
          <p className="text-muted-foreground text-sm break-words">{campaign.subject}</p>
        </div>
        <CampaignStatusBadge status={campaign.status} />
      </div>
      <p className="text-muted-foreground flex flex-wrap gap-x-3 gap-y-1 text-xs">
        <span>{when.text}</span>
        {(campaign.totalRecipients > 0 || campaign.status === 'scheduled') && (
          <span>
            <RecipientsFigure campaign={campaign} suffix=" recipients" />
          </span>
        )}
        {sent && (
          <span>
            {formatPercent(campaign.openRate)} opened (human) · {formatPercent(campaign.machineOpenRate)} machine
          </span>
        )}
        {sent && <span>{formatPercent(campaign.clickRate)} clicked (human)</span>}
      </p>
      <RowActions {...props} campaign={campaign} />
    </li>
  );
}

function CampaignRowsTable({ campaigns, ...props }: CampaignRowsProps) {
  return (
    <Table aria-label="Campaigns">
      <TableHeader>
        <TableRow>
          <TableHead className="min-w-56">Campaign</TableHead>
          <TableHead>Status</TableHead>
          <TableHead className="text-right">Recipients</TableHead>
          <TableHead className="hidden lg:table-cell">Sent</TableHead>
          <TableHead className="hidden text-right md:table-cell">
            Open rate <span className="text-muted-foreground block text-xs font-normal">human · machine</span>
          </TableHead>
          <TableHead className="hidden text-right md:table-cell">
            Click rate <span className="text-muted-foreground block text-xs font-normal">human</span>
          </TableHead>
          <TableHead className="text-right">
            <span className="sr-only">Actions</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {campaigns.map((campaign) => {
          const sent = campaign.status === 'sent';
          const when = whenText(campaign, props.timeZone);
          return (
            <TableRow key={campaign.id}>
              <TableCell className="max-w-80 whitespace-normal">
                <p className="font-medium break-words">{campaign.name}</p>
                <p className="text-muted-foreground text-sm break-words">{campaign.subject}</p>
                <p className={`text-xs lg:hidden ${when.muted ? 'text-muted-foreground' : ''}`}>{when.text}</p>
              </TableCell>
              <TableCell>
                <CampaignStatusBadge status={campaign.status} />
              </TableCell>
              <TableCell className="text-right tabular-nums">
                <RecipientsFigure campaign={campaign} />
              </TableCell>
              <TableCell className={`hidden lg:table-cell ${when.muted ? 'text-muted-foreground' : ''}`}>
                {when.text}
              </TableCell>
              <TableCell className="hidden text-right tabular-nums md:table-cell">
                {sent ? (
                  <>
                    {formatPercent(campaign.openRate)}
                    <span className="text-muted-foreground block text-xs">
                      {formatPercent(campaign.machineOpenRate)} machine
                    </span>
                  </>
                ) : (
                  <span className="text-muted-foreground">—</span>
                )}
              </TableCell>
              <TableCell className="hidden text-right tabular-nums md:table-cell">
                {sent ? formatPercent(campaign.clickRate) : <span className="text-muted-foreground">—</span>}
              </TableCell>
              <TableCell>
                <RowActions {...props} campaign={campaign} className="justify-end" />
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}

/**
 * Edit and Delete for drafts, Send for drafts and scheduled ones, Unschedule for scheduled ones,
 * View Report once it has one, Duplicate for every campaign, and a menu with Pause, Resume and
 * Cancel while it goes out (or waits to).
 */
function RowActions({
  campaign,
  onEdit,
  onSend,
  onDelete,
  onUnschedule,
  onDuplicate,
  duplicatingId,
  controls,
  className,
}: Omit<CampaignRowsProps, 'campaigns'> & { campaign: CampaignListItem; className?: string }) {
  const actions = campaignActions(campaign.status);
  const controlling = controls.pending?.id === campaign.id;
  return (
    <div className={cn('flex flex-wrap gap-1.5', className)}>
      {actions.edit && (
        <Button variant="outline" size="sm" onClick={() => onEdit(campaign)} aria-label={`Edit ${campaign.name}`}>
          <Pencil aria-hidden="true" />
          Edit
        </Button>
      )}
      {actions.unschedule && (
        <Button
          variant="outline"
          size="sm"
          onClick={() => onUnschedule(campaign)}
          aria-label={`Unschedule ${campaign.name}`}
        >
          <CalendarX aria-hidden="true" />
          Unschedule
        </Button>
      )}
      {actions.send && (
        <Button size="sm" onClick={() => onSend(campaign)} aria-label={`Send ${campaign.name}`}>
          <Send aria-hidden="true" />
          Send
        </Button>
      )}
      {actions.report && (
        <Button variant="outline" size="sm" asChild>
          <Link href={`/campaigns/${campaign.id}/report`} aria-label={`View Report for ${campaign.name}`}>
            <BarChart3 aria-hidden="true" />
            View Report
          </Link>
        </Button>
      )}
      <Button
        variant="ghost"
        size="icon"
        className="text-muted-foreground size-8"
        onClick={() => onDuplicate(campaign)}
        disabled={duplicatingId !== null}
        aria-label={`Duplicate ${campaign.name}`}
        title="Duplicate"
      >
        {duplicatingId === campaign.id ? (
          <Spinner className="size-4" label="Duplicating" />
        ) : (
          <Copy aria-hidden="true" />
        )}
      </Button>
      {actions.remove && (
        <Button
          variant="ghost"
          size="icon"
          className="text-muted-foreground hover:text-destructive size-8"
          onClick={() => onDelete(campaign)}
          aria-label={`Delete ${campaign.name}`}
        >
          <Trash2 aria-hidden="true" />
        </Button>
      )}
      {(actions.pause || actions.resume || actions.cancel) && (
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button
              variant="ghost"
              size="icon"
              className="text-muted-foreground size-8"
              aria-label={`Sending controls for ${campaign.name}`}
              title="Pause, resume or cancel"
              disabled={controlling}
            >
              {controlling ? <Spinner className="size-4" label="Updating" /> : <MoreHorizontal aria-hidden="true" />}
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="end">
            {actions.pause && (
              <DropdownMenuItem onSelect={() => controls.pause(campaign)}>
                <Pause aria-hidden="true" />
                Pause sending
              </DropdownMenuItem>
            )}
            {actions.resume && (
              <DropdownMenuItem onSelect={() => controls.resume(campaign)}>
                <Play aria-hidden="true" />
                Resume sending
              </DropdownMenuItem>
            )}
            {actions.cancel && (
              <DropdownMenuItem variant="destructive" onSelect={() => controls.requestCancel(campaign)}>
                <Ban aria-hidden="true" />
                Cancel campaign…
              </DropdownMenuItem>
            )}
          </DropdownMenuContent>
        </DropdownMenu>
      )}
    </div>
  );
}
