import * as React from 'react';
import { FlaskConical, Send, Trash2 } from 'lucide-react';
import type { EmailAlias } from '@sendwell/contract/aliases';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { FORWARDING_TYPE_LABELS } from '../alias-display';
import { AliasStatusBadge } from './alias-badges';
import { AliasSettingsForm } from './alias-settings-form';
import { AnalyticsTab } from './analytics-tab';
import { DestinationsTab } from './destinations-tab';
import { ForwardingRulesTab } from './forwarding-rules-tab';
import { TestForwardingDialog } from './test-forwarding-dialog';
import { TestResultDialog } from './test-result-dialog';
import { useAliasActions } from './use-alias-actions';
import { useAliasTest } from './use-alias-test';

/** The selected alias: its header (address, badge, Test, Delete) and its four tabs. */
export function AliasDetail({
  alias,
  accountEmail,
  onDelete,
}: {
  alias: EmailAlias;
  accountEmail: string;
  onDelete: () => void;
}) {
  const test = useAliasTest();
  const actions = useAliasActions();
  const [testing, setTesting] = React.useState(false);
  const awaitingLink = alias.destination !== null && alias.destinationConfirmed === false;

  return (
    <Card>
      <CardHeader className="gap-3">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
          <div className="min-w-0 space-y-1">
            <CardTitle>
              <h2 className="flex flex-wrap items-center gap-2">
                <span className="font-mono break-all">{alias.address}</span>
                <AliasStatusBadge alias={alias} />
              </h2>
            </CardTitle>
            <CardDescription>{alias.description ?? FORWARDING_TYPE_LABELS[alias.forwardingType].hint}</CardDescription>
          </div>
          <div className="flex shrink-0 gap-2">
            <Button size="sm" variant="outline" onClick={() => setTesting(true)}>
              <FlaskConical aria-hidden="true" />
              Test
            </Button>
            <Button
              size="sm"
              variant="ghost"
              onClick={onDelete}
              aria-label={`Delete ${alias.address}`}
              title={`Delete ${alias.address}`}
            >
              <Trash2 aria-hidden="true" />
            </Button>
          </div>
        </div>
        {awaitingLink && (
          <div className="flex flex-col gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 sm:flex-row sm:items-center dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100">
            <p className="flex-1">Pending: {alias.destination} has not followed its confirmation link yet.</p>
            <Button
              size="sm"
              variant="outline"
              onClick={() => actions.resendConfirmation(alias)}
              disabled={actions.resendingId === alias.id}
            >
              <Send aria-hidden="true" />
              Resend confirmation
            </Button>
          </div>
        )}
      </CardHeader>
      <CardContent>
        <Tabs defaultValue="overview" className="gap-4">
          <div className="-mx-1 overflow-x-auto px-1 pb-1">
            <TabsList>
              <TabsTrigger value="overview">Overview</TabsTrigger>
              <TabsTrigger value="rules">Forwarding Rules</TabsTrigger>
              <TabsTrigger value="destinations">Destinations</TabsTrigger>
              <TabsTrigger value="analytics">Analytics</TabsTrigger>
            </TabsList>
          </div>
          <TabsContent value="overview">
            <AliasSettingsForm key={alias.id} alias={alias} idPrefix={`alias-${alias.id}`} />
          </TabsContent>
          <TabsContent value="rules">
            <ForwardingRulesTab alias={alias} />
          </TabsContent>
          <TabsContent value="destinations">
            <DestinationsTab alias={alias} />
          </TabsContent>
          <TabsContent value="analytics">
            <AnalyticsTab alias={alias} />
          </TabsContent>
        </Tabs>
      </CardContent>
      <TestForwardingDialog
        alias={alias}
        accountEmail={accountEmail}
        open={testing}
        pending={test.forwardingPending}
        onOpenChange={setTesting}
        onRun={(body) => test.runForwardingTest(body, () => setTesting(false))}
      />
      <TestResultDialog shown={test.shown} onClose={test.close} />
    </Card>
  );
}
