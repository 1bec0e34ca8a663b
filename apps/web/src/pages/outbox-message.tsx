import { Link, useRoute, useSearch } from 'wouter';
import { ArrowLeft, MailQuestion } from 'lucide-react';

import { EmptyState } from '@/components/empty-state';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { useAuth } from '@/features/auth/api/use-auth';
import { useOutboxMessage } from '@/features/outbox/api/use-outbox';
import { OutboxMessageView } from '@/features/outbox/components/outbox-message-view';
import { listQueryString, readListQuery } from '@/features/outbox/outbox-view';
import { getApiErrorStatus } from '@/lib/api';

/** /outbox/:id: one stored message; Back returns to the list's search and page (carried in the query string). */
export default function OutboxMessagePage() {
  const [, params] = useRoute('/outbox/:id');
  const id = Number(params?.id);
  const validId = Number.isSafeInteger(id) && id > 0 ? id : null;
  const backHref = `/outbox${listQueryString(readListQuery(useSearch()))}`;
  const { isAuthenticated } = useAuth();
  const message = useOutboxMessage(validId, isAuthenticated);
  const status = getApiErrorStatus(message.error);
  const notFound = validId === null || status === 404 || status === 400;

  return (
    <div className="space-y-6">
      <Button variant="ghost" size="sm" asChild className="-ml-2">
        <Link href={backHref}>
          <ArrowLeft aria-hidden="true" />
          Back to Outbox
        </Link>
      </Button>
      {notFound ? (
        <EmptyState icon={MailQuestion} title="Message not found">
          This message does not exist or belongs to another account.
        </EmptyState>
      ) : message.isError ? (
        <p className="text-destructive text-sm" role="alert">
          Could not load this message. Please refresh the page.
        </p>
      ) : !message.data ? (
        <div className="space-y-6" aria-busy="true" aria-label="Loading the message">
          <Skeleton className="h-9 w-2/3" />
          <Skeleton className="h-40 w-full" />
          <Skeleton className="h-9 w-72" />
          <Skeleton className="h-96 w-full" />
        </div>
      ) : (
        <OutboxMessageView message={message.data} />
      )}
    </div>
  );
}
