import { ChevronRight, Plus } from 'lucide-react';
import { RECENT_LEADS_SHOWN, type Lead } from '@sendwell/contract/leads';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { leadDisplayName, leadStatusBadgeVariant, leadStatusLabels } from '../lead-display';

/** Spec §2's Recent Leads: the first 10 leads with their real score and status; each opens its sheet. */
export function RecentLeadsTab({
  leads,
  isLoading,
  isError,
  onOpen,
  onAdd,
}: {
  leads: readonly Lead[];
  isLoading: boolean;
  isError: boolean;
  onOpen: (id: number) => void;
  onAdd: () => void;
}) {
  const shown = leads.slice(0, RECENT_LEADS_SHOWN);
  return (
    <Card>
      <CardContent className="space-y-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 className="text-lg font-semibold">Recent Leads</h2>
          <Button variant="outline" size="sm" onClick={onAdd}>
            <Plus aria-hidden="true" />
            Add Lead
          </Button>
        </div>
        {isLoading ? (
          <p className="text-muted-foreground py-6 text-center text-sm">Loading leads...</p>
        ) : isError ? (
          <p className="text-destructive py-6 text-center text-sm" role="alert">
            Leads could not be loaded. Use Refresh to try again.
          </p>
        ) : shown.length === 0 ? (
          <div className="py-8 text-center">
            <p className="font-medium">No leads yet</p>
            <p className="text-muted-foreground text-sm">Generate your first leads using the form above</p>
          </div>
        ) : (
          <ul className="divide-y" aria-label="Recent leads">
            {shown.map((lead) => (
              <li key={lead.id} className="flex items-center gap-3 py-3" data-testid={`lead-${lead.id}`}>
                <div className="min-w-0 flex-1 space-y-1">
                  <p className="truncate font-medium">{leadDisplayName(lead)}</p>
                  {lead.email && <p className="text-muted-foreground truncate text-sm">{lead.email}</p>}
                  {lead.company && <p className="text-muted-foreground truncate text-xs">{lead.company}</p>}
                  <div className="flex flex-wrap gap-1.5 pt-1">
                    <Badge variant={leadStatusBadgeVariant(lead.status)}>{leadStatusLabels[lead.status]}</Badge>
                    <Badge variant="outline">Score: {lead.score}</Badge>
                    {lead.isSample && (
                      <Badge variant="outline" className="border-amber-600 text-amber-800 dark:text-amber-300">
                        Sample data
                      </Badge>
                    )}
                  </div>
                </div>
                <Button
                  variant="ghost"
                  size="icon"
                  onClick={() => onOpen(lead.id)}
                  aria-label={`Open ${leadDisplayName(lead)}`}
                >
                  <ChevronRight aria-hidden="true" />
                </Button>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
