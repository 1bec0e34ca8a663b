import { Inbox, Server } from 'lucide-react';
import type { MailTransport } from '@sendwell/contract/outbox';

import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';

/**
 * Says where mail goes, from the server's answer: the built-in catcher (stored here, never
 * delivered) or the SMTP server at SMTP_URL (delivered, not stored here).
 */
export function TransportNotice({ transport, hasMessages }: { transport: MailTransport; hasMessages: boolean }) {
  if (transport === 'smtp') {
    return (
      <Alert role="status" data-transport="smtp">
        <Server aria-hidden="true" />
        <AlertTitle>Mail goes to your SMTP server</AlertTitle>
        <AlertDescription className="text-foreground/80">
          <p>
            SMTP_URL is set, so Sendwell delivers every message through your SMTP server and no longer keeps a copy
            here.
            {hasMessages && ' The messages below were caught before it was configured.'}
          </p>
        </AlertDescription>
      </Alert>
    );
  }
  return (
    <Alert
      role="status"
      data-transport="catcher"
      className="border-sky-200 bg-sky-50/60 dark:border-sky-900 dark:bg-sky-950/30"
    >
      <Inbox aria-hidden="true" />
      <AlertTitle>The built-in mail catcher is on</AlertTitle>
      <AlertDescription className="text-foreground/80">
        <p>
          No SMTP server is configured (SMTP_URL is not set), so messages are stored here instead of being delivered.
          Set SMTP_URL to send real mail.
        </p>
      </AlertDescription>
    </Alert>
  );
}
