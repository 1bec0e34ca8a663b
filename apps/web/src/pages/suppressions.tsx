import { Link } from 'wouter';
import { ArrowLeft, Download } from 'lucide-react';

import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { SUPPRESSIONS_EXPORT_HREF } from '@/features/suppressions/api/use-suppressions';
import { SuppressionList } from '@/features/suppressions/components/suppression-list';

/** /contacts/suppressions: the addresses this account never mails again (issue 18). */
export default function SuppressionsPage() {
  return (
    <div className="space-y-6">
      <Button variant="ghost" size="sm" className="-ml-2" asChild>
        <Link href="/contacts">
          <ArrowLeft aria-hidden="true" />
          Contacts
        </Link>
      </Button>
      <PageHeader
        title="Suppression list"
        description="Addresses your campaigns and sequences never mail: hard bounces, repeated soft bounces, complaints and unsubscribes."
        actions={
          <Button variant="outline" asChild>
            <a href={SUPPRESSIONS_EXPORT_HREF} download>
              <Download aria-hidden="true" />
              Export CSV
            </a>
          </Button>
        }
      />
      <SuppressionList />
    </div>
  );
}
