import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Gauge } from 'lucide-react';
import { sequenceSettingsSchema, type SequenceSettings } from '@sendwell/contract/sequences';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { toastError } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';
import { useSaveSequenceSettings, useSequenceSettings } from '../api/use-sequence-settings';

/** The account's frequency cap for sequence emails (GET/PUT /api/sequence-settings). */
export function SequenceSettingsCard({ enabled }: { enabled: boolean }) {
  const stored = useSequenceSettings(enabled);
  const save = useSaveSequenceSettings();
  const form = useForm<SequenceSettings>({ resolver: zodResolver(sequenceSettingsSchema) });
  const { errors } = form.formState;
  useEffect(() => {
    if (stored.data) form.reset(stored.data);
  }, [stored.data, form]);

  const onSubmit = form.handleSubmit(async (settings) => {
    try {
      await save.mutateAsync(settings);
      toast({ title: 'Sending limit saved' });
    } catch (failure) {
      toastError(failure, 'Could not save the sending limit. Please try again.', { serverMessage: 'client-error' });
    }
  });
  const error = errors.maxEmailsPerContactPerDay?.message;

  return (
    <Card className="mt-6">
      <CardHeader>
        <CardTitle>
          <h2 className="flex items-center gap-2">
            <Gauge className="size-4" aria-hidden="true" />
            Sending limit
          </h2>
        </CardTitle>
        <CardDescription>
          A contact who got this many marketing emails (sequences and campaigns) in the last 24 hours gets the next
          sequence email later, once the 24 hours allow it. Nothing is skipped.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {!stored.data ? (
          <Skeleton className="h-20 w-full" />
        ) : (
          <form className="flex flex-wrap items-end gap-3" onSubmit={onSubmit} noValidate aria-label="Sending limit">
            <div className="space-y-1.5">
              <Label htmlFor="max-emails-per-contact">Emails per contact per 24 hours</Label>
              <Input
                id="max-emails-per-contact"
                type="number"
                inputMode="numeric"
                min={1}
                max={50}
                className="w-32"
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? 'max-emails-per-contact-error' : undefined}
                {...form.register('maxEmailsPerContactPerDay', { valueAsNumber: true })}
              />
            </div>
            <Button type="submit" size="sm" disabled={save.isPending}>
              Save sending limit
            </Button>
            {error && (
              <p id="max-emails-per-contact-error" role="alert" className="text-destructive w-full text-sm">
                {error}
              </p>
            )}
          </form>
        )}
      </CardContent>
    </Card>
  );
}
