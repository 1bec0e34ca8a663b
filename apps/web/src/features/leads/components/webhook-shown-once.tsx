import { CopyField } from './copy-field';
import { webhookCurlExample } from '../lead-display';

/** A new webhook source's address and signing secret (answered this once), and a signed delivery with curl. */
export function WebhookShownOnce({ webhook }: { webhook: { url: string; secret: string } }) {
  return (
    <div className="min-w-0 space-y-4">
      <p className="text-sm" role="status">
        Post leads to this address, signed with this secret. Copy the secret now: it is not shown again.
      </p>
      <CopyField id="webhook-url" label="Webhook URL" value={webhook.url} />
      <CopyField id="webhook-secret" label="Signing secret" value={webhook.secret} />
      <CopyField
        id="webhook-curl"
        label="Example delivery (curl)"
        value={webhookCurlExample(webhook.url, webhook.secret)}
        multiline
        rows={8}
      />
      <p className="text-muted-foreground text-xs">
        Each delivery carries X-Sendwell-Timestamp (Unix seconds) and X-Sendwell-Signature: sha256= and the hex
        HMAC-SHA256 of “timestamp.raw body” keyed with the secret. Deliveries more than 5 minutes old, or seen before,
        are refused. Send one lead, or up to 100 as {'{"leads": [...]}'}.
      </p>
    </div>
  );
}
