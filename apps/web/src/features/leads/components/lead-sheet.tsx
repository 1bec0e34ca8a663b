import * as React from 'react';
import { lawfulBases, type LawfulBasis, type Lead, type LeadStatus } from '@sendwell/contract/leads';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Separator } from '@/components/ui/separator';
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from '@/components/ui/sheet';
import { Textarea } from '@/components/ui/textarea';
import { formatDate } from '@/lib/format';
import { toastError } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';
import { useLead, useLeadCampaigns, useUpdateLead } from '../api/use-leads';
import {
  lawfulBasisLabels,
  leadDisplayName,
  leadStatusBadgeVariant,
  leadStatusLabels,
  nextLeadStatuses,
} from '../lead-display';
import { ConvertLeadSection } from './convert-lead-section';

const UPDATE_FAILED = 'Failed to update lead';
/** The campaign choice meaning none (a Select item cannot have an empty value). */
const NO_CAMPAIGN = 'none';

/** One lead: its details, consent record, status moves, notes, lawful basis and 'Add to contact list'. */
export function LeadSheet({ leadId, onClose }: { leadId: number | null; onClose: () => void }) {
  const lead = useLead(leadId);
  const detail = lead.data;
  return (
    <Sheet open={leadId !== null} onOpenChange={(open) => !open && onClose()}>
      <SheetContent className="w-full gap-0 overflow-y-auto sm:max-w-lg">
        <SheetHeader className="border-b pr-12">
          <SheetTitle className="text-lg">{detail ? leadDisplayName(detail) : 'Lead'}</SheetTitle>
          <SheetDescription className="break-all">{detail?.email ?? 'No email address'}</SheetDescription>
        </SheetHeader>
        <div className="space-y-5 p-4">
          {lead.isLoading ? (
            <p className="text-muted-foreground text-sm">Loading lead...</p>
          ) : !detail ? (
            <p className="text-destructive text-sm" role="alert">
              This lead could not be loaded.
            </p>
          ) : (
            <LeadDetail key={detail.id} lead={detail} />
          )}
        </div>
      </SheetContent>
    </Sheet>
  );
}

function LeadDetail({ lead }: { lead: Lead }) {
  const update = useUpdateLead();
  const campaigns = useLeadCampaigns();
  const [notes, setNotes] = React.useState(lead.notes ?? '');

  const save = (body: Parameters<typeof update.mutate>[0]['body'], done: string) =>
    update.mutate(
      { id: lead.id, body },
      {
        onSuccess: () => toast({ title: 'Lead updated', description: done }),
        onError: (error) => toastError(error, UPDATE_FAILED),
      },
    );

  const moves = nextLeadStatuses(lead.status);
  const details: [string, string | null][] = [
    ['Company', lead.company],
    ['Job title', lead.jobTitle],
    ['Location', lead.location],
    ['Phone', lead.phone],
    ['Website', lead.website],
    ['Source', lead.metadata.source ?? null],
    ['Found', lead.metadata.foundAt ? formatDate(lead.metadata.foundAt) : null],
  ];

  return (
    <>
      <div className="flex flex-wrap gap-1.5">
        <Badge variant={leadStatusBadgeVariant(lead.status)}>{leadStatusLabels[lead.status]}</Badge>
        <Badge variant="outline">Score: {lead.score}</Badge>
        {lead.isSample && (
          <Badge variant="outline" className="border-amber-600 text-amber-800 dark:text-amber-300">
            Sample data
          </Badge>
        )}
      </div>

      <section aria-labelledby="lead-details-title" className="space-y-2">
        <h3 id="lead-details-title" className="text-sm font-semibold">
          Details
        </h3>
        <dl className="grid grid-cols-[8rem_1fr] gap-x-3 gap-y-1 text-sm">
          {details
            .filter(([, value]) => value)
            .map(([label, value]) => (
              <React.Fragment key={label}>
                <dt className="text-muted-foreground">{label}</dt>
                <dd className="break-words">{value}</dd>
              </React.Fragment>
            ))}
        </dl>
        {lead.tags.length > 0 && (
          <div className="flex flex-wrap gap-1">
            {lead.tags.map((tag) => (
              <Badge key={tag} variant="secondary">
                {tag}
              </Badge>
            ))}
          </div>
        )}
      </section>

      <section aria-labelledby="lead-consent-title" className="space-y-2">
        <h3 id="lead-consent-title" className="text-sm font-semibold">
          Consent record
        </h3>
        {lead.consent ? (
          <dl className="grid grid-cols-[8rem_1fr] gap-x-3 gap-y-1 text-sm" data-testid="lead-consent">
            <dt className="text-muted-foreground">Submitted</dt>
            <dd>{new Date(lead.consent.submittedAt).toLocaleString('en-US')}</dd>
            <dt className="text-muted-foreground">Confirmed</dt>
            <dd>
              {lead.consent.confirmedAt ? new Date(lead.consent.confirmedAt).toLocaleString('en-US') : 'Not confirmed'}
            </dd>
            <dt className="text-muted-foreground">IP address</dt>
            <dd>{lead.consent.ip ?? 'Not recorded'}</dd>
            <dt className="text-muted-foreground">Form version</dt>
            <dd>{lead.consent.formVersion}</dd>
            <dt className="text-muted-foreground">Text shown</dt>
            <dd className="break-words">“{lead.consent.text}”</dd>
          </dl>
        ) : (
          <p className="text-muted-foreground text-sm">
            No consent record: this lead did not sign up through a form. Record the lawful basis you rely on to mail it.
          </p>
        )}
        <div className="space-y-1.5">
          <Label htmlFor="lead-lawful-basis">Lawful basis</Label>
          <Select
            value={lead.lawfulBasis ?? ''}
            onValueChange={(value) =>
              save({ lawfulBasis: value as LawfulBasis }, `Lawful basis: ${lawfulBasisLabels[value as LawfulBasis]}`)
            }
            disabled={update.isPending}
          >
            <SelectTrigger id="lead-lawful-basis" className="w-full">
              <SelectValue placeholder="Not recorded" />
            </SelectTrigger>
            <SelectContent>
              {lawfulBases.map((basis) => (
                <SelectItem key={basis} value={basis}>
                  {lawfulBasisLabels[basis]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
      </section>

      <Separator />

      <section aria-labelledby="lead-status-title" className="space-y-2">
        <h3 id="lead-status-title" className="text-sm font-semibold">
          Status
        </h3>
        {moves.length === 0 ? (
          <p className="text-muted-foreground text-sm">
            {lead.status === 'converted' ? 'Converted: this lead is a contact now.' : 'This lead is closed.'}
          </p>
        ) : (
          <div className="flex flex-wrap gap-2">
            {moves.map((status: LeadStatus) => (
              <Button
                key={status}
                variant={status === 'lost' ? 'outline' : 'secondary'}
                size="sm"
                disabled={update.isPending}
                onClick={() => save({ status }, `Marked ${leadStatusLabels[status].toLowerCase()}.`)}
              >
                Mark {leadStatusLabels[status].toLowerCase()}
              </Button>
            ))}
          </div>
        )}
      </section>

      <div className="space-y-1.5">
        <Label htmlFor="lead-campaign">Campaign</Label>
        <Select
          value={lead.campaignId === null ? NO_CAMPAIGN : String(lead.campaignId)}
          onValueChange={(value) =>
            save(
              { campaignId: value === NO_CAMPAIGN ? null : Number(value) },
              value === NO_CAMPAIGN ? 'Removed from its campaign.' : 'Campaign set.',
            )
          }
          disabled={update.isPending}
        >
          <SelectTrigger id="lead-campaign" className="w-full">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={NO_CAMPAIGN}>No campaign</SelectItem>
            {(campaigns.data ?? []).map((campaign) => (
              <SelectItem key={campaign.id} value={String(campaign.id)}>
                {campaign.name}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>

      <section aria-labelledby="lead-notes-title" className="space-y-2">
        <h3 id="lead-notes-title" className="text-sm font-semibold">
          <Label htmlFor="lead-notes">Notes</Label>
        </h3>
        <Textarea id="lead-notes" value={notes} onChange={(event) => setNotes(event.target.value)} maxLength={5000} />
        <Button
          size="sm"
          variant="outline"
          disabled={update.isPending || notes === (lead.notes ?? '')}
          onClick={() => save({ notes }, 'Notes saved.')}
        >
          Save notes
        </Button>
      </section>

      <Separator />

      <ConvertLeadSection lead={lead} />
    </>
  );
}
