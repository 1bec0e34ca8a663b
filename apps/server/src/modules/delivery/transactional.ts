import type { Mailer, TransactionalMessage, TransactionalResult, Transport } from '../../lib/mail-transport.ts';
import { buildRawMessage, newMessageId, signDkim } from './message.ts';
import { returnPathFor } from './return-path.ts';

export type DkimKey = { domainName: string; keySelector: string; privateKey: string };

/** What single messages need besides the transport: the sender's DKIM key and the suppression list. */
export type TransactionalDeps = {
  transport: Transport;
  /** The installation's own mail domain (MAIL_FROM_DOMAIN): the envelope of mail no verified domain of the user signs. */
  installationDomain: string;
  /** The key to sign with: the user's verified domain's for the From domain, else the installation's own, if any. */
  signingKeyFor(userId: string, fromDomain: string): Promise<DkimKey | null>;
  /** Whether the user's suppression list holds the address (unsubscribed, bounced, complained). */
  isSuppressed(userId: string, email: string): Promise<boolean>;
};

/**
 * Sends one message (a test mail, a confirmation link, a notification) the way campaign messages
 * go: built by the same code, DKIM-signed with the user's domain key, never to a suppressed
 * address, and through the same transport (so the Outbox shows it when no relay is set).
 * Transport errors are the caller's (a TransportError).
 */
async function sendTransactional(deps: TransactionalDeps, message: TransactionalMessage): Promise<TransactionalResult> {
  if (await deps.isSuppressed(message.userId, message.to)) return { status: 'suppressed' };
  const isTest = message.isTest ?? false;
  const messageId = newMessageId(message.from.address);
  const unsigned = buildRawMessage({
    from: message.from,
    to: message.to,
    replyTo: message.replyTo ?? null,
    subject: message.subject,
    html: message.html,
    text: message.text,
    messageId,
    unsubscribeUrl: message.unsubscribeUrl ?? null,
    isTest,
  });
  const key = await deps.signingKeyFor(message.userId, message.from.address.split('@')[1] ?? '');
  await deps.transport.send({
    userId: message.userId,
    campaignId: message.campaignId ?? null,
    messageId,
    returnPath: returnPathFor({ signingDomain: key?.domainName ?? null, installationDomain: deps.installationDomain }),
    from: message.from.address,
    to: message.to,
    subject: isTest ? `[Test] ${message.subject}` : message.subject,
    raw: key ? await signDkim(unsigned, key) : unsigned,
    isTest,
  });
  return { status: 'sent', messageId };
}

/** The Mailer the app's modules are given (createAppContext binds it). */
export function mailer(deps: TransactionalDeps): Mailer {
  return { sendTransactional: (message) => sendTransactional(deps, message) };
}
