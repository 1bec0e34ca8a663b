import * as React from 'react';
import { Globe } from 'lucide-react';

import { TimeZoneSelect, timeZoneLabel } from '@/components/time-zone-select';
import { browserTimeZone } from '@/lib/time-zone';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { toastError } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';
import { useUpdateProfile } from '../api/use-auth-mutations';
import { useAuth } from '../api/use-auth';

/**
 * The account's default time zone (PATCH /api/auth/user {timeZone}): a schedule's time is read in
 * it and campaign times are shown in it, unless a campaign chose its own when it was scheduled.
 */
export function TimeZoneCard() {
  const { user } = useAuth();
  const update = useUpdateProfile();
  const [zone, setZone] = React.useState<string | null>(null);
  const saved = user?.timeZone ?? null;
  const chosen = zone ?? saved;
  const browser = browserTimeZone();

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!chosen) return;
    update.mutate(
      { timeZone: chosen },
      {
        onSuccess: (updated) => {
          setZone(null);
          toast({
            title: 'Time zone saved',
            description: `Schedules and times now use ${timeZoneLabel(updated.timeZone)}.`,
          });
        },
        onError: (error) =>
          toastError(error, 'Could not save the time zone. Please try again.', { serverMessage: 'client-error' }),
      },
    );
  };

  return (
    <Card>
      <CardContent>
        {!chosen ? (
          <Skeleton className="h-20 w-full" />
        ) : (
          <form className="space-y-3" onSubmit={submit} aria-label="Time zone">
            <div className="space-y-1.5">
              <Label htmlFor="account-time-zone" className="flex items-center gap-1.5">
                <Globe className="size-4" aria-hidden="true" />
                Default time zone
              </Label>
              <TimeZoneSelect
                id="account-time-zone"
                value={chosen}
                onChange={setZone}
                disabled={update.isPending}
                className="sm:max-w-md"
                aria-describedby="account-time-zone-hint"
              />
              <p id="account-time-zone-hint" className="text-muted-foreground text-sm">
                {browser !== chosen ? `This browser is on ${timeZoneLabel(browser)}.` : 'The same as this browser’s.'}
              </p>
            </div>
            <Button type="submit" size="sm" disabled={update.isPending || chosen === saved}>
              {update.isPending && <Spinner className="size-4" label="Saving" />}
              Save time zone
            </Button>
          </form>
        )}
      </CardContent>
    </Card>
  );
}
