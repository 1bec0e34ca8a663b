import { Link } from 'wouter';

import { PageHeader } from '@/components/page-header';
import { ApiReference } from '@/features/api-keys/components/api-reference';

/** /settings/api-reference: the public API's routes with curl examples (from GET /api/openapi.json). */
export default function ApiReferencePage() {
  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <PageHeader
        title="API Reference"
        description={
          <>
            Call these routes with an API key from{' '}
            <Link href="/settings#api-keys" className="text-primary underline underline-offset-4">
              Settings
            </Link>{' '}
            in the Authorization header. The machine-readable description is{' '}
            <a href="/api/openapi.json" className="text-primary underline underline-offset-4">
              /api/openapi.json
            </a>{' '}
            (OpenAPI 3.1).
          </>
        }
      />
      <ApiReference />
    </div>
  );
}
