import * as React from 'react';
import { Check, Copy, KeyRound, TriangleAlert } from 'lucide-react';
import { createApiKeyBodySchema, type ApiKeyScope, type CreatedApiKey } from '@sendwell/contract/api-keys';

import { FieldError } from '@/components/field-error';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
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
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Spinner } from '@/components/ui/spinner';
import { getApiErrorFields } from '@/lib/api';
import { apiErrorText } from '@/lib/toast-error';
import { useCopyToClipboard } from '@/lib/use-copy-to-clipboard';
import { useCreateApiKey } from '../api/use-api-keys';

const CREATE_FAILED = 'Failed to create the API key. Please try again.';
/** The domain choice meaning "no limit" (a Select item needs a non-empty value). */
const ANY_DOMAIN = 'any';

type Errors = Partial<Record<'name' | 'scope' | 'domain' | 'form', string>>;

/** The secret, shown once, with a button that copies it. */
function SecretReveal({ created }: { created: CreatedApiKey }) {
  const { copied, copy } = useCopyToClipboard();
  return (
    <div className="space-y-4">
      <Alert>
        <TriangleAlert aria-hidden="true" />
        <AlertTitle>Copy your key now</AlertTitle>
        <AlertDescription>
          This is the only time the key is shown. We keep only a fingerprint of it, so it cannot be shown again: if you
          lose it, revoke it and create another.
        </AlertDescription>
      </Alert>
      <div className="space-y-1.5">
        <Label htmlFor="api-key-secret">API key “{created.apiKey.name}”</Label>
        <div className="flex gap-2">
          <Input
            id="api-key-secret"
            readOnly
            value={created.secret}
            className="font-mono text-xs"
            onFocus={(event) => event.currentTarget.select()}
          />
          <Button type="button" variant="outline" className="shrink-0" onClick={() => void copy(created.secret)}>
            {copied ? (
              <Check className="text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
            ) : (
              <Copy aria-hidden="true" />
            )}
            {copied ? 'Copied' : 'Copy'}
          </Button>
        </div>
        <p className="text-muted-foreground text-xs">
          Send it as <code className="font-mono">Authorization: Bearer &lt;key&gt;</code> with each request.
        </p>
        <span className="sr-only" aria-live="polite">
          {copied ? 'API key copied to the clipboard' : ''}
        </span>
      </div>
    </div>
  );
}

/**
 * Creates an API key: a name, full access or sending only, and for a sending key optionally one of
 * the account's verified domains. Once created, the dialog shows the secret (the only time) to copy.
 */
export function CreateApiKeyDialog({
  open,
  onOpenChange,
  verifiedDomains,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  verifiedDomains: string[];
}) {
  const create = useCreateApiKey();
  const [name, setName] = React.useState('');
  const [scope, setScope] = React.useState<ApiKeyScope>('full');
  const [domain, setDomain] = React.useState(ANY_DOMAIN);
  const [errors, setErrors] = React.useState<Errors>({});
  const [created, setCreated] = React.useState<CreatedApiKey | null>(null);

  const reset = () => {
    setName('');
    setScope('full');
    setDomain(ANY_DOMAIN);
    setErrors({});
    setCreated(null);
    create.reset();
  };
  const changeOpen = (next: boolean) => {
    // The secret is dropped when the dialog closes: it is never shown twice.
    if (!next) reset();
    onOpenChange(next);
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const body = { name, scope, domain: scope === 'sending' && domain !== ANY_DOMAIN ? domain : null };
    const parsed = createApiKeyBodySchema.safeParse(body);
    if (!parsed.success) {
      const found: Errors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if (field === 'name' || field === 'scope' || field === 'domain') found[field] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    create.mutate(body, {
      onSuccess: setCreated,
      onError: (failure) => {
        const fields = getApiErrorFields(failure);
        setErrors({
          name: fields.name,
          domain: fields.domain,
          form: fields.name || fields.domain ? undefined : apiErrorText(failure, CREATE_FAILED, 'client-error'),
        });
      },
    });
  };

  return (
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogContent className="sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>{created ? 'API Key Created' : 'Create API Key'}</DialogTitle>
          <DialogDescription>
            {created
              ? 'Store it somewhere safe, such as your password manager or your server’s secrets.'
              : 'Programs use a key to call the Sendwell API on behalf of this account.'}
          </DialogDescription>
        </DialogHeader>
        {created ? (
          <>
            <SecretReveal created={created} />
            <DialogFooter>
              <Button type="button" onClick={() => changeOpen(false)}>
                Done
              </Button>
            </DialogFooter>
          </>
        ) : (
          <form onSubmit={submit} noValidate className="space-y-4">
            <div className="space-y-1.5">
              <Label htmlFor="api-key-name">Name</Label>
              <Input
                id="api-key-name"
                value={name}
                placeholder="e.g. CRM sync"
                maxLength={100}
                onChange={(event) => setName(event.target.value)}
                aria-invalid={errors.name ? true : undefined}
                aria-describedby={errors.name ? 'api-key-name-error' : undefined}
              />
              <FieldError id="api-key-name-error" message={errors.name} />
            </div>
            <div className="space-y-1.5">
              <Label htmlFor="api-key-scope">Access</Label>
              <Select value={scope} onValueChange={(value) => setScope(value as ApiKeyScope)}>
                <SelectTrigger id="api-key-scope" className="w-full" aria-describedby="api-key-scope-help">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  <SelectItem value="full">Full access</SelectItem>
                  <SelectItem value="sending">Sending only</SelectItem>
                </SelectContent>
              </Select>
              <p id="api-key-scope-help" className="text-muted-foreground text-xs">
                {scope === 'full'
                  ? 'Contacts, lists, segments, campaigns, sequences, leads and suppressions.'
                  : 'Lists and sends campaigns, enrols contacts in sequences and posts events; cannot read contacts.'}
              </p>
            </div>
            {scope === 'sending' && (
              <div className="space-y-1.5">
                <Label htmlFor="api-key-domain">Sending domain</Label>
                <Select value={domain} onValueChange={setDomain}>
                  <SelectTrigger
                    id="api-key-domain"
                    className="w-full"
                    aria-invalid={errors.domain ? true : undefined}
                    aria-describedby={errors.domain ? 'api-key-domain-error' : 'api-key-domain-help'}
                  >
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    <SelectItem value={ANY_DOMAIN}>Any domain</SelectItem>
                    {verifiedDomains.map((each) => (
                      <SelectItem key={each} value={each}>
                        Only {each}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
                {errors.domain ? (
                  <FieldError id="api-key-domain-error" message={errors.domain} />
                ) : (
                  <p id="api-key-domain-help" className="text-muted-foreground text-xs">
                    {verifiedDomains.length > 0
                      ? 'A key limited to a domain only sends mail from addresses there.'
                      : 'Verify a domain in Domain Settings to limit a key to it.'}
                  </p>
                )}
              </div>
            )}
            {errors.form && (
              <p className="text-destructive text-sm" role="alert">
                {errors.form}
              </p>
            )}
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => changeOpen(false)}>
                Cancel
              </Button>
              <Button type="submit" disabled={create.isPending}>
                {create.isPending ? <Spinner className="size-4" label="Creating" /> : <KeyRound aria-hidden="true" />}
                Create Key
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
