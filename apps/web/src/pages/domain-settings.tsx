import { useState } from 'react';
import { Plus } from 'lucide-react';

import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { AdvancedAliasesPanel } from '@/features/aliases/components/advanced-aliases-panel';
import { EmailAliasesPanel } from '@/features/aliases/components/email-aliases-panel';
import { useAuth } from '@/features/auth/api/use-auth';
import { useDomains } from '@/features/domains/api/use-domains';
import { AddDomainDialog } from '@/features/domains/components/add-domain-dialog';
import { DnsRecordsTab } from '@/features/domains/components/dns-records-tab';
import { DomainDetailDialog } from '@/features/domains/components/domain-detail-dialog';
import { DomainList } from '@/features/domains/components/domain-list';
import { EmailForwardingTab } from '@/features/domains/components/email-forwarding-tab';
import { PrimaryDomainCard } from '@/features/domains/components/primary-domain-card';
import { ReputationTab } from '@/features/domains/components/reputation-tab';
import { primaryDomainOf } from '@/features/domains/domain-display';
import { SenderAddressesTab } from '@/features/sender-addresses/components/sender-addresses-tab';

const DOMAIN_TABS = [
  'domains',
  'basic-aliases',
  'advanced-aliases',
  'forwarding',
  'dns',
  'reputation',
  'senders',
] as const;
type DomainTab = (typeof DOMAIN_TABS)[number];

/** The tab a link asks for (`?tab=senders` from the campaign editor), else Domains. */
function initialTab(): DomainTab {
  const asked = new URLSearchParams(window.location.search).get('tab');
  return DOMAIN_TABS.find((tab) => tab === asked) ?? 'domains';
}

/**
 * /domain-settings (spec §2): sending domains with their DNS records, reputation and warming; the
 * email aliases and advanced aliases panels; inbound forwarding; and Sender Addresses (single addresses confirmed by a mailed link).
 */
export default function DomainSettingsPage() {
  const { isAuthenticated, user } = useAuth();
  const domains = useDomains(isAuthenticated);
  const [tab, setTab] = useState<DomainTab>(initialTab);
  const [adding, setAdding] = useState(false);
  const [configuringId, setConfiguringId] = useState<number | null>(null);
  const [selectedId, setSelectedId] = useState<number | null>(null);

  const list = domains.data ?? [];
  const primary = primaryDomainOf(list);
  // The DNS and Reputation tabs show the domain chosen there (or via a row's DNS button), else the primary.
  const selected = list.find((d) => d.id === selectedId) ?? primary;
  // Always the freshest copy from the list, so a check or primary change shows in the open dialog.
  const configuring = list.find((d) => d.id === configuringId) ?? null;
  const openAdd = () => setAdding(true);

  return (
    <div className="space-y-6">
      <PageHeader
        title="Domain Settings"
        description="Manage your custom sending domains, their DNS records and email aliases."
        actions={
          <Button onClick={openAdd}>
            <Plus aria-hidden="true" />
            Add Domain
          </Button>
        }
      />

      {primary && <PrimaryDomainCard domain={primary} />}

      <Tabs value={tab} onValueChange={(value) => setTab(value as DomainTab)} className="gap-4">
        {/* Seven tabs are ~770 px wide: on a narrower screen they wrap onto more rows, every one in sight. */}
        <TabsList className="h-auto w-full flex-wrap justify-start sm:w-fit">
          <TabsTrigger value="domains">Domains</TabsTrigger>
          <TabsTrigger value="basic-aliases">Basic Aliases</TabsTrigger>
          <TabsTrigger value="advanced-aliases">Advanced Aliases</TabsTrigger>
          <TabsTrigger value="forwarding">Email Forwarding</TabsTrigger>
          <TabsTrigger value="dns">DNS Records</TabsTrigger>
          <TabsTrigger value="reputation">Reputation</TabsTrigger>
          <TabsTrigger value="senders">Sender Addresses</TabsTrigger>
        </TabsList>
        <TabsContent value="domains">
          <DomainList
            domains={domains.data}
            isLoading={domains.isLoading}
            isError={domains.isError}
            onAdd={openAdd}
            onConfigure={(domain) => setConfiguringId(domain.id)}
            onShowDns={(domain) => {
              setSelectedId(domain.id);
              setTab('dns');
            }}
          />
        </TabsContent>
        <TabsContent value="basic-aliases">
          <EmailAliasesPanel domains={list} primary={primary} onAddDomain={openAdd} />
        </TabsContent>
        <TabsContent value="advanced-aliases">
          <AdvancedAliasesPanel
            domains={list}
            primary={primary}
            accountEmail={user?.email ?? ''}
            onAddDomain={openAdd}
          />
        </TabsContent>
        <TabsContent value="forwarding">
          <EmailForwardingTab domains={list} selected={selected} onSelect={setSelectedId} />
        </TabsContent>
        <TabsContent value="dns">
          <DnsRecordsTab domains={list} selected={selected} onSelect={setSelectedId} onAdd={openAdd} />
        </TabsContent>
        <TabsContent value="reputation">
          {selected ? (
            <ReputationTab domains={list} selected={selected} onSelect={setSelectedId} />
          ) : (
            <DnsRecordsTab domains={list} selected={undefined} onSelect={setSelectedId} onAdd={openAdd} />
          )}
        </TabsContent>
        <TabsContent value="senders">
          <SenderAddressesTab />
        </TabsContent>
      </Tabs>

      <AddDomainDialog open={adding} onOpenChange={setAdding} />
      <DomainDetailDialog
        domain={configuring}
        onOpenChange={(open) => {
          if (!open) setConfiguringId(null);
        }}
      />
    </div>
  );
}
