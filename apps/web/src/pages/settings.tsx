import * as React from 'react';
import { Link } from 'wouter';

import { PageHeader } from '@/components/page-header';
import { ApiKeysCard } from '@/features/api-keys/components/api-keys-card';
import { TimeZoneCard } from '@/features/auth/components/time-zone-card';
import { BounceSettingsCard } from '@/features/domains/components/bounce-settings-card';
import { InboundWebhookCard } from '@/features/domains/components/inbound-webhook-card';
import { useAuth } from '@/features/auth/api/use-auth';
import { BrandKitCard } from '@/features/campaigns/components/brand-kit-card';
import { SunsetPolicyCard } from '@/features/sunset/components/sunset-policy-card';
import { useSequences } from '@/features/sequences/api/use-sequences';
import { useSenderOverview } from '@/features/sender-addresses/api/use-sender-addresses';
import { useWebhookEndpoints } from '@/features/webhooks/api/use-webhooks';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';

/** The API section: its keys may be limited to one of the account's verified domains. */
function ApiSection() {
  const overview = useSenderOverview(true);
  return <ApiKeysCard verifiedDomains={overview.data?.verifiedDomains ?? []} />;
}

/** The unengaged-contacts section: any of the account's sequences may be its re-engagement sequence. */
function SunsetSection() {
  const sequences = useSequences(true);
  return <SunsetPolicyCard sequences={sequences.data ?? []} />;
}

/** The brand kit section: before the first save its footer offers the account's postal address. */
function BrandKitSection() {
  const { user } = useAuth();
  return <BrandKitCard postalAddress={user?.postalAddress ?? ''} />;
}

/** The Webhooks section: how many endpoints receive events, and the way to the Webhooks page. */
function WebhooksSection() {
  const endpoints = useWebhookEndpoints();
  const list = endpoints.data?.endpoints;
  const enabled = list?.filter((endpoint) => endpoint.status === 'enabled').length ?? 0;
  let summary = 'Loading endpoints…';
  if (endpoints.isError) summary = 'The endpoints could not be loaded.';
  else if (list && list.length === 0) summary = 'No endpoint yet: events go nowhere.';
  else if (list)
    summary = `${list.length} ${list.length === 1 ? 'endpoint' : 'endpoints'}, ${enabled} receiving events.`;
  return (
    <Card>
      <CardContent className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm">{summary}</p>
        <Button asChild variant="outline" size="sm">
          <Link href="/webhooks">Manage webhooks</Link>
        </Button>
      </CardContent>
    </Card>
  );
}

/**
 * The page's sections, in order, each with its own heading and anchor (`/settings#api-keys`): a
 * new kind of account setting adds one entry here.
 */
const SETTINGS_SECTIONS: { id: string; title: string; description: React.ReactNode; content: () => React.ReactNode }[] =
  [
    {
      id: 'time-zone',
      title: 'Time zone',
      description:
        'Scheduled campaigns go out at the time you pick in this zone, and campaign times are shown in it. Each campaign can choose another zone when you schedule it.',
      content: () => <TimeZoneCard />,
    },
    {
      id: 'brand-kit',
      title: 'Brand kit',
      description: 'The look every new campaign starts with: your logo, colours, font and footer.',
      content: () => <BrandKitSection />,
    },
    {
      id: 'api-keys',
      title: 'API',
      description: (
        <>
          Keys for your own code and other services, and how fast each may call. See the{' '}
          <Link href="/settings/api-reference" className="text-primary underline underline-offset-4">
            API reference
          </Link>{' '}
          for the routes and curl examples.
        </>
      ),
      content: () => <ApiSection />,
    },
    {
      id: 'webhooks',
      title: 'Webhooks',
      description:
        'Signed HTTP posts to your endpoints when contacts, campaigns, mail and leads change (Standard Webhooks).',
      content: () => <WebhooksSection />,
    },
    {
      id: 'inbound',
      title: 'Receiving mail',
      description: (
        <>
          Where inbound mail services post the mail your aliases receive. Aliases, forwarding and MX records are in{' '}
          <Link href="/domain-settings?tab=forwarding" className="text-primary underline underline-offset-4">
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
    {
      id: 'sunset',
      title: 'Unengaged contacts',
      description: 'When contacts who stopped reading are no longer mailed, and how they are asked back first.',
      content: () => <SunsetSection />,
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
        <Link href="/profile" className="text-primary underline underline-offset-4">
          Profile
        </Link>
        .
      </p>
    </div>
  );
}
