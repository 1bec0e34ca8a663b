import * as React from 'react';
import { Link } from 'wouter';

import { PageHeader } from '@/components/page-header';
import { ApiKeysCard } from '@/features/api-keys/components/api-keys-card';
import { BounceSettingsCard } from '@/features/domains/components/bounce-settings-card';
import { InboundWebhookCard } from '@/features/domains/components/inbound-webhook-card';
import { useSenderOverview } from '@/features/sender-addresses/api/use-sender-addresses';

/** The API section: its keys may be limited to one of the account's verified domains. */
function ApiSection() {
  const overview = useSenderOverview(true);
  return <ApiKeysCard verifiedDomains={overview.data?.verifiedDomains ?? []} />;
}

/**
 * The page's sections, in order, each with its own heading and anchor (`/settings#api-keys`): a
 * new kind of account setting adds one entry here.
 */
const SETTINGS_SECTIONS: { id: string; title: string; description: React.ReactNode; content: () => React.ReactNode }[] =
  [
    {
      id: 'api-keys',
      title: 'API',
      description: (
        <>
          Keys for your own code and other services, and how fast each may call. See the{' '}
          <Link href="/settings/api-reference" className="text-primary underline-offset-4 hover:underline">
            API reference
          </Link>{' '}
          for the routes and curl examples.
        </>
      ),
      content: () => <ApiSection />,
    },
    {
      id: 'inbound',
      title: 'Receiving mail',
      description: (
        <>
          Where inbound mail services post the mail your aliases receive. Aliases, forwarding and MX records are in{' '}
          <Link href="/domain-settings?tab=forwarding" className="text-primary underline-offset-4 hover:underline">
            Domain Settings
          </Link>
          .
        </>
      ),
      content: () => <InboundWebhookCard />,
    },
    {
      id: 'bounces',
      title: 'Bounces',
      description: 'What happens to a contact whose mail bounces or who marks a message as spam.',
      content: () => <BounceSettingsCard />,
    },
  ];

/** /settings: the account's settings, one section each (spec §2 named it; issue 32 fills it). */
export default function SettingsPage() {
  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <PageHeader title="Settings" description="Manage your account settings." />
      <nav aria-label="Settings sections" className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
        {SETTINGS_SECTIONS.map((section) => (
          <a
            key={section.id}
            href={`#${section.id}`}
            className="text-muted-foreground hover:text-foreground underline-offset-4 hover:underline"
          >
            {section.title}
          </a>
        ))}
      </nav>
      {SETTINGS_SECTIONS.map((section) => (
        <section
          key={section.id}
          id={section.id}
          aria-labelledby={`${section.id}-title`}
          className="scroll-mt-20 space-y-3"
        >
          <div className="space-y-1">
            <h2 id={`${section.id}-title`} className="text-lg font-semibold">
              {section.title}
            </h2>
            <p className="text-muted-foreground text-sm">{section.description}</p>
          </div>
          {section.content()}
        </section>
      ))}
      <p className="text-muted-foreground text-sm">
        Your name, company and password are on your{' '}
        <Link href="/profile" className="text-primary underline-offset-4 hover:underline">
          Profile
        </Link>
        .
      </p>
    </div>
  );
}
