import type { Domain } from '@sendwell/contract/domains';

import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { BounceMailboxCard } from './bounce-mailbox-card';
import { BounceProvidersCard } from './bounce-providers-card';
import { BounceSettingsCard } from './bounce-settings-card';
import { InboundMxCard } from './inbound-mx-card';
import { InboundWebhookCard } from './inbound-webhook-card';

/** The records an inbound mail service typically asks for (spec §2: MX, TXT and CNAME). */
const INBOUND_RECORDS = [
  {
    type: 'MX',
    host: (domain: string) => `@ (${domain})`,
    value: "The service's mail server, priority 10",
    purpose: 'Delivers incoming mail to the service',
  },
  {
    type: 'TXT',
    host: (domain: string) => `@ (${domain})`,
    value: "The service's verification value",
    purpose: 'Proves you own the domain',
  },
  {
    type: 'CNAME',
    host: () => 'The host the service names',
    value: "The service's target host",
    purpose: 'Routing or tracking for the service',
  },
] as const;

/**
 * The Email Forwarding tab (spec §2): the account's inbound webhook address (this origin +
 * /api/webhook/email, with its token) with a copy button; the MX record that brings a domain's mail
 * straight to Sendwell's inbound SMTP server, with its live check; and the setup guide for an
 * inbound mail service: four steps and the DNS records it needs.
 */
export function EmailForwardingTab({
  domains,
  selected,
  onSelect,
}: {
  domains: readonly Domain[];
  selected: Domain | undefined;
  onSelect: (id: number) => void;
}) {
  const domain = selected?.domain ?? 'yourdomain.com';
  return (
    <div className="space-y-4">
      <InboundWebhookCard />
      {selected && <InboundMxCard domains={domains} domain={selected} onSelect={onSelect} />}
      <BounceSettingsCard />
      <BounceProvidersCard />
      <BounceMailboxCard />
      <Card>
        <CardHeader>
          <CardTitle>
            <h2>Forwarding setup guide</h2>
          </CardTitle>
          <CardDescription>
            Instead of the MX record above, an inbound mail service can receive the mail and post it to the webhook.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          <ol className="list-decimal space-y-2 pl-5 text-sm">
            <li>Choose an inbound mail service (an inbound parse or routing service) and add {domain} to it.</li>
            <li>
              Publish the DNS records it gives you, as in the table below, so mail for {domain} reaches the service.
            </li>
            <li>Set the service's webhook to the address above (raw MIME or the service's JSON payload).</li>
            <li>Send a test message to one of your aliases and check that it arrives at its destination.</li>
          </ol>
          {/* Scrolls sideways on a phone: focusable so keyboard users can scroll it too. */}
          <div
            className="overflow-x-auto rounded-md border"
            tabIndex={0}
            role="region"
            aria-label="DNS records of an inbound mail service"
          >
            <table className="w-full min-w-[36rem] text-sm">
              <thead className="bg-muted/50 text-left">
                <tr>
                  {['Type', 'Host', 'Value', 'Purpose'].map((heading) => (
                    <th key={heading} scope="col" className="px-3 py-2 font-medium">
                      {heading}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y">
                {INBOUND_RECORDS.map((record) => (
                  <tr key={record.type}>
                    <td className="px-3 py-2 font-mono">{record.type}</td>
                    <td className="px-3 py-2 font-mono break-all">{record.host(domain)}</td>
                    <td className="px-3 py-2">{record.value}</td>
                    <td className="px-3 py-2">{record.purpose}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </CardContent>
      </Card>
    </div>
  );
}
