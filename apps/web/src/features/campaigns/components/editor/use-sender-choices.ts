import * as React from 'react';

import { useDomains, useSenderOverview, useVerifiedDomainAliases } from '../../api/use-editor-data';
import { defaultSender, hasProvenSender, senderChoices, senderStanding } from '../../editor/sender-options';

/**
 * The sender addresses the editor offers (exactly those the account may send from: see
 * senderChoices) and, for a draft without a sender, the default one once they are known. `refresh`
 * reads them again (the select does when it opens, so an address confirmed in another tab appears).
 */
export function useSenderChoices({
  fromEmail,
  onDefaultSender,
}: {
  /** The draft's sender ('' while none is chosen). */
  fromEmail: string;
  onDefaultSender: (fromEmail: string) => void;
}) {
  const overview = useSenderOverview(true);
  const domains = useDomains(true);
  const aliases = useVerifiedDomainAliases(domains.data);
  const settled = !overview.isLoading && !domains.isLoading && !aliases.isLoading;

  const choices = senderChoices({ overview: overview.data, aliasesByDomain: aliases.byDomain });

  React.useEffect(() => {
    if (fromEmail || !settled) return;
    const fallback = defaultSender(choices);
    if (fallback) onDefaultSender(fallback);
  }, [fromEmail, settled, choices, onDefaultSender]);

  return {
    choices,
    loading: !settled && !fromEmail,
    standing: senderStanding(fromEmail, overview.data),
    /** The sender overview has loaded, so `standing` is known (it reads 'unproven' before). */
    overviewLoaded: overview.data !== undefined,
    proven: hasProvenSender(choices),
    refresh: () => void overview.refetch(),
  };
}
