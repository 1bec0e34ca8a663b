import * as React from 'react';
import {
  ALIAS_TEST_FAILED,
  ALIAS_TEST_FAILED_TITLE,
  FORWARDING_TEST_FAILED,
  FORWARDING_TEST_FAILED_TITLE,
  NO_DESTINATION_SET,
  type EmailAlias,
  type TestForwardingBody,
} from '@sendwell/contract/aliases';

import { getApiErrorMessage } from '@/lib/api';
import { toastError } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';
import { useTestAlias, useTestForwarding } from '../api/use-aliases';
import type { ShownTestResult } from './test-result-dialog';

/** §8: a test of an alias without any destination is refused with 'No Destination Set'. */
function showFailure(error: unknown, address: string, title: string, fallback: string) {
  if (getApiErrorMessage(error) === NO_DESTINATION_SET) {
    toast({
      title: NO_DESTINATION_SET,
      description: `Give ${address} a destination (or a forwarding destination) before testing it.`,
      variant: 'destructive',
    });
    return;
  }
  toastError(error, fallback, { title, serverMessage: 'never' });
}

/**
 * Runs POST /api/test-alias (Basic Aliases) or POST /api/test-forwarding (Advanced Aliases) and
 * keeps the answer to show in the result dialog; failures are the spec's toasts.
 */
export function useAliasTest() {
  const testAlias = useTestAlias();
  const testForwarding = useTestForwarding();
  const [shown, setShown] = React.useState<ShownTestResult | null>(null);

  const runAliasTest = (alias: EmailAlias) =>
    testAlias.mutate(
      { alias: alias.address, destination: alias.destination, aliasId: alias.id },
      {
        onSuccess: (result) => setShown({ address: alias.address, result }),
        onError: (error) => showFailure(error, alias.address, ALIAS_TEST_FAILED_TITLE, ALIAS_TEST_FAILED),
      },
    );

  const runForwardingTest = (body: TestForwardingBody, onDone?: () => void) =>
    testForwarding.mutate(body, {
      onSuccess: (result) => {
        onDone?.();
        setShown({ address: body.alias, result });
      },
      onError: (error) => showFailure(error, body.alias, FORWARDING_TEST_FAILED_TITLE, FORWARDING_TEST_FAILED),
    });

  return {
    runAliasTest,
    runForwardingTest,
    /** The alias id a test is running for, so only its button shows the spinner. */
    testingId: testAlias.isPending ? (testAlias.variables?.aliasId ?? null) : null,
    forwardingPending: testForwarding.isPending,
    shown,
    close: () => setShown(null),
  };
}
