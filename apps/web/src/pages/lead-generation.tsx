import { Target } from 'lucide-react';

import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';

/** /lead-generation: interim page until lead generation lands. */
export default function LeadGenerationPage() {
  return (
    <div className="space-y-6">
      <PageHeader title="Lead Generation" description="Generate leads from multiple platforms and sources" />
      <EmptyState icon={Target} title="Lead generation is not available yet">
        Finding leads by profession, location and platform is still being built. Check back soon.
      </EmptyState>
    </div>
  );
}
