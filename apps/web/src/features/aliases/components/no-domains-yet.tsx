import { Globe, Plus } from 'lucide-react';

import { EmptyState } from '@/components/empty-state';
import { Button } from '@/components/ui/button';

/** The alias tabs before the account has a domain: aliases live on the user's own domains. */
export function NoDomainsYet({ onAdd }: { onAdd: () => void }) {
  return (
    <EmptyState
      icon={Globe}
      title="Add a domain first"
      action={
        <Button onClick={onAdd}>
          <Plus aria-hidden="true" />
          Add Domain
        </Button>
      }
    >
      Aliases live on your own domains, so add one to get started.
    </EmptyState>
  );
}
