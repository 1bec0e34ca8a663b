import { MailWarning } from 'lucide-react';

import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useBounceMailbox } from '../api/use-bounce-providers';
import { formatTimeAgo } from '../domain-display';

const STATUS_LABELS = {
  not_configured: 'Not configured',
  waiting: 'Waiting for the first check',
  ok: 'Working',
  failing: 'Failing',
} as const;

/** The installation's bounce mailbox (BOUNCE_IMAP_URL): whether it is read, and why not (GET /api/bounce-mailbox). */
export function BounceMailboxCard() {
  const mailbox = useBounceMailbox();
  const data = mailbox.data;
  return (
    <Card data-testid="bounce-mailbox">
      <CardHeader>
        <CardTitle>
          <h2 className="flex items-center gap-2">
            <MailWarning className="size-4" aria-hidden="true" />
            Bounce mailbox
          </h2>
        </CardTitle>
        <CardDescription>
          A mailbox bounces are read from every minute, for installations that cannot receive mail.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-2 text-sm">
        {!data ? (
          <Skeleton className="h-12 w-full" />
        ) : data.status === 'not_configured' ? (
          <p className="text-muted-foreground">
            Not configured: bounces arrive through the return path or the webhooks. Set{' '}
            <code className="font-mono">BOUNCE_IMAP_URL</code> to read them from a mailbox.
          </p>
        ) : (
          <>
            <div className="flex flex-wrap items-center gap-2">
              <code className="font-mono text-xs break-all">{data.mailbox}</code>
              <Badge variant={data.status === 'failing' ? 'destructive' : 'secondary'}>
                {STATUS_LABELS[data.status]}
              </Badge>
            </div>
            {data.error && (
              <p className="text-destructive" role="alert">
                {data.error}
              </p>
            )}
            <p className="text-muted-foreground">
              {data.lastPolledAt ? `Last checked ${formatTimeAgo(data.lastPolledAt)}` : 'Not checked yet'}
              {data.lastSuccessAt && data.status === 'failing'
                ? ` · last worked ${formatTimeAgo(data.lastSuccessAt)}`
                : ''}
              {` · ${data.processedCount} message${data.processedCount === 1 ? '' : 's'} read`}
            </p>
          </>
        )}
      </CardContent>
    </Card>
  );
}
