import * as React from 'react';
import { apiSettingsSchema } from '@sendwell/contract/api-keys';

import { FieldError } from '@/components/field-error';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { apiErrorText } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';
import { useApiSettings, useSaveApiSettings } from '../api/use-api-keys';

const SAVE_FAILED = 'Failed to save the rate limit. Please try again.';

/** The requests per second each API key may make (1–100); beyond it a key is answered 429. */
export function ApiRateLimitForm() {
  const settings = useApiSettings();
  const save = useSaveApiSettings();
  const [value, setValue] = React.useState<string | null>(null);
  const [error, setError] = React.useState<string | undefined>();
  const saved = settings.data?.requestsPerSecond;
  const shown = value ?? (saved === undefined ? '' : String(saved));

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = apiSettingsSchema.safeParse({ requestsPerSecond: shown.trim() === '' ? NaN : Number(shown) });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    save.mutate(parsed.data, {
      onSuccess: (answer) => {
        setValue(null);
        toast({
          title: 'Rate Limit Saved',
          description: `Each key may make ${answer.requestsPerSecond} requests per second.`,
        });
      },
      onError: (failure) => setError(apiErrorText(failure, SAVE_FAILED, 'client-error')),
    });
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-1.5">
      <Label htmlFor="api-rate-limit">Requests per second, per key</Label>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <Input
          id="api-rate-limit"
          type="number"
          inputMode="numeric"
          min={1}
          max={100}
          className="sm:w-32"
          value={shown}
          disabled={settings.isLoading}
          onChange={(event) => setValue(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'api-rate-limit-error' : 'api-rate-limit-help'}
        />
        <Button type="submit" variant="outline" disabled={save.isPending || settings.isLoading} className="shrink-0">
          {save.isPending && <Spinner className="size-4" label="Saving" />}
          Save Limit
        </Button>
      </div>
      {error ? (
        <FieldError id="api-rate-limit-error" message={error} />
      ) : (
        <p id="api-rate-limit-help" className="text-muted-foreground text-xs">
          Answers carry RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset headers; beyond the limit a key gets
          429 with Retry-After.
        </p>
      )}
    </form>
  );
}
