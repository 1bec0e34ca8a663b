import { MAX_SENDER_ADDRESSES, type SenderAddress, type SenderOverview } from '@sendwell/contract/sender-addresses';
import type { AppContext } from '../../context.ts';
import type { Config } from '../../config.ts';
import type { DbOrTx } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import {
  CONFIRMATION_LINK_TTL_MS,
  CONFIRMATION_RESEND_WAIT_MS,
  checkedName,
  confirmationMail,
  installationSender,
  type LinkState,
} from '../../lib/confirmation-link.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { readExpiringToken, signExpiringToken } from '../../lib/expiring-token.ts';
import { accountUnconfirmedMessage, requireConfirmedAccount, type UserRow } from '../auth/index.ts';
import { domainStandingFor, verifiedSendingDomains } from '../domains/index.ts';
import * as repo from './sender-addresses.repo.ts';

const ADDRESS_NOT_FOUND = 'Sender address not found';
/** Confirmation mails an account may send to sender addresses in an hour (each goes to someone else's mailbox). */
export const CONFIRMATION_MAILS_PER_HOUR = 10;
const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** What a sender check needs of the account. */
export type SenderAccount = Pick<UserRow, 'id' | 'email' | 'emailConfirmedAt'>;

/** Why the account may send from an address: one of its verified domains, or the address itself confirmed. */
export type SenderProof = { kind: 'domain'; domain: string } | { kind: 'address' };

function toSenderAddress(row: repo.SenderAddressRow): SenderAddress {
  return {
    id: row.id,
    email: row.email,
    status: row.confirmedAt ? 'confirmed' : 'pending',
    createdAt: row.createdAt.toISOString(),
    confirmedAt: row.confirmedAt?.toISOString() ?? null,
    confirmationSentAt: row.confirmationSentAt?.toISOString() ?? null,
  };
}

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1);

/**
 * Whether the account may put `fromEmail` in a campaign's From, and why; otherwise a 403 that says
 * how to get there. Allowed: any address at one of its verified domains (or a subdomain of one),
 * its own address once confirmed, and each sender address it confirmed by the mailed link. When
 * saving ('save'), the account's own address passes before it is confirmed, so a new account can
 * build its first campaign; sending needs the confirmation (requireConfirmedAccount says so first).
 * 403 rather than 422: the address is well-formed, the account has not proven it may use it.
 */
export async function checkSender(
  db: DbOrTx,
  account: SenderAccount,
  fromEmail: string,
  use: 'save' | 'send',
): Promise<SenderProof> {
  const email = fromEmail.trim().toLowerCase();
  const domain = domainOf(email);
  const standing = await domainStandingFor(db, account.id, domain);
  if (standing?.status === 'verified') return { kind: 'domain', domain: standing.domain };
  if (email === account.email) {
    if (account.emailConfirmedAt || use === 'save') return { kind: 'address' };
    throw new AppError('forbidden', accountUnconfirmedMessage(account.email));
  }
  const address = await repo.findAddressByEmail(db, account.id, email);
  if (address?.confirmedAt) return { kind: 'address' };
  const refuse = (message: string) => new AppError('forbidden', message, { fromEmail: message });
  if (address) {
    throw refuse(
      `${email} is not confirmed yet: click the link we emailed to it. Domain Settings → Sender Addresses can send the link again.`,
    );
  }
  if (standing) {
    throw refuse(
      `Verify ${standing.domain} in Domain Settings before sending from it: publish its DKIM record and press Verify. Or add ${email} under Domain Settings → Sender Addresses and confirm it.`,
    );
  }
  throw refuse(
    `You cannot send from ${email}: it is not on a domain you have verified or an address you have confirmed. Add and verify ${domain} in Domain Settings, or add ${email} under Domain Settings → Sender Addresses and click the link we email to it.`,
  );
}

/** The addresses (not domains) the account has proven it owns: its own once confirmed, and its confirmed sender addresses. */
export async function confirmedAddressesOf(db: DbOrTx, account: SenderAccount): Promise<string[]> {
  const addresses = await repo.confirmedEmails(db, account.id);
  return account.emailConfirmedAt ? [account.email, ...addresses] : addresses;
}

/** GET /api/sender-addresses: what the account may send from, and its addresses still pending. */
export async function senderOverview(db: DbOrTx, account: SenderAccount): Promise<SenderOverview> {
  return {
    accountEmail: { email: account.email, confirmed: account.emailConfirmedAt !== null },
    verifiedDomains: await verifiedSendingDomains(db, account.id),
    addresses: (await repo.listAddresses(db, account.id)).map(toSenderAddress),
  };
}

/** The link that confirms a sender address: it names the row and its address, and expires. */
export function senderConfirmationLink(
  config: Config,
  row: Pick<repo.SenderAddressRow, 'id' | 'email'>,
  now = new Date(),
): string {
  const token = signExpiringToken(
    config.sessionSecret,
    'sender-address',
    `${row.id}:${row.email}`,
    new Date(now.getTime() + CONFIRMATION_LINK_TTL_MS),
  );
  return `${config.publicUrl}/confirm-sender?token=${token}`;
}

/**
 * Takes a turn to mail a confirmation to `email`: at most one a minute per address and
 * CONFIRMATION_MAILS_PER_HOUR per account (429 with the wait otherwise), counted with the account's
 * row locked and logged in the same transaction. `inTurn` runs in that transaction too.
 */
async function takeConfirmationTurn<T>(
  ctx: AppContext,
  userId: string,
  email: string,
  inTurn: (tx: DbOrTx) => Promise<T>,
): Promise<T> {
  const now = new Date();
  return ctx.db.transaction(async (tx) => {
    await repo.lockAccount(tx, userId);
    const sent = await repo.confirmationMailsSince(tx, userId, email, new Date(now.getTime() - HOUR_MS));
    if (sent.lastToEmail && sent.lastToEmail.getTime() > now.getTime() - CONFIRMATION_RESEND_WAIT_MS) {
      const seconds = Math.max(
        1,
        Math.ceil((sent.lastToEmail.getTime() + CONFIRMATION_RESEND_WAIT_MS - now.getTime()) / 1000),
      );
      throw new AppError(
        'rate_limited',
        `We sent a link to ${email} less than a minute ago. Check that inbox (and its spam folder), or try again in ${seconds} seconds.`,
      );
    }
    if (sent.count >= CONFIRMATION_MAILS_PER_HOUR) {
      const minutes = Math.max(
        1,
        Math.ceil(((sent.oldest?.getTime() ?? now.getTime()) + HOUR_MS - now.getTime()) / 60000),
      );
      throw new AppError(
        'rate_limited',
        `You can send ${CONFIRMATION_MAILS_PER_HOUR} confirmation links an hour. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      );
    }
    const result = await inTurn(tx);
    await repo.logConfirmationMail(tx, userId, email, now, new Date(now.getTime() - DAY_MS));
    return result;
  });
}

/**
 * Who asked, as the mail to the new sender address says it: the account's plain name (checkedName)
 * and its own confirmed address, which this mail needs (requireConfirmedAccount); nothing else typed.
 */
function requesterOf(account: UserRow): string {
  const name = checkedName(account.firstName, account.lastName);
  return name ? `${name} (${account.email})` : `The Sendwell account ${account.email}`;
}

/** Mails the confirmation link of a sender address and records when it went. */
async function mailSenderConfirmation(
  ctx: AppContext,
  account: UserRow,
  row: repo.SenderAddressRow,
): Promise<repo.SenderAddressRow> {
  const { html, text } = confirmationMail({
    heading: 'Confirm a sender address',
    paragraphs: [
      `${requesterOf(account)} asked to send email campaigns from ${row.email} with Sendwell.`,
      'If that is you, confirm below while signed in to that Sendwell account. Until then, nothing is sent from this address.',
    ],
    link: senderConfirmationLink(ctx.config, row),
    buttonLabel: 'Confirm this sender address',
    footnote:
      'The link works for 48 hours, and only for the account that asked. If you did not ask for this, ignore this email: nobody can send from your address without confirming it.',
  });
  let result;
  try {
    result = await ctx.mailer.sendTransactional({
      userId: account.id,
      from: installationSender(ctx.config),
      to: row.email,
      subject: `Confirm ${row.email} as a sender address`,
      html,
      text,
    });
  } catch (error) {
    throw new AppError(
      'bad_request',
      `The mail server did not accept the confirmation for ${row.email}: ${(error as Error).message}`,
    );
  }
  if (result.status === 'suppressed') {
    throw new AppError(
      'bad_request',
      `${row.email} is on your suppression list (unsubscribed, bounced or complained), so no confirmation was sent to it.`,
    );
  }
  return (await repo.setConfirmationSentAt(ctx.db, row.id, new Date())) ?? row;
}

/**
 * POST /api/sender-addresses: adds a pending address and mails it the link that confirms it. Only
 * a confirmed account may (403), and only for an address that needs it (409 for its own address,
 * an address already added, or one on a domain it verified); at most MAX_SENDER_ADDRESSES (403).
 */
export async function addSenderAddress(ctx: AppContext, account: UserRow, email: string): Promise<SenderAddress> {
  requireConfirmedAccount(account);
  if (email === account.email) {
    throw new AppError('conflict', `${email} is your account's own address: you can send from it already.`);
  }
  const standing = await domainStandingFor(ctx.db, account.id, domainOf(email));
  if (standing?.status === 'verified') {
    throw new AppError(
      'conflict',
      `${email} is on ${standing.domain}, which you have verified: you can send from any address there without confirming it.`,
    );
  }
  if (await repo.findAddressByEmail(ctx.db, account.id, email)) {
    throw new AppError('conflict', `${email} is already one of your sender addresses.`);
  }
  if ((await repo.countAddresses(ctx.db, account.id)) >= MAX_SENDER_ADDRESSES) {
    throw new AppError(
      'forbidden',
      `You can keep ${MAX_SENDER_ADDRESSES} sender addresses. Remove one to add another, or verify a domain to send from any address on it.`,
    );
  }
  let row: repo.SenderAddressRow;
  try {
    row = await takeConfirmationTurn(ctx, account.id, email, (tx) => repo.insertAddress(tx, account.id, email));
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('conflict', `${email} is already one of your sender addresses.`);
    throw error;
  }
  return toSenderAddress(await mailSenderConfirmation(ctx, account, row));
}

/** POST /api/sender-addresses/:id/resend: another link to a pending address (409 once confirmed; 429 too soon). */
export async function resendSenderConfirmation(ctx: AppContext, account: UserRow, id: number): Promise<SenderAddress> {
  requireConfirmedAccount(account);
  const row = await repo.findAddress(ctx.db, account.id, id);
  if (!row) throw new AppError('not_found', ADDRESS_NOT_FOUND);
  if (row.confirmedAt) throw new AppError('conflict', `${row.email} is already confirmed.`);
  await takeConfirmationTurn(ctx, account.id, row.email, async () => undefined);
  return toSenderAddress(await mailSenderConfirmation(ctx, account, row));
}

/** DELETE /api/sender-addresses/:id. Drafts that use it keep it, and are refused at their next save or send. */
export async function deleteSenderAddress(db: DbOrTx, userId: string, id: number): Promise<void> {
  if (!(await repo.deleteAddress(db, userId, id))) throw new AppError('not_found', ADDRESS_NOT_FOUND);
}

/**
 * What the sender confirmation link in `token` is for whoever opened it (`signedInUserId`, or null),
 * and, when `confirm` is set and the link is ready, confirms the address. Only the account that
 * added the address, signed in, can confirm it: the person who owns the mailbox but not the
 * account (someone else's CEO clicking a link out of curiosity) cannot.
 */
export async function senderConfirmation(
  db: DbOrTx,
  secret: string,
  token: string,
  signedInUserId: string | null,
  confirm: boolean,
): Promise<{ state: LinkState; email: string | null }> {
  const read = readExpiringToken(secret, 'sender-address', token);
  if (read.status === 'invalid') return { state: 'invalid', email: null };
  const colon = read.subject.indexOf(':');
  const id = Number(read.subject.slice(0, colon));
  const row = Number.isSafeInteger(id) && id > 0 ? await repo.findAddressById(db, id) : undefined;
  if (!row || row.email !== read.subject.slice(colon + 1)) return { state: 'invalid', email: null };
  if (read.status === 'expired') return { state: 'expired', email: row.email };
  if (!signedInUserId) return { state: 'sign-in', email: row.email };
  if (signedInUserId !== row.userId) return { state: 'other-account', email: row.email };
  if (row.confirmedAt) return { state: 'already', email: row.email };
  if (!confirm) return { state: 'ready', email: row.email };
  await repo.markConfirmed(db, row.id, new Date());
  return { state: 'confirmed', email: row.email };
}
