import type { ImapFlow } from 'imapflow';
import { INBOUND_MAX_BYTES } from '@sendwell/contract/aliases';
import type { BounceMailboxStatus } from '@sendwell/contract/bounces';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { handleBounceMessage } from './bounces.service.ts';
import * as repo from './bounces.repo.ts';

/** The IMAP keyword a processed message gets before it is moved: a message still carrying it is never read again. */
export const PROCESSED_KEYWORD = '$SendwellProcessed';
/** Messages read per poll; the rest wait for the next one. */
const POLL_LIMIT = 200;

type MailboxSettings = NonNullable<Config['bounceImap']>;

/** How the mailbox is named on screen and in its status row: user@host/mailbox (never the password). */
const mailboxLabel = (settings: MailboxSettings) => `${settings.user}@${settings.host}/${settings.mailbox}`;

export type PollResult = { processed: number };

/**
 * One poll of the bounce mailbox (BOUNCE_IMAP_URL): every message in it that does not carry
 * PROCESSED_KEYWORD is classified and handed to bounce handling (tied to its send by the VERP return
 * path it was delivered to: Delivered-To, X-Original-To, To), then flagged (\Seen and the keyword)
 * and moved to the processed folder. A message is flagged only after it was handled, so a crash in
 * between reads it again at the next poll, and bounce handling counts a repeat for the same send
 * once; a flagged message that could not be moved is skipped by the search. The outcome (or the
 * failure, in words) is recorded for the Domain Settings page.
 */
export async function pollBounceMailbox(ctx: { db: Db; config: Config }, now: Date = new Date()): Promise<PollResult> {
  const settings = ctx.config.bounceImap;
  if (!settings) return { processed: 0 };
  const label = mailboxLabel(settings);
  // Loaded at the first poll, not at start: only an installation with BOUNCE_IMAP_URL reads a mailbox.
  const { ImapFlow } = await import('imapflow');
  const client = new ImapFlow({
    host: settings.host,
    port: settings.port,
    secure: settings.secure,
    auth: { user: settings.user, pass: settings.password },
    logger: false,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
    disableAutoIdle: true,
  });
  // An error event after a failed command would otherwise be unhandled; the command's own error is what counts.
  client.on('error', () => undefined);
  let processed = 0;
  try {
    await client.connect();
    await ensureMailbox(client, settings.processedMailbox);
    const lock = await client.getMailboxLock(settings.mailbox);
    try {
      const found = await client.search({ unKeyword: PROCESSED_KEYWORD }, { uid: true });
      const uids = (found || []).slice(0, POLL_LIMIT);
      for (const uid of uids) {
        const message = await client.fetchOne(String(uid), { uid: true, size: true, source: true }, { uid: true });
        // Too big to be a bounce we can read (or gone meanwhile): set aside unread, so it is not fetched forever.
        if (message && message.source && (message.size ?? message.source.length) <= INBOUND_MAX_BYTES)
          await handleBounceMessage(ctx, { raw: message.source });
        await client.messageFlagsAdd(String(uid), ['\\Seen', PROCESSED_KEYWORD], { uid: true });
        await client.messageMove(String(uid), settings.processedMailbox, { uid: true });
        processed += 1;
      }
    } finally {
      lock.release();
    }
    await client.logout();
    await repo.recordMailboxPoll(ctx.db, { mailbox: label, at: now, error: null, processed });
    return { processed };
  } catch (error) {
    client.close();
    await repo.recordMailboxPoll(ctx.db, { mailbox: label, at: now, error: describeFailure(error), processed });
    throw error;
  }
}

async function ensureMailbox(client: ImapFlow, path: string): Promise<void> {
  const existing = await client.list();
  if (existing.some((entry) => entry.path === path)) return;
  await client.mailboxCreate(path);
}

/** A failure as a person can act on it (imapflow's errors carry the server's words and a code). */
function describeFailure(error: unknown): string {
  const details = error as {
    authenticationFailed?: boolean;
    serverResponseCode?: string;
    code?: string;
    responseText?: string;
    message?: string;
  };
  if (details.authenticationFailed && details.serverResponseCode === 'UNAVAILABLE')
    return 'The mail server could not check the login just now (a temporary failure on its side).';
  if (details.authenticationFailed) return 'The mailbox refused the user name or password in BOUNCE_IMAP_URL.';
  if (details.code === 'ECONNREFUSED') return 'The mail server refused the connection (check the host and port).';
  if (details.code === 'ENOTFOUND') return 'The mail server’s host name does not resolve.';
  if (details.code === 'ETIMEDOUT' || details.code === 'CONNECT_TIMEOUT' || details.code === 'GREETING_TIMEOUT')
    return 'The mail server did not answer in time.';
  const words = details.responseText ?? details.message ?? String(error);
  return `The mailbox could not be read: ${words}`.slice(0, 500);
}

/** The bounce mailbox as the Domain Settings page shows it. */
export async function bounceMailboxStatusOf(db: Db, config: Config): Promise<BounceMailboxStatus> {
  const settings = config.bounceImap;
  if (!settings)
    return {
      status: 'not_configured',
      mailbox: null,
      lastPolledAt: null,
      lastSuccessAt: null,
      error: null,
      processedCount: 0,
    };
  const label = mailboxLabel(settings);
  const row = await repo.findMailboxStatus(db, label);
  return {
    status: !row ? 'waiting' : row.error ? 'failing' : 'ok',
    mailbox: label,
    lastPolledAt: row?.lastPolledAt.toISOString() ?? null,
    lastSuccessAt: row?.lastSuccessAt?.toISOString() ?? null,
    error: row?.error ?? null,
    processedCount: row?.processedCount ?? 0,
  };
}
