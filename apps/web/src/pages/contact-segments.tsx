import { useState } from 'react';
import { Plus } from 'lucide-react';
import type { Segment } from '@sendwell/contract/segments';

import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useAuth } from '@/features/auth/api/use-auth';
import { useSegments } from '@/features/segments/api/use-segments';
import { SegmentFormDialog } from '@/features/segments/components/segment-form-dialog';
import type { SegmentDialogTarget } from '@/features/segments/components/use-segment-form';
import { SegmentList } from '@/features/segments/components/segment-list';
import { SegmentMembersDialog } from '@/features/segments/components/segment-members-dialog';
import { SegmentTemplatesGrid } from '@/features/segments/components/segment-templates-grid';

type SegmentsTab = 'segments' | 'templates';

/** /contact-segments (spec §2): saved segments and templates, with the create, edit and preview dialogs. */
export default function ContactSegmentsPage() {
  const { isAuthenticated } = useAuth();
  const segments = useSegments(isAuthenticated);
  const [tab, setTab] = useState<SegmentsTab>('segments');
  const [editorTarget, setEditorTarget] = useState<SegmentDialogTarget | null>(null);
  const [previewed, setPreviewed] = useState<Segment | null>(null);

  const openCreate = () => setEditorTarget({ kind: 'create' });
  const count = segments.data?.length ?? 0;

  return (
    <div className="space-y-6">
      <PageHeader
        title="Contact Segments"
        description="Group contacts with rules that keep themselves up to date."
        actions={
          <Button onClick={openCreate}>
            <Plus aria-hidden="true" />
            New Segment
          </Button>
        }
      />

      <Tabs value={tab} onValueChange={(value) => setTab(value as SegmentsTab)} className="gap-4">
        <TabsList>
          <TabsTrigger value="segments">My Segments ({count})</TabsTrigger>
          <TabsTrigger value="templates">Templates</TabsTrigger>
        </TabsList>
        <TabsContent value="segments">
          <SegmentList
            segments={segments.data}
            isLoading={segments.isLoading}
            isError={segments.isError}
            onCreate={openCreate}
            onBrowseTemplates={() => setTab('templates')}
            onPreview={setPreviewed}
            onEdit={(segment) => setEditorTarget({ kind: 'edit', segment })}
          />
        </TabsContent>
        <TabsContent value="templates" className="space-y-4">
          <p className="text-muted-foreground text-sm">
            Start from a ready-made segment. You can change every rule before saving.
          </p>
          <SegmentTemplatesGrid
            onChoose={(template) =>
              setEditorTarget({ kind: 'create', initial: template.segment, templateName: template.name })
            }
          />
        </TabsContent>
      </Tabs>

      <SegmentFormDialog
        target={editorTarget}
        onSaved={() => setTab('segments')}
        onOpenChange={(open) => {
          if (!open) setEditorTarget(null);
        }}
      />
      <SegmentMembersDialog
        segment={previewed}
        onOpenChange={(open) => {
          if (!open) setPreviewed(null);
        }}
      />
    </div>
  );
}
