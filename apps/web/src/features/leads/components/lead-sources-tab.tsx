import * as React from 'react';
import { Plus } from 'lucide-react';
import type { LeadSource } from '@sendwell/contract/leads';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { leadSourceTypeLabels, sourceConnectionText } from '../lead-display';
import { AddLeadSourceDialog } from './add-lead-source-dialog';
import { SourceDetails } from './source-details';

/** Spec §2's Lead Sources: each source's type, state, lead count and what it needs; 'Add Source' opens a real form. */
export function LeadSourcesTab({
  sources,
  isLoading,
  isError,
}: {
  sources: readonly LeadSource[];
  isLoading: boolean;
  isError: boolean;
}) {
  const [adding, setAdding] = React.useState(false);
  return (
    <Card>
      <CardContent className="space-y-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 className="text-lg font-semibold">Lead Sources</h2>
          <Button size="sm" onClick={() => setAdding(true)}>
            <Plus aria-hidden="true" />
            Add Source
          </Button>
        </div>
        {isLoading ? (
          <p className="text-muted-foreground py-6 text-center text-sm">Loading sources...</p>
        ) : isError ? (
          <p className="text-destructive py-6 text-center text-sm" role="alert">
            Lead sources could not be loaded. Use Refresh to try again.
          </p>
        ) : sources.length === 0 ? (
          <p className="text-muted-foreground py-8 text-center text-sm">No lead sources configured</p>
        ) : (
          <ul className="space-y-3" aria-label="Lead sources">
            {sources.map((source) => (
              <li key={source.id} className="space-y-3 rounded-lg border p-3" data-testid={`source-${source.id}`}>
                <div className="flex flex-wrap items-start justify-between gap-2">
                  <div className="min-w-0 space-y-0.5">
                    <p className="font-medium break-words">{source.name}</p>
                    <p className="text-muted-foreground text-sm">
                      {leadSourceTypeLabels[source.type]}
                      {source.provider ? ` · ${providerName(source.provider)}` : ''}
                    </p>
                    <p className="text-muted-foreground text-sm">Total leads: {source.totalLeads}</p>
                  </div>
                  <div className="flex flex-wrap gap-1.5">
                    <Badge variant={source.connected ? 'secondary' : 'outline'}>{sourceConnectionText(source)}</Badge>
                    <Badge variant={source.isActive ? 'default' : 'secondary'}>
                      {source.isActive ? 'Active' : 'Inactive'}
                    </Badge>
                  </div>
                </div>
                <SourceDetails source={source} />
              </li>
            ))}
          </ul>
        )}
      </CardContent>
      <AddLeadSourceDialog open={adding} onOpenChange={setAdding} />
    </Card>
  );
}

function providerName(provider: NonNullable<LeadSource['provider']>): string {
  return { google: 'Google Places', yelp: 'Yelp', hunter: 'Hunter' }[provider];
}
