import * as React from 'react';
import { Send } from 'lucide-react';
import { sendTestBodySchema } from '@sendwell/contract/campaigns';

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
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { Textarea } from '@/components/ui/textarea';
import { parseEmailList } from '../../editor/campaign-form';

/** Send Test: the current email, marked as a test, to up to 5 addresses (the user's own by default). */
export function SendTestDialog({
  open,
  onOpenChange,
  defaultEmail,
  pending,
  onSend,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  defaultEmail: string;
  pending: boolean;
  /** Resolves true when the test went out (the dialog then closes). */
  onSend: (emails: string[]) => Promise<boolean>;
}) {
  const [text, setText] = React.useState(defaultEmail);
  const [error, setError] = React.useState<string | undefined>();

  React.useEffect(() => {
    if (open) {
      setText(defaultEmail);
      setError(undefined);
    }
  }, [open, defaultEmail]);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = sendTestBodySchema.safeParse({ emails: parseEmailList(text) });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    if (await onSend(parsed.data.emails)) onOpenChange(false);
  };

  return (
    <Dialog open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <DialogContent className="sm:max-w-md">
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>Send a test email</DialogTitle>
            <DialogDescription>
              The email as it is now goes to these addresses, marked as a test. The campaign is saved as a draft first.
            </DialogDescription>
          </DialogHeader>
          <div className="space-y-1.5">
            <Label htmlFor="test-emails">Email addresses</Label>
            <Textarea
              id="test-emails"
              rows={3}
              value={text}
              onChange={(event) => setText(event.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'test-emails-error test-emails-hint' : 'test-emails-hint'}
            />
            <p id="test-emails-hint" className="text-muted-foreground text-xs">
              Up to 5 addresses, separated by commas or new lines: your own confirmed addresses or your contacts. Tests
              count against your plan’s monthly emails.
            </p>
            <FieldError id="test-emails-error" message={error} />
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? <Spinner className="size-4" label="Sending test" /> : <Send aria-hidden="true" />}
              {pending ? 'Sending...' : 'Send Test'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
