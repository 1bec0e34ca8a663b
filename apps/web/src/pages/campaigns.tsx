import * as React from 'react';
import { useLocation, useSearch } from 'wouter';
import { LayoutTemplate, Mail, Plus, Search } from 'lucide-react';
import type { CampaignListItem } from '@sendwell/contract/campaigns';

import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { useAuth } from '@/features/auth/api/use-auth';
import { useCampaigns, useDuplicateCampaign, useUpdateCampaign } from '@/features/campaigns/api/use-campaigns';
import { toast } from '@/lib/use-toast';
import { toastError } from '@/lib/toast-error';
import { filterCampaigns, STATUS_FILTERS, type StatusFilter } from '@/features/campaigns/campaign-stats';
import type { ContactSelection } from '@/features/campaigns/editor/campaign-form';
import {
  CampaignEditorDialog,
  preloadCampaignEditor,
  type EditorTarget,
} from '@/features/campaigns/components/campaign-editor-dialog';
import { CampaignStatCards } from '@/features/campaigns/components/campaign-stat-cards';
import { CampaignTable } from '@/features/campaigns/components/campaign-table';
import { DeleteCampaignDialog, ListSendDialog } from '@/features/campaigns/components/campaign-row-dialogs';
import { TemplateGalleryDialog } from '@/features/campaigns/components/template-gallery-dialog';
import { CancelCampaignDialog, useSendControls } from '@/features/campaigns/components/send-controls';

const STATUS_LABELS: Record<StatusFilter, string> = {
  all: 'All statuses',
  draft: 'Draft',
  scheduled: 'Scheduled',
  sending: 'Sending',
  sent: 'Sent',
};

/** The contacts the Contacts page's bulk 'Send Campaign' passes in the history entry's state. */
function selectionFromHistory(state: unknown): ContactSelection | undefined {
  if (!state || typeof state !== 'object' || !('selection' in state)) return undefined;
  const { selection } = state as { selection: unknown };
  if (!selection || typeof selection !== 'object') return undefined;
  const { contactIds, listName } = selection as Record<string, unknown>;
  if (!Array.isArray(contactIds) || typeof listName !== 'string') return undefined;
  const ids = contactIds.filter((id): id is number => Number.isInteger(id) && (id as number) > 0);
  return ids.length > 0 ? { contactIds: ids, listName } : undefined;
}

/**
 * Reads `?new=1&listId=N` (links from the dashboard and the contacts page open the New Campaign
 * dialog), and contacts selected on the Contacts page from the history state.
 */
function newCampaignRequest(search: string, state: unknown): EditorTarget | null {
  const params = new URLSearchParams(search);
  if (params.get('new') !== '1') return null;
  const listId = Number(params.get('listId'));
  return {
    kind: 'new',
    listIds: Number.isInteger(listId) && listId > 0 ? [listId] : [],
    selection: selectionFromHistory(state),
  };
}

/** /campaigns: Email Campaigns (spec §2) — stat cards, search and status filter, the rows and the editor dialog. */
export default function CampaignsPage() {
  const { user, isAuthenticated } = useAuth();
  const campaigns = useCampaigns(isAuthenticated);
  const [search, setSearch] = React.useState('');
  const [status, setStatus] = React.useState<StatusFilter>('all');
  const [editor, setEditor] = React.useState<EditorTarget | null>(null);
  const [sending, setSending] = React.useState<CampaignListItem | null>(null);
  const [deleting, setDeleting] = React.useState<CampaignListItem | null>(null);
  const [galleryOpen, setGalleryOpen] = React.useState(false);
  const controls = useSendControls();

  // `/campaigns?new=1` opens the New Campaign dialog once; the query string is then dropped so a
  // reload or Back does not open it again.
  const query = useSearch();
  const [, navigate] = useLocation();
  React.useEffect(() => {
    const request = newCampaignRequest(query, window.history.state);
    if (!request) return;
    setEditor(request);
    navigate('/campaigns', { replace: true });
  }, [query, navigate]);

  const all = campaigns.data ?? [];
  const shown = filterCampaigns(all, search, status);
  const openNew = () => setEditor({ kind: 'new', listIds: [] });
  const updateCampaign = useUpdateCampaign();
  const duplicateCampaign = useDuplicateCampaign();
  /** Duplicate: a new draft "Copy of …", opened in the editor. */
  const duplicate = (campaign: CampaignListItem) =>
    duplicateCampaign.mutate(campaign.id, {
      onSuccess: (copy) => {
        toast({ title: 'Campaign duplicated', description: `“${copy.name}” is a new draft.` });
        setEditor({ kind: 'edit', campaignId: copy.id });
      },
      onError: (error) => toastError(error, 'Could not duplicate the campaign.', { serverMessage: 'client-error' }),
    });
  const unschedule = (campaign: CampaignListItem) =>
    updateCampaign.mutate(
      { id: campaign.id, body: { status: 'draft' } },
      {
        onSuccess: () =>
          toast({
            title: 'Campaign unscheduled',
            description: `${campaign.name} is a draft again: edit it, send it or delete it.`,
          }),
        onError: (error) => toastError(error, 'Could not unschedule the campaign.', { serverMessage: 'client-error' }),
      },
    );

  return (
    <div className="space-y-6">
      <PageHeader
        title="Email Campaigns"
        description="Create, send and track your email campaigns."
        actions={
          <div className="flex flex-wrap gap-2">
            <Button
              variant="outline"
              onClick={() => setGalleryOpen(true)}
              onPointerEnter={preloadCampaignEditor}
              onFocus={preloadCampaignEditor}
            >
              <LayoutTemplate aria-hidden="true" />
              Templates
            </Button>
            <Button onClick={openNew} onPointerEnter={preloadCampaignEditor} onFocus={preloadCampaignEditor}>
              <Plus aria-hidden="true" />
              New Campaign
            </Button>
          </div>
        }
      />

      <CampaignStatCards campaigns={campaigns.data} isLoading={campaigns.isLoading} />

      {campaigns.isError ? (
        <p className="text-destructive text-sm" role="alert">
          Could not load your campaigns. Please refresh the page.
        </p>
      ) : campaigns.isLoading ? (
        <Card>
          <CardContent className="space-y-3" aria-busy="true" aria-label="Loading campaigns">
            {Array.from({ length: 3 }, (_, i) => (
              <Skeleton key={i} className="h-14 w-full" />
            ))}
          </CardContent>
        </Card>
      ) : all.length === 0 ? (
        <EmptyState
          icon={Mail}
          title="No campaigns yet"
          action={
            <Button onClick={openNew} onPointerEnter={preloadCampaignEditor}>
              <Plus aria-hidden="true" />
              Create Campaign
            </Button>
          }
        >
          Create your first email campaign to get started with Sendwell. Start from our spring-sale template and make it
          yours.
        </EmptyState>
      ) : (
        <Card className="gap-4 py-4">
          <CardContent className="flex flex-col gap-3 px-4 sm:flex-row sm:items-center">
            <div className="relative flex-1">
              <Search
                className="text-muted-foreground pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2"
                aria-hidden="true"
              />
              <Input
                type="search"
                value={search}
                onChange={(event) => setSearch(event.target.value)}
                placeholder="Search by name or subject"
                aria-label="Search campaigns"
                className="pl-9"
              />
            </div>
            <Select value={status} onValueChange={(value) => setStatus(value as StatusFilter)}>
              <SelectTrigger className="w-full sm:w-44" aria-label="Filter by status">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {STATUS_FILTERS.map((value) => (
                  <SelectItem key={value} value={value}>
                    {STATUS_LABELS[value]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </CardContent>
          <div className="border-t">
            {shown.length === 0 ? (
              <p className="text-muted-foreground px-6 py-10 text-center text-sm">No campaigns match your search.</p>
            ) : (
              <CampaignTable
                campaigns={shown}
                onEdit={(campaign) => setEditor({ kind: 'edit', campaignId: campaign.id })}
                onSend={setSending}
                onDelete={setDeleting}
                onUnschedule={unschedule}
                onDuplicate={duplicate}
                duplicatingId={duplicateCampaign.isPending ? (duplicateCampaign.variables ?? null) : null}
                controls={controls}
                timeZone={user?.timeZone ?? 'UTC'}
              />
            )}
          </div>
        </Card>
      )}

      {user && <CampaignEditorDialog target={editor} user={user} onClose={() => setEditor(null)} />}
      <ListSendDialog campaign={sending} postalAddress={user?.postalAddress} onClose={() => setSending(null)} />
      <DeleteCampaignDialog campaign={deleting} onClose={() => setDeleting(null)} />
      <CancelCampaignDialog controls={controls} />
      <TemplateGalleryDialog
        open={galleryOpen}
        onOpenChange={setGalleryOpen}
        onChoose={(start) => {
          setGalleryOpen(false);
          setEditor({ kind: 'new', listIds: [], start });
        }}
      />
    </div>
  );
}
