import * as React from 'react';
import { Plus } from 'lucide-react';
import { createLeadCampaignBodySchema, type LeadCampaign } from '@sendwell/contract/leads';

import { FieldError } from '@/components/field-error';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { getApiErrorFields, isUnauthorizedError } from '@/lib/api';
import { toastError } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';
import { useCreateLeadCampaign } from '../api/use-leads';
import { campaignStatusBadgeVariant } from '../lead-display';

const CREATE_FAILED = 'Failed to create lead campaign';

/** Spec §2's Campaigns tab: each lead campaign with counts from its leads' statuses, and 'New Campaign'. */
export function CampaignsTab({
  campaigns,
  isLoading,
  isError,
}: {
  campaigns: readonly LeadCampaign[];
  isLoading: boolean;
  isError: boolean;
}) {
  const [creating, setCreating] = React.useState(false);
  return (
    <Card>
      <CardContent className="space-y-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 className="text-lg font-semibold">Lead Campaigns</h2>
          <Button size="sm" onClick={() => setCreating(true)}>
            <Plus aria-hidden="true" />
            New Campaign
          </Button>
        </div>
        {isLoading ? (
          <p className="text-muted-foreground py-6 text-center text-sm">Loading campaigns...</p>
        ) : isError ? (
          <p className="text-destructive py-6 text-center text-sm" role="alert">
            Lead campaigns could not be loaded. Use Refresh to try again.
          </p>
        ) : campaigns.length === 0 ? (
          <p className="text-muted-foreground py-8 text-center text-sm">No lead campaigns</p>
        ) : (
          <ul className="space-y-3" aria-label="Lead campaigns">
            {campaigns.map((campaign) => (
              <li key={campaign.id} className="space-y-2 rounded-lg border p-3">
                <div className="flex flex-wrap items-start justify-between gap-2">
                  <div className="min-w-0">
                    <p className="font-medium break-words">{campaign.name}</p>
                    {campaign.description && (
                      <p className="text-muted-foreground text-sm break-words">{campaign.description}</p>
                    )}
                  </div>
                  <Badge variant={campaignStatusBadgeVariant(campaign.status)}>{campaign.status}</Badge>
                </div>
                <dl className="grid grid-cols-3 gap-2 text-center text-sm">
                  {(
                    [
                      ['Total', campaign.totalLeads],
                      ['Qualified', campaign.qualifiedLeads],
                      ['Converted', campaign.convertedLeads],
                    ] as const
                  ).map(([label, value]) => (
                    <div key={label} className="bg-muted/50 rounded-md p-2">
                      <dt className="text-muted-foreground text-xs">{label}</dt>
                      <dd className="font-semibold">{value}</dd>
                    </div>
                  ))}
                </dl>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
      <NewCampaignDialog open={creating} onOpenChange={setCreating} />
    </Card>
  );
}

function NewCampaignDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>New Campaign</DialogTitle>
          <DialogDescription>Group leads to follow their progress from new to converted.</DialogDescription>
        </DialogHeader>
        {open && <NewCampaignForm onDone={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function NewCampaignForm({ onDone }: { onDone: () => void }) {
  const create = useCreateLeadCampaign();
  const [name, setName] = React.useState('');
  const [description, setDescription] = React.useState('');
  const [errors, setErrors] = React.useState<Record<string, string>>({});

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = createLeadCampaignBodySchema.safeParse({ name, description });
    if (!parsed.success) {
      const fieldErrors: Record<string, string> = {};
      for (const issue of parsed.error.issues) fieldErrors[String(issue.path[0])] ??= issue.message;
      setErrors(fieldErrors);
      return;
    }
    create.mutate(parsed.data, {
      onSuccess: (campaign) => {
        toast({ title: 'Success', description: `Lead campaign “${campaign.name}” created` });
        onDone();
      },
      onError: (error) => {
        const fields = getApiErrorFields(error);
        if (Object.keys(fields).length > 0 && !isUnauthorizedError(error)) setErrors(fields);
        else toastError(error, CREATE_FAILED);
      },
    });
  };

  return (
    <form className="space-y-4" onSubmit={submit} noValidate>
      <div className="space-y-1.5">
        <Label htmlFor="campaign-name">Name</Label>
        <Input
          id="campaign-name"
          value={name}
          onChange={(event) => setName(event.target.value)}
          maxLength={100}
          aria-invalid={Boolean(errors.name)}
          aria-describedby={errors.name ? 'campaign-name-error' : undefined}
        />
        <FieldError id="campaign-name-error" message={errors.name} />
      </div>
      <div className="space-y-1.5">
        <Label htmlFor="campaign-description">Description (optional)</Label>
        <Textarea
          id="campaign-description"
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          maxLength={1000}
          aria-invalid={Boolean(errors.description)}
          aria-describedby={errors.description ? 'campaign-description-error' : undefined}
        />
        <FieldError id="campaign-description-error" message={errors.description} />
      </div>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone} disabled={create.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? 'Creating...' : 'Create Campaign'}
        </Button>
      </DialogFooter>
    </form>
  );
}
