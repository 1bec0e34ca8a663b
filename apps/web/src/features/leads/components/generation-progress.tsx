import type { LeadGenerationRun, LeadGenerationRunResponse } from '@sendwell/contract/leads';

import { Progress } from '@/components/ui/progress';
import { enrichmentText, platformName, runPlatformText, runProgressPercent } from '../lead-display';

const stateText: Record<LeadGenerationRun['state'], string> = {
  queued: 'Queued',
  running: 'Searching',
  done: 'Finished',
  failed: 'Failed',
};

/** A run's progress bar and what each selected platform did (or why it could not search). */
export function GenerationProgress({ run }: { run: LeadGenerationRunResponse }) {
  const percent = runProgressPercent(run);
  return (
    <section className="mt-6 space-y-3 rounded-lg border p-4" aria-labelledby="generation-progress-title">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id="generation-progress-title" className="text-sm font-semibold">
          {stateText[run.state]}: {run.profession} in {run.location}
        </h3>
        <span className="text-muted-foreground text-xs">
          {run.progress.done} of {run.progress.total} platforms
        </span>
      </div>
      <Progress value={percent} aria-label="Lead generation progress" />
      {run.state === 'done' && (
        <p className="text-sm" role="status" data-testid="generation-progress-summary">
          {run.created} new {run.created === 1 ? 'lead' : 'leads'}
          {run.duplicates > 0 ? `, ${run.duplicates} already known` : ''}.
        </p>
      )}
      {run.state === 'failed' && run.error && (
        <p className="text-destructive text-sm" role="alert">
          {run.error}
        </p>
      )}
      <ul className="divide-y text-sm" data-testid="generation-platforms">
        {run.platforms.map((entry) => (
          <li key={entry.platform} className="flex flex-wrap justify-between gap-x-4 py-1.5">
            <span className="font-medium">{platformName(entry.platform)}</span>
            <span className={entry.state === 'failed' ? 'text-destructive' : 'text-muted-foreground'}>
              {runPlatformText(entry)}
            </span>
          </li>
        ))}
      </ul>
      <p
        className={run.enrichment.state === 'stopped' ? 'text-destructive text-sm' : 'text-muted-foreground text-sm'}
        data-testid="generation-enrichment"
      >
        {enrichmentText(run.enrichment)}
      </p>
    </section>
  );
}
