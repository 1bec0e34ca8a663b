import { BarChart3 } from 'lucide-react';

import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';

/** /analytics: a placeholder until detailed analytics exist (spec §2). */
export default function AnalyticsPage() {
  return (
    <div className="space-y-6">
      <PageHeader title="Analytics" description="Insights across all of your campaigns." />
      <EmptyState icon={BarChart3} title="Coming soon">
        Detailed analytics are coming soon. Until then, your dashboard shows your subscribers, open rate, click rate and
        revenue.
      </EmptyState>
    </div>
  );
}
