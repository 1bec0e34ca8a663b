import * as React from 'react';
import { Sparkles } from 'lucide-react';
import {
  DEFAULT_LEAD_LOCATION,
  GENERATE_LEADS_FAILED,
  GENERATE_LEADS_REQUIRED,
  generatedLeadsMessage,
  leadPlatforms,
  professions,
  type LeadGenerationRunResponse,
  type LeadPlatformId,
  type LeadSource,
  type Profession,
} from '@sendwell/contract/leads';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { toastError } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';
import { useLeadGenerationRun, useRefreshLeadData, useStartLeadGeneration } from '../api/use-leads';
import { expectedLeadsLine, expectedLeadsSummary, runFinished, togglePlatform } from '../lead-display';
import { AddLeadSourceDialog, type PlacesProvider } from './add-lead-source-dialog';
import { GenerationProgress } from './generation-progress';
import { PlatformCard } from './platform-card';

/** Spec §2's 'Generate New Leads' card: profession, location, platforms, expected leads, and the run's progress. */
export function GenerateLeadsCard({ sources }: { sources: readonly LeadSource[] }) {
  const [profession, setProfession] = React.useState<Profession | ''>('');
  const [location, setLocation] = React.useState('');
  const [platforms, setPlatforms] = React.useState<LeadPlatformId[]>([]);
  const { runId, run, generating, start } = useGeneration();

  const expected = expectedLeadsSummary(platforms, sources);
  // A platform card's 'Not connected' opens the source form for its provider, on the key field.
  const [connecting, setConnecting] = React.useState<PlacesProvider | null>(null);
  const ready = profession !== '' && platforms.length > 0;

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (profession === '' || platforms.length === 0) {
      toast({ title: 'Error', description: GENERATE_LEADS_REQUIRED, variant: 'destructive' });
      return;
    }
    start({ profession, location: location.trim() || DEFAULT_LEAD_LOCATION, platforms });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="flex items-center gap-2 text-lg font-semibold">
            <Sparkles className="size-5" aria-hidden="true" />
            Generate New Leads
          </h2>
        </CardTitle>
        <CardDescription>
          Searches the platforms you select through the sources you have connected. Businesses found are real listings;
          no person is invented.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form className="space-y-6" onSubmit={submit}>
          <div className="grid gap-4 sm:grid-cols-2">
            <div className="space-y-2">
              <Label htmlFor="lead-profession">Profession</Label>
              <Select value={profession} onValueChange={(value) => setProfession(value as Profession)}>
                <SelectTrigger id="lead-profession" className="w-full">
                  <SelectValue placeholder="Choose a profession..." />
                </SelectTrigger>
                <SelectContent>
                  {professions.map((name) => (
                    <SelectItem key={name} value={name}>
                      {name}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </div>
            <div className="space-y-2">
              <Label htmlFor="lead-location">Location (optional)</Label>
              <Input
                id="lead-location"
                value={location}
                onChange={(event) => setLocation(event.target.value)}
                placeholder="e.g., New York, NY"
                maxLength={200}
                aria-describedby="lead-location-hint"
              />
              <p id="lead-location-hint" className="text-muted-foreground text-xs">
                Left empty, the search covers {DEFAULT_LEAD_LOCATION}.
              </p>
            </div>
          </div>

          <fieldset className="space-y-3">
            <legend className="text-sm font-medium">Platforms</legend>
            <div className="grid grid-cols-2 gap-2 sm:gap-3 lg:grid-cols-3">
              {leadPlatforms.map((platform) => (
                <PlatformCard
                  key={platform.id}
                  platform={platform}
                  sources={sources}
                  selected={platforms.includes(platform.id)}
                  onToggle={() => setPlatforms((current) => togglePlatform(current, platform.id))}
                  onConnect={platform.provider ? () => setConnecting(platform.provider) : undefined}
                />
              ))}
            </div>
          </fieldset>

          <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
            <div className="text-sm" data-testid="expected-leads">
              <p className="font-medium">{expectedLeadsLine(expected.sum)}</p>
              <p className="text-muted-foreground text-xs">{expected.note}</p>
            </div>
            <Button type="submit" disabled={!ready || generating} className="sm:w-auto">
              {generating ? 'Generating...' : 'Generate Leads'}
            </Button>
          </div>
        </form>
        {runId !== null && run && <GenerationProgress run={run} />}
        <AddLeadSourceDialog
          open={connecting !== null}
          onOpenChange={(open) => !open && setConnecting(null)}
          provider={connecting ?? undefined}
        />
      </CardContent>
    </Card>
  );
}

/** Starts a run, polls it, and toasts its outcome once (the real count of new leads, or the failure). */
function useGeneration() {
  const startRun = useStartLeadGeneration();
  const refreshLeads = useRefreshLeadData();
  const [runId, setRunId] = React.useState<string | null>(null);
  const polled = useLeadGenerationRun(runId);
  const reported = React.useRef<string | null>(null);
  const run: LeadGenerationRunResponse | undefined =
    polled.data ?? (startRun.data?.id === runId ? startRun.data : undefined);

  React.useEffect(() => {
    if (!run || !runFinished(run) || reported.current === run.id) return;
    reported.current = run.id;
    void refreshLeads();
    if (run.state === 'done') toast({ title: 'Success', description: generatedLeadsMessage(run.created) });
    else toast({ title: 'Error', description: run.error ?? GENERATE_LEADS_FAILED, variant: 'destructive' });
  }, [run, refreshLeads]);

  React.useEffect(() => {
    if (polled.isError && runId !== null && reported.current !== runId) {
      reported.current = runId;
      toastError(polled.error, GENERATE_LEADS_FAILED);
    }
  }, [polled.isError, polled.error, runId]);

  const start = (body: Parameters<typeof startRun.mutate>[0]) =>
    startRun.mutate(body, {
      onSuccess: (started) => setRunId(started.id),
      onError: (error) => toastError(error, GENERATE_LEADS_FAILED, { serverMessage: 'client-error' }),
    });

  const pollingFailed = polled.isError;
  const generating = startRun.isPending || (run !== undefined && !runFinished(run) && !pollingFailed);
  return { runId, run, generating, start };
}
