import * as React from 'react';
import { DEFAULT_LEAD_LOCATION, professions, type LeadSource, type Profession } from '@sendwell/contract/leads';

import { FieldError } from '@/components/field-error';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { toastError } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';
import { useLoadSampleLeads } from '../api/use-leads';
import { leadsLoadedText } from '../lead-csv';

/** A sample source's 'Load sample leads': the demo directory's businesses for a profession and location. */
export function SampleLeadsForm({ source }: { source: LeadSource }) {
  const load = useLoadSampleLeads();
  const [profession, setProfession] = React.useState<Profession | ''>('');
  const [location, setLocation] = React.useState('');
  const [error, setError] = React.useState<string | undefined>();
  const professionId = `sample-profession-${source.id}`;
  const locationId = `sample-location-${source.id}`;

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (profession === '') {
      setError('Choose a profession');
      return;
    }
    setError(undefined);
    load.mutate(
      { id: source.id, body: { profession, location: location.trim() || DEFAULT_LEAD_LOCATION } },
      {
        onSuccess: (result) => toast({ title: 'Sample leads loaded', description: leadsLoadedText(result) }),
        onError: (failure) => toastError(failure, 'Failed to load sample leads', { serverMessage: 'client-error' }),
      },
    );
  };

  return (
    <form className="grid gap-2 sm:grid-cols-[1fr_1fr_auto] sm:items-end" onSubmit={submit} noValidate>
      <div className="space-y-1.5">
        <Label htmlFor={professionId}>Sample profession</Label>
        <Select
          value={profession}
          onValueChange={(value) => {
            setProfession(value as Profession);
            setError(undefined);
          }}
        >
          <SelectTrigger
            id={professionId}
            className="w-full"
            aria-invalid={Boolean(error)}
            aria-describedby={error ? `${professionId}-error` : undefined}
          >
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
        <FieldError id={`${professionId}-error`} message={error} />
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={locationId}>Sample location (optional)</Label>
        <Input
          id={locationId}
          value={location}
          onChange={(event) => setLocation(event.target.value)}
          placeholder={DEFAULT_LEAD_LOCATION}
          maxLength={200}
        />
      </div>
      <Button type="submit" variant="outline" disabled={load.isPending}>
        {load.isPending ? 'Loading...' : 'Load sample leads'}
      </Button>
    </form>
  );
}
