import { useState } from 'react';
import { Plus } from 'lucide-react';
import type { Sequence } from '@sendwell/contract/sequences';

import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useAuth } from '@/features/auth/api/use-auth';
import { EmailBlocksField } from '@/features/campaigns/components/editor/email-blocks-field';
import { useSequences } from '@/features/sequences/api/use-sequences';
import {
  SequenceBuilderDialog,
  type BuilderTarget,
} from '@/features/sequences/components/builder/sequence-builder-dialog';
import { EnrolmentsDialog } from '@/features/sequences/components/enrolments-dialog';
import { SequenceAnalyticsTab } from '@/features/sequences/components/sequence-analytics-tab';
import { SequenceList } from '@/features/sequences/components/sequence-list';
import { SequenceSettingsCard } from '@/features/sequences/components/sequence-settings-card';
import { SequenceTemplatesGrid } from '@/features/sequences/components/sequence-templates-grid';

type SequencesTab = 'sequences' | 'analytics' | 'templates';

/** /email-sequences (spec part 2 §2): the sequences, their analytics and templates, the builder and enrolments. */
export default function EmailSequencesPage() {
  const { isAuthenticated } = useAuth();
  const sequences = useSequences(isAuthenticated);
  const [tab, setTab] = useState<SequencesTab>('sequences');
  const [builderTarget, setBuilderTarget] = useState<BuilderTarget | null>(null);
  const [enrolling, setEnrolling] = useState<Sequence | null>(null);
  const openNew = () => setBuilderTarget({ kind: 'new' });
  const count = sequences.data?.length ?? 0;

  return (
    <div className="space-y-6">
      <PageHeader
        title="Email Sequences"
        description="Build automated email flows with a drag-and-drop builder."
        actions={
          <Button onClick={openNew}>
            <Plus aria-hidden="true" />
            New Sequence
          </Button>
        }
      />

      <Tabs value={tab} onValueChange={(value) => setTab(value as SequencesTab)} className="gap-4">
        <TabsList>
          <TabsTrigger value="sequences">My Sequences ({count})</TabsTrigger>
          <TabsTrigger value="analytics">Analytics</TabsTrigger>
          <TabsTrigger value="templates">Templates</TabsTrigger>
        </TabsList>
        <TabsContent value="sequences">
          <SequenceList
            sequences={sequences.data}
            isLoading={sequences.isLoading}
            isError={sequences.isError}
            onCreate={openNew}
            onBrowseTemplates={() => setTab('templates')}
            onEdit={(sequence) => setBuilderTarget({ kind: 'edit', sequence })}
            onEnrol={setEnrolling}
          />
          <SequenceSettingsCard enabled={isAuthenticated} />
        </TabsContent>
        <TabsContent value="analytics">
          <SequenceAnalyticsTab sequences={sequences.data ?? []} enabled={isAuthenticated && tab === 'analytics'} />
        </TabsContent>
        <TabsContent value="templates" className="space-y-4">
          <p className="text-muted-foreground text-sm">
            Start from a ready-made sequence. You can change every step before saving.
          </p>
          <SequenceTemplatesGrid onChoose={(template) => setBuilderTarget({ kind: 'new', template })} />
        </TabsContent>
      </Tabs>

      <SequenceBuilderDialog
        target={builderTarget}
        renderBlocksEditor={(props) => <EmailBlocksField {...props} />}
        onClose={() => {
          setBuilderTarget(null);
          setTab('sequences');
        }}
      />
      <EnrolmentsDialog sequence={enrolling} onClose={() => setEnrolling(null)} />
    </div>
  );
}
