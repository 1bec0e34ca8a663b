import * as React from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { RefreshCw } from 'lucide-react';

import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useLeadCampaigns, useLeadSources, useLeads } from '@/features/leads/api/use-leads';
import { AddLeadDialog } from '@/features/leads/components/add-lead-dialog';
import { CampaignsTab } from '@/features/leads/components/campaigns-tab';
import { GenerateLeadsCard } from '@/features/leads/components/generate-leads-card';
import { LeadSheet } from '@/features/leads/components/lead-sheet';
import { LeadSourcesTab } from '@/features/leads/components/lead-sources-tab';
import { RecentLeadsTab } from '@/features/leads/components/recent-leads-tab';

/** /lead-generation (spec part 2 §2, issue 21): generate from connected sources, leads, sources, campaigns. */
export default function LeadGenerationPage() {
  const queryClient = useQueryClient();
  const leads = useLeads();
  const sources = useLeadSources();
  const campaigns = useLeadCampaigns();
  const [openLeadId, setOpenLeadId] = React.useState<number | null>(null);
  const [addingLead, setAddingLead] = React.useState(false);

  const allLeads = leads.data ?? [];
  const allSources = sources.data ?? [];
  const allCampaigns = campaigns.data ?? [];

  return (
    <div className="space-y-6">
      <PageHeader
        title="Lead Generation"
        description="Generate leads from multiple platforms and sources"
        actions={
          // Spec §2: Refresh refreshes all cached data.
          <Button variant="outline" onClick={() => void queryClient.invalidateQueries()}>
            <RefreshCw aria-hidden="true" />
            Refresh
          </Button>
        }
      />
      <GenerateLeadsCard sources={allSources} />
      <Tabs defaultValue="leads">
        <TabsList className="h-auto w-full flex-wrap justify-start sm:w-fit">
          <TabsTrigger value="leads">Recent Leads ({allLeads.length})</TabsTrigger>
          <TabsTrigger value="sources">Lead Sources ({allSources.length})</TabsTrigger>
          <TabsTrigger value="campaigns">Campaigns ({allCampaigns.length})</TabsTrigger>
        </TabsList>
        <TabsContent value="leads">
          <RecentLeadsTab
            leads={allLeads}
            isLoading={leads.isLoading}
            isError={leads.isError}
            onOpen={setOpenLeadId}
            onAdd={() => setAddingLead(true)}
          />
        </TabsContent>
        <TabsContent value="sources">
          <LeadSourcesTab sources={allSources} isLoading={sources.isLoading} isError={sources.isError} />
        </TabsContent>
        <TabsContent value="campaigns">
          <CampaignsTab campaigns={allCampaigns} isLoading={campaigns.isLoading} isError={campaigns.isError} />
        </TabsContent>
      </Tabs>
      <LeadSheet leadId={openLeadId} onClose={() => setOpenLeadId(null)} />
      <AddLeadDialog open={addingLead} onOpenChange={setAddingLead} />
    </div>
  );
}
