import { PageHeader } from '@/components/page-header';
import { CreateEndpointDialog } from '@/features/webhooks/components/create-endpoint-dialog';
import { EndpointList } from '@/features/webhooks/components/endpoint-list';

/** /webhooks: the account's outgoing webhook endpoints (issue 32). */
export default function WebhooksPage() {
  return (
    <div className="space-y-6">
      <PageHeader
        title="Webhooks"
        description="Sendwell tells your other systems what happens, as signed HTTPS requests (Standard Webhooks)."
        actions={<CreateEndpointDialog />}
      />
      <EndpointList />
    </div>
  );
}
