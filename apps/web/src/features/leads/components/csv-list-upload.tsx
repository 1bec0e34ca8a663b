import * as React from 'react';
import type { LeadSource } from '@sendwell/contract/leads';

import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Progress } from '@/components/ui/progress';
import { toastError } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';
import { leadsLoadedText } from '../lead-csv';
import { LeadsLoadedSummary } from './leads-loaded-summary';
import { useLeadCsvUpload } from './use-lead-csv-upload';

/** Uploads (another) lead list to a csv source: streamed to the server, with its progress and result. */
export function CsvListUpload({ source }: { source: LeadSource }) {
  const upload = useLeadCsvUpload();
  const [file, setFile] = React.useState<File | null>(null);
  const [inputKey, setInputKey] = React.useState(0);
  const id = `source-upload-${source.id}`;

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!file) return;
    try {
      const result = await upload.run(source.id, file);
      toast({ title: 'Lead list imported', description: leadsLoadedText(result) });
      setFile(null);
      setInputKey((key) => key + 1);
    } catch (error) {
      toastError(error, 'Failed to import the lead list', { serverMessage: 'client-error' });
    }
  };

  return (
    <div className="space-y-3">
      <form className="flex flex-col gap-2 sm:flex-row sm:items-end" onSubmit={(event) => void submit(event)}>
        <div className="flex-1 space-y-1.5">
          <Label htmlFor={id}>Upload a lead list</Label>
          <Input
            key={inputKey}
            id={id}
            type="file"
            accept=".csv,text/csv"
            disabled={upload.isPending}
            onChange={(event) => setFile(event.target.files?.[0] ?? null)}
          />
        </div>
        <Button type="submit" variant="outline" disabled={!file || upload.isPending}>
          {upload.isPending ? 'Importing...' : 'Upload'}
        </Button>
      </form>
      {upload.progress && (
        <div className="space-y-1" role="status">
          <Progress value={upload.percent} aria-label={`${source.name} import progress`} />
          <p className="text-muted-foreground text-xs">{upload.percent}%</p>
        </div>
      )}
      {upload.result && <LeadsLoadedSummary result={upload.result} title="Last upload" />}
    </div>
  );
}
