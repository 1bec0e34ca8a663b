import { useQuery } from '@tanstack/react-query';
import type { SenderOverview } from '@sendwell/contract/sender-addresses';

/**
 * GET /api/sender-addresses (the key Domain Settings and the editor share): its verifiedDomains
 * say whether the account has a domain that passed its DNS checks. Read afresh on each mount, so
 * the step ticks as soon as the user comes back from verifying.
 */
export function useSenderOverviewForSetup(enabled: boolean) {
  return useQuery<SenderOverview>({ queryKey: ['/api/sender-addresses'], enabled, staleTime: 0 });
}
