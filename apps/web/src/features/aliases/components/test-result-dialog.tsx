import { CircleAlert, Forward, MessageSquareReply } from 'lucide-react';
import type { AliasTestResult } from '@sendwell/contract/aliases';

import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { OutcomeBadge } from './alias-badges';

/** A test run's answer: the address tested and what the pipeline did with the message. */
export type ShownTestResult = { address: string; result: AliasTestResult };

/** What a test message did: forwarded to whom, blocked by which rule, auto-replied, or skipped addresses. */
export function TestResultDialog({ shown, onClose }: { shown: ShownTestResult | null; onClose: () => void }) {
  const result = shown?.result;
  return (
    <Dialog
      open={shown !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
    >
      <DialogContent className="sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>Test message sent</DialogTitle>
          <DialogDescription>
            A real message went to <span className="font-medium break-all">{shown?.address}</span> through the same
            pipeline as your mail.
          </DialogDescription>
        </DialogHeader>
        {result && (
          <div className="space-y-4 text-sm" data-testid="alias-test-result">
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-medium">Outcome</span>
              <OutcomeBadge outcome={result.outcome} />
            </div>
            <p>{result.detail}</p>
            {result.forwardedTo.length > 0 && (
              <div className="space-y-1">
                <h3 className="flex items-center gap-2 font-medium">
                  <Forward className="size-4" aria-hidden="true" />
                  Recipients
                </h3>
                <ul className="space-y-1 pl-6">
                  {result.forwardedTo.map((address) => (
                    <li key={address} className="font-mono text-xs break-all">
                      {address}
                    </li>
                  ))}
                </ul>
              </div>
            )}
            {result.autoReplied && (
              <p className="flex items-center gap-2">
                <MessageSquareReply className="size-4 shrink-0" aria-hidden="true" />
                An auto-reply went back to the sender.
              </p>
            )}
            {result.skippedUnconfirmed.length > 0 && (
              <div
                className="rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-950 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100"
                role="note"
              >
                <p className="flex items-center gap-2 font-medium">
                  <CircleAlert className="size-4 shrink-0" aria-hidden="true" />
                  Not confirmed yet, so skipped
                </p>
                <ul className="mt-1 space-y-1 pl-6">
                  {result.skippedUnconfirmed.map((address) => (
                    <li key={address} className="font-mono text-xs break-all">
                      {address}
                    </li>
                  ))}
                </ul>
              </div>
            )}
            <p className="text-muted-foreground text-xs">
              Message-ID <span className="font-mono break-all">{result.messageId}</span>. The activity log and Analytics
              update once the forward is delivered.
            </p>
          </div>
        )}
        <DialogFooter>
          <Button type="button" onClick={onClose}>
            Done
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
