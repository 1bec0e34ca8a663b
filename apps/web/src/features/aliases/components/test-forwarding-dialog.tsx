import * as React from 'react';
import { FlaskConical } from 'lucide-react';
import { testForwardingBodySchema, type EmailAlias, type TestForwardingBody } from '@sendwell/contract/aliases';

import { FieldError } from '@/components/field-error';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { Textarea } from '@/components/ui/textarea';

/**
 * The Advanced panel's Test: a message from the sender and with the subject the user chooses
 * (so rules on sender domain or subject can be tried), sent through POST /api/test-forwarding.
 */
export function TestForwardingDialog({
  alias,
  accountEmail,
  open,
  pending,
  onOpenChange,
  onRun,
}: {
  alias: EmailAlias;
  accountEmail: string;
  open: boolean;
  pending: boolean;
  onOpenChange: (open: boolean) => void;
  onRun: (body: TestForwardingBody) => void;
}) {
  const [draft, setDraft] = React.useState({ fromEmail: accountEmail, subject: 'Test forwarding', content: '' });
  const [error, setError] = React.useState<string | undefined>();

  React.useEffect(() => {
    if (open) {
      setDraft((d) => ({ ...d, fromEmail: d.fromEmail || accountEmail }));
      setError(undefined);
    }
  }, [open, accountEmail]);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const body = {
      alias: alias.address,
      aliasId: alias.id,
      fromEmail: draft.fromEmail,
      subject: draft.subject,
      content: draft.content || `A test message to ${alias.address}, sent from Sendwell's Advanced Aliases.`,
    };
    const parsed = testForwardingBodySchema.safeParse(body);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    onRun(body);
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>Test {alias.address}</DialogTitle>
          <DialogDescription>
            Sends a real message through the forwarding pipeline: its rules, destinations and auto-reply apply.
          </DialogDescription>
        </DialogHeader>
        <form id="test-forwarding-form" onSubmit={submit} noValidate className="space-y-4">
          <div className="space-y-1.5">
            <Label htmlFor="test-from">From</Label>
            <Input
              id="test-from"
              type="email"
              value={draft.fromEmail}
              onChange={(e) => setDraft((d) => ({ ...d, fromEmail: e.target.value }))}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'test-from-error' : undefined}
            />
            <FieldError id="test-from-error" message={error} />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor="test-subject">Subject</Label>
            <Input
              id="test-subject"
              value={draft.subject}
              onChange={(e) => setDraft((d) => ({ ...d, subject: e.target.value }))}
            />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor="test-content">Message</Label>
            <Textarea
              id="test-content"
              rows={3}
              value={draft.content}
              placeholder="A short test message"
              onChange={(e) => setDraft((d) => ({ ...d, content: e.target.value }))}
            />
          </div>
        </form>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" form="test-forwarding-form" disabled={pending}>
            {pending ? <Spinner className="size-4" label="Sending" /> : <FlaskConical aria-hidden="true" />}
            Send Test
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
