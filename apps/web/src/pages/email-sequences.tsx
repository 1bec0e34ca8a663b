import { Workflow } from 'lucide-react';

import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';

/** /email-sequences: interim page until the sequence builder lands. */
export default function EmailSequencesPage() {
  return (
    <div className="space-y-6">
      <PageHeader title="Email Sequences" description="Build automated email flows with a drag-and-drop builder." />
      <EmptyState icon={Workflow} title="Email sequences are not available yet">
        The sequence builder is still in progress. Check back soon.
      </EmptyState>
    </div>
  );
}
