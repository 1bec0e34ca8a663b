import * as React from 'react';
import { Link } from 'wouter';
import { ArrowRight, Ban, Download, Filter, Plus, Upload } from 'lucide-react';
import type { ContactList } from '@sendwell/contract/contacts';

import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useAuth } from '@/features/auth/api/use-auth';
import { exportCsvHref, useContactLists } from '@/features/contacts/api/use-contacts';
import { ContactDetailSheet } from '@/features/contacts/components/contact-detail-sheet';
import { ContactListsTab } from '@/features/contacts/components/contact-lists-tab';
import { ContactsTab } from '@/features/contacts/components/contacts-tab';
import { ImportCsvDialog } from '@/features/contacts/components/import-csv-dialog';
import { ListSummaryCards } from '@/features/contacts/components/list-summary-cards';
import { NewContactDialog } from '@/features/contacts/components/new-contact-dialog';

type ContactsTabName = 'all' | 'lists' | 'segments';

/** /contacts: Contact Management (spec §2) — list summaries, contacts, lists, and the import and new-contact dialogs. */
export default function ContactsPage() {
  const { isAuthenticated } = useAuth();
  const lists = useContactLists(isAuthenticated);
  const [tab, setTab] = React.useState<ContactsTabName>('all');
  const [listFilterId, setListFilterId] = React.useState<number | null>(null);
  const [importOpen, setImportOpen] = React.useState(false);
  const [newContactOpen, setNewContactOpen] = React.useState(false);
  const [openContactId, setOpenContactId] = React.useState<number | null>(null);

  const allLists = lists.data ?? [];
  // A filter on a list that has since been deleted simply disappears.
  const listFilter = allLists.find((list) => list.id === listFilterId) ?? null;

  const viewList = (list: ContactList) => {
    setListFilterId(list.id);
    setTab('all');
  };

  return (
    <div className="space-y-6">
      <PageHeader
        title="Contact Management"
        description="Manage your contacts, lists and imports."
        actions={
          <>
            <Button variant="outline" asChild>
              <Link href="/contacts/suppressions">
                <Ban aria-hidden="true" />
                Suppression list
              </Link>
            </Button>
            <Button variant="outline" asChild>
              <a href={exportCsvHref(listFilter?.id)} download>
                <Download aria-hidden="true" />
                Export CSV
              </a>
            </Button>
            <Button variant="outline" onClick={() => setImportOpen(true)}>
              <Upload aria-hidden="true" />
              Import CSV
            </Button>
            <Button onClick={() => setNewContactOpen(true)}>
              <Plus aria-hidden="true" />
              New Contact
            </Button>
          </>
        }
      />

      <ListSummaryCards lists={lists.data} isLoading={lists.isLoading} onViewList={viewList} />

      <Tabs value={tab} onValueChange={(value) => setTab(value as ContactsTabName)} className="gap-4">
        <TabsList className="w-full sm:w-fit">
          <TabsTrigger value="all">All Contacts</TabsTrigger>
          <TabsTrigger value="lists">Contact Lists</TabsTrigger>
          <TabsTrigger value="segments">Segments</TabsTrigger>
        </TabsList>
        <TabsContent value="all">
          <ContactsTab
            enabled={isAuthenticated}
            lists={allLists}
            listFilter={listFilter}
            onClearListFilter={() => setListFilterId(null)}
            onOpenContact={setOpenContactId}
            onImport={() => setImportOpen(true)}
            onNewContact={() => setNewContactOpen(true)}
          />
        </TabsContent>
        <TabsContent value="lists">
          <ContactListsTab lists={lists.data} isLoading={lists.isLoading} onViewList={viewList} />
        </TabsContent>
        <TabsContent value="segments">
          <Card>
            <CardContent className="flex flex-col items-start gap-4 sm:flex-row sm:items-center sm:justify-between">
              <div className="flex items-start gap-3">
                <span className="bg-muted flex size-10 shrink-0 items-center justify-center rounded-full">
                  <Filter className="size-5" aria-hidden="true" />
                </span>
                <div className="space-y-1">
                  <h2 className="font-semibold">Segments live on the Contact Segments page</h2>
                  <p className="text-muted-foreground text-sm">
                    Build rule-based segments of your contacts that update themselves, then send campaigns to them.
                  </p>
                </div>
              </div>
              <Button asChild variant="outline">
                <Link href="/contact-segments">
                  Open Contact Segments
                  <ArrowRight aria-hidden="true" />
                </Link>
              </Button>
            </CardContent>
          </Card>
        </TabsContent>
      </Tabs>

      <ImportCsvDialog open={importOpen} onOpenChange={setImportOpen} lists={allLists} />
      <NewContactDialog open={newContactOpen} onOpenChange={setNewContactOpen} lists={allLists} />
      <ContactDetailSheet contactId={openContactId} onClose={() => setOpenContactId(null)} enabled={isAuthenticated} />
    </div>
  );
}
