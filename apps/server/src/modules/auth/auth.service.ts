import type { z } from 'zod';
import {
  EMAIL_TAKEN,
  INVALID_CREDENTIALS,
  PASSWORD_TOO_COMMON,
  RESET_LINK_INVALID,
  type CurrentUser,
  type changePasswordBodySchema,
  type loginBodySchema,
  type setupUnlimitedBodySchema,
  type signupBodySchema,
  type updateProfileBodySchema,
} from '@sendwell/contract/auth';
import { planIdSchema, subscriptionStatusSchema } from '@sendwell/contract/billing';
import { isTimeZone } from '@sendwell/contract/time-zones';
import type { AppContext } from '../../context.ts';
import type { TransactionalResult } from '../../lib/mail-transport.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { AppError, RetryLaterError } from '../../lib/app-error.ts';
import {
  CONFIRMATION_LINK_TTL_MS,
  CONFIRMATION_RESEND_WAIT_MS,
  checkedName,
  confirmationMail,
  installationSender,
  type LinkState,
} from '../../lib/confirmation-link.ts';
import { readExpiringToken, signExpiringToken } from '../../lib/expiring-token.ts';
import { hashPassword, isCommonPassword, verifyPassword } from '../../lib/passwords.ts';
import { newTemporaryPassword, newToken, sha256Hex } from '../../lib/tokens.ts';
import { withinLimit } from '../rate-limits/index.ts';
import * as repo from './auth.repo.ts';
import type { SessionCompanion } from './session-companion.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
export const SESSION_IDLE_MS = 30 * DAY_MS;
/** However active, a session ends this long after sign-in: a stolen cookie does not last for ever. */
const SESSION_LIFETIME_MS = 90 * DAY_MS;
/** A live session's expiry is pushed forward at most once a minute, not on every request. */
const SESSION_TOUCH_INTERVAL_MS = 60 * 1000;
/**
 * Sign-in pacing per account and client address: 5 attempts at once, then 30 s before the next,
 * doubling to at most 15 minutes; forgotten after a day without attempts; a success clears it.
 */
export const LOGIN_PACING: repo.LoginPacing = {
  freeAttempts: 5,
  firstDelayMs: 30 * 1000,
  maxDelayMs: 15 * 60 * 1000,
  memoryMs: DAY_MS,
};
const TEMPORARY_PASSWORD_TTL_MS = 60 * 60 * 1000;
const TRIAL_MS = 14 * DAY_MS;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What a session records of the browser that opened it. */
export type SessionMeta = { ip: string | null; userAgent: string | null };
/** Who is signing in: the session's meta and the client address sign-in pacing is keyed by. */
export type RequestMeta = SessionMeta & { client: string };
export type { UserRow } from './auth.repo.ts';
export type NewSession = { token: string; user: repo.UserRow };

/** The session's view of a user, as GET /api/auth/user answers it. */
export function toCurrentUser(row: repo.UserRow): CurrentUser {
  const plan = planIdSchema.safeParse(row.plan);
  const status = subscriptionStatusSchema.safeParse(row.subscriptionStatus);
  return {
    id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    company: row.company,
    postalAddress: row.postalAddress,
    profileImageUrl: row.profileImageUrl,
    passwordChangeRequired: row.passwordChangeRequired,
    plan: plan.success ? plan.data : 'starter',
    subscriptionStatus: status.success ? status.data : null,
    trialEndsAt: row.trialEndsAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    emailConfirmedAt: row.emailConfirmedAt?.toISOString() ?? null,
    timeZone: row.timeZone,
  };
}

async function openSession(db: Db, userId: string, meta: SessionMeta): Promise<string> {
  const token = newToken();
  await repo.insertSession(db, {
    id: sha256Hex(token),
    userId,
    expiresAt: new Date(Date.now() + SESSION_IDLE_MS),
    userAgent: meta.userAgent?.slice(0, 300) ?? null,
    ip: meta.ip,
  });
  return token;
}

/** Refuses a password from the common-password list, on the form field that carried it. */
function refuseCommonPassword(password: string, field: 'password' | 'newPassword'): void {
  if (isCommonPassword(password))
    throw new AppError('bad_request', PASSWORD_TOO_COMMON, { [field]: PASSWORD_TOO_COMMON });
}

/**
 * Creates the account on a 14-day trial of the chosen plan and signs it in. Its address is not
 * confirmed yet: the sign-up route mails the link (sendSignupConfirmation).
 */
export async function signUp(db: Db, body: z.output<typeof signupBodySchema>, meta: SessionMeta): Promise<NewSession> {
  refuseCommonPassword(body.password, 'password');
  const user = await repo.insertUser(db, {
    email: body.email,
    passwordHash: await hashPassword(body.password),
    firstName: body.firstName,
    lastName: body.lastName,
    company: body.company,
    // The browser's zone when this server knows it; an unknown one is no reason to refuse a sign-up.
    timeZone: body.timeZone && isTimeZone(body.timeZone) ? body.timeZone : 'UTC',
    plan: body.plan,
    subscriptionStatus: 'trialing',
    trialEndsAt: new Date(Date.now() + TRIAL_MS),
  });
  if (!user) throw new AppError('conflict', EMAIL_TAKEN);
  return { user, token: await openSession(db, user.id, meta) };
}

/** A wait as the sign-in answer words it: seconds under a minute, else whole minutes (rounded up). */
function describeWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/**
 * Checks the credentials. Unknown emails, wrong passwords and expired temporary passwords get
 * the same answer after the same hashing work. Each attempt is claimed (counted) for the email and
 * client address before the password is checked, so concurrent guesses cannot outrun the count;
 * past LOGIN_PACING's free attempts the next one waits (429 with Retry-After). Another address,
 * the owner's, is not slowed by these failures, and a success at this address clears them.
 */
async function checkCredentials(
  db: Db,
  body: z.output<typeof loginBodySchema>,
  meta: RequestMeta,
): Promise<repo.UserRow> {
  const claim = await repo.claimLoginAttempt(db, body.email, meta.client, LOGIN_PACING);
  if (!claim.allowed) {
    const seconds = Math.max(1, Math.ceil(claim.waitMs / 1000));
    throw new RetryLaterError(`Too many attempts. Try again in ${describeWait(seconds)}.`, seconds);
  }
  const user = await repo.findUserByEmail(db, body.email);
  const passwordOk = await verifyPassword(user?.passwordHash, body.password);
  const temporaryExpired =
    user?.temporaryPasswordExpiresAt != null && user.temporaryPasswordExpiresAt.getTime() <= Date.now();
  if (!user || !passwordOk || temporaryExpired) throw new AppError('unauthorized', INVALID_CREDENTIALS);
  await repo.clearLoginAttempts(db, body.email, meta.client);
  return user;
}

/** Signs in with email and password (see checkCredentials), under a brand-new session id. */
export async function logIn(db: Db, body: z.output<typeof loginBodySchema>, meta: RequestMeta): Promise<NewSession> {
  const user = await checkCredentials(db, body, meta);
  return { user, token: await openSession(db, user.id, meta) };
}

export async function logOut(db: Db, token: string | undefined): Promise<void> {
  if (token) await repo.deleteSession(db, sha256Hex(token));
}

export type SignedIn = { user: repo.UserRow; sessionId: string; refreshed: boolean };

/** The signed-in user behind a cookie token, sliding the 30-day idle expiry forward (within the 90-day lifetime). */
export async function resolveSession(db: Db, token: string | undefined): Promise<SignedIn | null> {
  return (await resolveSessionAsking(db, token, () => null))?.signedIn ?? null;
}

/** A companion question for one session (see SessionCompanion), or null to ask nothing. */
export type AskAlongSession = (
  sessionId: string,
) => { question: SessionCompanion; values: Record<string, unknown> } | null;

/**
 * Resolves the session as resolveSession does, and answers the question `ask` puts for it in the
 * same statement (answer undefined when nothing was asked).
 */
export async function resolveSessionAsking(
  db: Db,
  token: string | undefined,
  ask: AskAlongSession,
): Promise<{ signedIn: SignedIn; answer: boolean | undefined } | null> {
  if (!token || token.length > 100) return null;
  const sessionId = sha256Hex(token);
  const now = new Date();
  const companion = ask(sessionId);
  const bornAfter = new Date(now.getTime() - SESSION_LIFETIME_MS);
  const found = await repo.findLiveSession(db, sessionId, now, bornAfter, companion ?? undefined);
  if (!found) return null;
  const refreshed = now.getTime() - found.lastSeenAt.getTime() > SESSION_TOUCH_INTERVAL_MS;
  if (refreshed) {
    await repo.touchSession(db, sessionId, now, new Date(now.getTime() + SESSION_IDLE_MS), SESSION_LIFETIME_MS);
  }
  return {
    signedIn: { user: found.user, sessionId, refreshed },
    answer: companion ? found.answer === true : undefined,
  };
}

/**
 * Sets a new password and ends the user's other sessions. Outside a forced change the current
 * password must be given, so a borrowed session cannot lock the owner out.
 */
export async function changePassword(
  db: Db,
  signedIn: SignedIn,
  body: z.output<typeof changePasswordBodySchema>,
): Promise<void> {
  const { user } = signedIn;
  if (!user.passwordChangeRequired) {
    if (!body.currentPassword) {
      throw new AppError('bad_request', 'Please enter your current password', {
        currentPassword: 'Please enter your current password',
      });
    }
    if (!(await verifyPassword(user.passwordHash, body.currentPassword))) {
      throw new AppError('bad_request', 'Current password is incorrect', {
        currentPassword: 'Current password is incorrect',
      });
    }
  }
  refuseCommonPassword(body.newPassword, 'newPassword');
  await db.transaction(async (tx) => {
    await repo.updateUser(tx, user.id, {
      passwordHash: await hashPassword(body.newPassword),
      passwordChangeRequired: false,
      temporaryPasswordExpiresAt: null,
    });
    await repo.deleteOtherSessions(tx, user.id, signedIn.sessionId);
  });
}

export async function updateProfile(
  db: Db,
  userId: string,
  body: z.output<typeof updateProfileBodySchema>,
): Promise<repo.UserRow> {
  const row = await repo.updateUser(db, userId, body);
  if (!row) throw new AppError('not_found', 'User not found');
  return row;
}

/**
 * Replaces the account's password with a temporary one valid for an hour and requires a change
 * at next sign-in; existing sessions end. Used by `npm run admin -- reset-password`.
 */
export async function issueTemporaryPassword(db: Db, email: string): Promise<{ password: string; expiresAt: Date }> {
  const user = await repo.findUserByEmail(db, email.trim().toLowerCase());
  if (!user) throw new AppError('not_found', `No account with the email ${email}`);
  const password = newTemporaryPassword();
  const expiresAt = new Date(Date.now() + TEMPORARY_PASSWORD_TTL_MS);
  await db.transaction(async (tx) => {
    await repo.updateUser(tx, user.id, {
      passwordHash: await hashPassword(password),
      passwordChangeRequired: true,
      temporaryPasswordExpiresAt: expiresAt,
    });
    await repo.deleteOtherSessions(tx, user.id, null);
    await repo.clearLoginAttempts(tx, user.email);
  });
  return { password, expiresAt };
}

/**
 * Grants the unlimited plan to an account that proves its credentials (paced like sign-in; an
 * unknown email and a wrong password get the same answer) and is entitled: on the server's
 * UNLIMITED_EMAILS list, or granted with `npm run admin -- grant-unlimited EMAIL`. Nobody else can
 * obtain it this way, and a refusal changes nothing.
 */
export async function activateUnlimited(
  db: Db,
  unlimitedEmails: string[],
  body: z.output<typeof setupUnlimitedBodySchema>,
  meta: RequestMeta,
): Promise<{ success: boolean; message: string; token?: string }> {
  let user: repo.UserRow;
  try {
    user = await checkCredentials(db, body, meta);
  } catch (error) {
    if (error instanceof AppError && error.code === 'unauthorized')
      return { success: false, message: 'Invalid credentials' };
    throw error;
  }
  if (!unlimitedEmails.includes(user.email) && !user.unlimitedGrantedAt) {
    return { success: false, message: 'This account is not entitled to the Unlimited plan' };
  }
  await repo.updateUser(db, user.id, { plan: 'unlimited', subscriptionStatus: 'active', trialEndsAt: null });
  // The credentials were just proven, so the activation also signs the user in ('Go to Dashboard').
  return { success: true, message: 'Unlimited plan activated', token: await openSession(db, user.id, meta) };
}

/**
 * Entitles an account to activate the Unlimited plan at /unlimited-setup (the admin command
 * `grant-unlimited`); the owner still proves the credentials there. 404 for an unknown email.
 */
export async function grantUnlimited(db: Db, email: string, now: Date = new Date()): Promise<void> {
  const user = await repo.findUserByEmail(db, email.trim().toLowerCase());
  if (!user) throw new AppError('not_found', `No account with the email ${email}`);
  if (!user.unlimitedGrantedAt) await repo.updateUser(db, user.id, { unlimitedGrantedAt: now });
}

/** Removes expired sessions and sign-in pacing nobody has used for LOGIN_PACING.memoryMs (hourly job). */
export async function cleanUpAuthRows(db: Db): Promise<void> {
  await repo.deleteExpiredAuthRows(db, new Date(), new Date(Date.now() - LOGIN_PACING.memoryMs));
}

/** The account with this id, for other modules (which never read the users table themselves). */
export function userById(db: DbOrTx, id: string): Promise<repo.UserRow | undefined> {
  return repo.findUserById(db, id);
}

/** What a send, a test send or a new sender address meets while the account's own address is unconfirmed (403). */
export function accountUnconfirmedMessage(email: string): string {
  return `Confirm your email address before sending: click the link we emailed to ${email}, or choose Resend link in the banner at the top of the page.`;
}

/** Refuses (403) to send anything for an account whose own address is not confirmed yet. */
export function requireConfirmedAccount(user: Pick<repo.UserRow, 'email' | 'emailConfirmedAt'>): void {
  if (!user.emailConfirmedAt) throw new AppError('forbidden', accountUnconfirmedMessage(user.email));
}

/** The link that confirms the account's own address: it names the account and the address, and expires. */
export function accountConfirmationLink(
  config: AppContext['config'],
  user: Pick<repo.UserRow, 'id' | 'email'>,
  now = new Date(),
): string {
  const token = signExpiringToken(
    config.sessionSecret,
    'account-email',
    `${user.id}:${user.email}`,
    new Date(now.getTime() + CONFIRMATION_LINK_TTL_MS),
  );
  return `${config.publicUrl}/confirm-email?token=${token}`;
}

/**
 * "Hello Ada, <sentence>" when the first name is a plain name (checkedName), else the sentence alone:
 * a sign-up can put any address in its form, so the mail repeats nothing else the person typed.
 */
function greeted(firstName: string, sentence: string): string {
  const name = checkedName(firstName);
  return name ? `Hello ${name}, ${sentence}` : sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

/** Mails the confirmation link to the account's own address (through the mailer: DKIM, suppression, Outbox). */
async function mailAccountConfirmation(ctx: AppContext, user: repo.UserRow): Promise<TransactionalResult> {
  const { html, text } = confirmationMail({
    heading: 'Confirm your email address',
    paragraphs: [
      greeted(user.firstName, 'thanks for signing up for Sendwell.'),
      `Confirm that ${user.email} is your address to start sending campaigns. Until then you can build everything, but nothing is sent.`,
    ],
    link: accountConfirmationLink(ctx.config, user),
    buttonLabel: 'Confirm my email address',
    footnote:
      'The link works for 48 hours, while you are signed in to Sendwell. If you did not sign up, ignore this email: nothing will be sent from this address.',
  });
  return ctx.mailer.sendTransactional({
    userId: user.id,
    from: installationSender(ctx.config),
    to: user.email,
    subject: 'Confirm your email address',
    html,
    text,
  });
}

/**
 * Mails the first confirmation link after sign-up. A failure to send is logged, never the sign-up's
 * failure: the account exists, and the banner's Resend link sends another.
 */
export async function sendSignupConfirmation(
  ctx: AppContext,
  user: repo.UserRow,
  logError: (error: unknown) => void,
): Promise<void> {
  try {
    await repo.updateUser(ctx.db, user.id, { emailConfirmationSentAt: new Date() });
    await mailAccountConfirmation(ctx, user);
  } catch (error) {
    logError(error);
  }
}

/**
 * POST /api/auth/resend-confirmation: another link, at most one a minute (429 sooner; 409 once
 * confirmed). The wait is claimed in one conditional UPDATE, so two requests at once send one mail.
 */
export async function resendAccountConfirmation(ctx: AppContext, user: repo.UserRow): Promise<void> {
  if (user.emailConfirmedAt) throw new AppError('conflict', 'Your email address is already confirmed.');
  const now = new Date();
  const claimed = await repo.claimConfirmationSend(
    ctx.db,
    user.id,
    now,
    new Date(now.getTime() - CONFIRMATION_RESEND_WAIT_MS),
  );
  if (!claimed) {
    const fresh = await repo.findUserById(ctx.db, user.id);
    if (fresh?.emailConfirmedAt) throw new AppError('conflict', 'Your email address is already confirmed.');
    const sentAt = fresh?.emailConfirmationSentAt?.getTime() ?? now.getTime();
    const seconds = Math.max(1, Math.ceil((sentAt + CONFIRMATION_RESEND_WAIT_MS - now.getTime()) / 1000));
    throw new AppError(
      'rate_limited',
      `We sent a link less than a minute ago. Check your inbox (and spam folder), or try again in ${seconds} seconds.`,
    );
  }
  let result: TransactionalResult;
  try {
    result = await mailAccountConfirmation(ctx, claimed);
  } catch (error) {
    throw new AppError(
      'bad_request',
      `The mail server did not accept the confirmation email: ${(error as Error).message}`,
    );
  }
  if (result.status === 'suppressed') {
    throw new AppError(
      'bad_request',
      `${user.email} is on your suppression list (unsubscribed, bounced or complained), so no link was sent to it.`,
    );
  }
}

/**
 * What the account confirmation link in `token` is for whoever opened it (`signedIn`, or null), and,
 * when `confirm` is set and the link is ready, confirms the address. Only the owner, signed in, can
 * confirm: whoever else receives the mail (a typo'd address, someone signed up as them) cannot.
 */
export async function accountConfirmation(
  db: Db,
  secret: string,
  token: string,
  signedIn: repo.UserRow | null,
  confirm: boolean,
): Promise<{ state: LinkState; email: string | null }> {
  const read = readExpiringToken(secret, 'account-email', token);
  if (read.status === 'invalid') return { state: 'invalid', email: null };
  const colon = read.subject.indexOf(':');
  const ownerId = read.subject.slice(0, colon);
  // Only this secret signs tokens, so the id is one it wrote; checked anyway before it reaches a uuid column.
  const owner = UUID.test(ownerId) ? await repo.findUserById(db, ownerId) : undefined;
  if (!owner || owner.email !== read.subject.slice(colon + 1)) return { state: 'invalid', email: null };
  if (read.status === 'expired') return { state: 'expired', email: owner.email };
  if (!signedIn) return { state: 'sign-in', email: owner.email };
  if (signedIn.id !== owner.id) return { state: 'other-account', email: owner.email };
  if (owner.emailConfirmedAt) return { state: 'already', email: owner.email };
  if (!confirm) return { state: 'ready', email: owner.email };
  await repo.confirmEmail(db, owner.id, new Date());
  return { state: 'confirmed', email: owner.email };
}

/** How long a password-reset link works. */
const PASSWORD_RESET_TTL_MS = 60 * 60 * 1000;
/** Reset mails one address may get per hour (more requests get the same answer and no mail). */
const RESET_MAILS_PER_HOUR = 3;

/**
 * What a reset token names: the account and a fingerprint of its password hash. Setting a new
 * password changes the hash (a fresh salt every time), so a used link stops working: single use
 * without a stored token, like the confirmation links (lib/expiring-token.ts).
 */
function resetSubject(user: Pick<repo.UserRow, 'id' | 'passwordHash'>): string {
  return `${user.id}:${sha256Hex(user.passwordHash).slice(0, 32)}`;
}

/** The link mailed to reset a password. */
function passwordResetLink(
  config: AppContext['config'],
  user: Pick<repo.UserRow, 'id' | 'passwordHash'>,
  now = new Date(),
): string {
  const token = signExpiringToken(
    config.sessionSecret,
    'password-reset',
    resetSubject(user),
    new Date(now.getTime() + PASSWORD_RESET_TTL_MS),
  );
  return `${config.publicUrl}/reset-password?token=${token}`;
}

/**
 * POST /api/auth/forgot-password: mails a reset link when an account has this address and it has
 * had fewer than 3 this hour. The caller answers the same either way (no way to learn who has an
 * account); a failure to send is logged, not answered, for the same reason.
 */
export async function requestPasswordReset(
  ctx: AppContext,
  email: string,
  onSendError: (error: unknown) => void,
): Promise<void> {
  const user = await repo.findUserByEmail(ctx.db, email);
  if (!user) return;
  if (!(await withinLimit(ctx.db, `password-reset:${user.id}`, RESET_MAILS_PER_HOUR, 60 * 60 * 1000))) return;
  const { html, text } = confirmationMail({
    heading: 'Choose a new password',
    paragraphs: [
      greeted(
        user.firstName,
        `someone (we hope you) asked to reset the password of the Sendwell account ${user.email}.`,
      ),
      'Follow the link to choose a new one. It signs you out everywhere else.',
    ],
    link: passwordResetLink(ctx.config, user),
    buttonLabel: 'Choose a new password',
    footnote:
      'The link works once, for one hour. If you did not ask for it, ignore this email: your password stays as it is.',
  });
  try {
    await ctx.mailer.sendTransactional({
      userId: user.id,
      from: installationSender(ctx.config),
      to: user.email,
      subject: 'Reset your Sendwell password',
      html,
      text,
    });
  } catch (error) {
    onSendError(error);
  }
}

/**
 * POST /api/auth/reset-password: sets the new password when the token is valid, unexpired and its
 * password unchanged since it was mailed; ends every session of the account. 400 otherwise.
 */
export async function resetPassword(db: Db, secret: string, body: { token: string; password: string }): Promise<void> {
  const read = readExpiringToken(secret, 'password-reset', body.token);
  const invalid = () => new AppError('bad_request', RESET_LINK_INVALID, { token: RESET_LINK_INVALID });
  if (read.status !== 'valid') throw invalid();
  const userId = read.subject.slice(0, read.subject.indexOf(':'));
  const user = userId ? await repo.findUserById(db, userId) : undefined;
  if (!user || resetSubject(user) !== read.subject) throw invalid();
  refuseCommonPassword(body.password, 'password');
  const newHash = await hashPassword(body.password);
  await db.transaction(async (tx) => {
    if (!(await repo.replacePasswordHash(tx, user.id, user.passwordHash, newHash))) throw invalid();
    await repo.deleteOtherSessions(tx, user.id, null);
  });
}
