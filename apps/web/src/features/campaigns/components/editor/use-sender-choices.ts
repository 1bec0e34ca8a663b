import * as React from 'react';
import type { CurrentUser } from '@sendwell/contract/auth';

import { useDomainAliases, useDomains } from '../../api/use-editor-data';
import { defaultSender, isVerifiedSender, senderOptions } from '../../editor/sender-options';

/**
 * The sender addresses the editor offers (the first domain's aliases, else the default names) and,
 * for a draft without a sender, the default one once the domains and aliases are known.
 */
export function useSenderChoices({
  user,
  fromEmail,
  savedFromEmail,
  onDefaultSender,
}: {
  user: CurrentUser;
  /** The draft's sender ('' while none is chosen). */
  fromEmail: string;
  /** The campaign's saved sender, always offered so reopening a draft never changes it. */
  savedFromEmail: string | undefined;
  onDefaultSender: (fromEmail: string) => void;
}) {
  const domains = useDomains(true);
  const firstDomainId = domains.data?.[0]?.id ?? null;
  const aliases = useDomainAliases(firstDomainId);
  const settled = !domains.isLoading && !(firstDomainId !== null && aliases.isLoading);

  const senders = senderOptions({
    domains: domains.data,
    aliases: aliases.data,
    userEmail: user.email,
    keep: fromEmail || savedFromEmail,
  });

  React.useEffect(() => {
    if (fromEmail || !settled) return;
    const fallback = defaultSender(senders);
    if (fallback) onDefaultSender(fallback);
  }, [fromEmail, settled, senders, onDefaultSender]);

  return {
    senders,
    loading: !settled && !fromEmail,
    verified: isVerifiedSender(fromEmail, domains.data),
  };
}
