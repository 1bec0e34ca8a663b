import { formSubmissionSchema, type FormSubmission } from '@sendwell/contract/leads';
import type { AppContext } from '../../context.ts';
import type { Config } from '../../config.ts';
import type { DbOrTx } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import {
  CONFIRMATION_LINK_TTL_MS,
  checkedName,
  confirmationMail,
  installationSender,
} from '../../lib/confirmation-link.ts';
import { readExpiringToken, signExpiringToken } from '../../lib/expiring-token.ts';
import { userById } from '../auth/index.ts';
import { notifyUser } from '../notifications/index.ts';
import { countHit } from '../rate-limits/index.ts';
import { addressSummary, checkAddress, mxCacheFor } from './address-checks.ts';
import * as repo from './leads.repo.ts';
import type { LeadConsentRecord } from './leads.repo.ts';
import { scoreLead } from './leads.scoring.ts';
import { recordWebhookEvent } from '../webhooks/index.ts';

/** The settings a form source keeps (see createLeadSource). */
type FormSettings = { version: number; consentText: string; doubleOptIn: boolean };

/** A hosted form as its public page shows it. */
export type PublicForm = { slug: string; name: string; consentText: string; doubleOptIn: boolean };

export const FORM_NOT_FOUND = 'This form does not exist or is closed';

/** The longest business name a form page and its opt-in mail show (in characters). */
const BUSINESS_NAME_MAX = 80;
/** Letters, digits, spaces and the marks of company names ('Bloom & Co.', "O'Hara's"); no '/', ':', '@'. */
const PLAIN_BUSINESS_NAME = /^[\p{L}\p{M}\p{N}](?:[\p{L}\p{M}\p{N} &'’.,-]*[\p{L}\p{M}\p{N}.])?$/u;

/**
 * The name a hosted form and its opt-in mail present (issue 34): the business name the account set
 * (its company), else its owner's plain name; never the source's name, which is the account's own
 * label for it. A name that could read as an address or a link ('shop.example', a dot before a
 * letter) is not repeated to strangers: the owner's name stands in, else null.
 */
function formBusinessName(owner: { company: string; firstName: string; lastName: string }): string | null {
  const company = owner.company.trim().replace(/\s+/g, ' ');
  const plain =
    company !== '' &&
    [...company].length <= BUSINESS_NAME_MAX &&
    PLAIN_BUSINESS_NAME.test(company) &&
    !/\.[\p{L}\p{N}]/u.test(company);
  return plain ? company : checkedName(owner.firstName, owner.lastName);
}

/** A form as its pages show it, named by its account's business. */
async function formView(
  db: DbOrTx,
  source: repo.LeadSourceRow & { slug: string },
  consentText: string,
): Promise<PublicForm> {
  const owner = await userById(db, source.userId);
  const settings = source.settings as FormSettings;
  return {
    slug: source.slug,
    name: (owner && formBusinessName(owner)) ?? 'our mailing list',
    consentText,
    doubleOptIn: settings.doubleOptIn,
  };
}

/** The active form at /f/:slug, or 404. */
export async function publicForm(db: DbOrTx, slug: string): Promise<{ source: repo.LeadSourceRow; form: PublicForm }> {
  const source = await repo.findFormBySlug(db, slug);
  if (!source || !source.isActive || !source.slug) throw new AppError('not_found', FORM_NOT_FOUND);
  const slugged = { ...source, slug: source.slug };
  return { source, form: await formView(db, slugged, (source.settings as FormSettings).consentText) };
}

/** What a submission came to: refused fields, a mail to confirm, a lead stored, or a bot quietly ignored. */
export type SubmitOutcome =
  | { kind: 'invalid'; form: PublicForm; fields: Record<string, string>; values: Record<string, string> }
  | { kind: 'check-inbox'; form: PublicForm; email: string }
  | { kind: 'subscribed'; form: PublicForm }
  // The form's account has not confirmed its own address: no confirmation mail leaves for it (403).
  | { kind: 'unconfirmed-account'; form: PublicForm }
  // The form's hourly or the account's daily double opt-in cap is reached: nothing stored (429).
  | { kind: 'capped'; form: PublicForm };

/** What a hosted form of an unconfirmed account says instead of sending a confirmation mail. */
export const FORM_ACCOUNT_UNCONFIRMED =
  'This form cannot send confirmation emails yet: its owner has not confirmed their own email address. Nothing was stored; please try again later.';
/** What a hosted form says once its double opt-in cap (or its account's) is reached. */
export const FORM_CAPPED =
  'This form has sent as many confirmation emails as it may for now. Nothing was stored; please try again later.';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Counts one double opt-in mail against the form's hourly cap and its account's daily cap, each
 * in the statement that takes it (rate-limits' window rows), and answers whether it may go. The
 * first refusal of a window notifies the account (one notification per cap and window).
 */
async function withinConfirmationCaps(ctx: AppContext, source: repo.LeadSourceRow): Promise<boolean> {
  const caps = ctx.config.leadFormConfirmationCaps;
  const formHits = await countHit(ctx.db, `lead-form-confirmations:${source.id}`, HOUR_MS);
  if (formHits > caps.perFormHour) {
    if (formHits === caps.perFormHour + 1)
      await notifyUser(ctx.db, source.userId, {
        title: `Form "${source.name}" reached its limit`,
        body: `It sent ${caps.perFormHour} confirmation emails within an hour, its limit. Until the hour is over it answers new sign-ups that it cannot take them now, and stores nothing.`,
        link: '/leads',
      });
    return false;
  }
  const accountHits = await countHit(ctx.db, `lead-form-confirmations-account:${source.userId}`, DAY_MS);
  if (accountHits > caps.perAccountDay) {
    if (accountHits === caps.perAccountDay + 1)
      await notifyUser(ctx.db, source.userId, {
        title: 'Your forms reached their daily limit',
        body: `Your hosted forms sent ${caps.perAccountDay} confirmation emails within a day, the account's limit. Until the day is over they answer new sign-ups that they cannot take them now, and store nothing.`,
        link: '/leads',
      });
    return false;
  }
  return true;
}

/** The link in a form's confirmation mail: it names the submission and its address, and expires. */
export function formConfirmationLink(
  config: Config,
  slug: string,
  submission: Pick<repo.FormSubmissionRow, 'id' | 'email'>,
  now = new Date(),
): string {
  const token = signExpiringToken(
    config.sessionSecret,
    'lead-form',
    `${submission.id}:${submission.email}`,
    new Date(now.getTime() + CONFIRMATION_LINK_TTL_MS),
  );
  return `${config.publicUrl}/f/${slug}/confirm?token=${token}`;
}

/**
 * Stores the lead of a form (or attaches the consent record to the lead with that email) and
 * answers its id. The consent record names the time, IP, form version and exact consent text.
 */
async function storeFormLead(
  db: DbOrTx,
  dnsServers: readonly string[],
  source: repo.LeadSourceRow,
  person: { email: string; firstName: string; lastName: string; company: string | null },
  consent: LeadConsentRecord,
): Promise<number> {
  const existing = await repo.findLeadByEmail(db, source.userId, person.email);
  if (existing) {
    const updated = await repo.updateLead(db, source.userId, existing.id, { consent });
    return updated?.id ?? existing.id;
  }
  // Only the person's fields: `person` may be a whole submission row (its id is not the lead's).
  const fields = {
    email: person.email,
    firstName: person.firstName,
    lastName: person.lastName,
    company: person.company,
    jobTitle: null,
    location: null,
    phone: null,
    website: null,
  };
  const address = await checkAddress(person.email, mxCacheFor(dnsServers));
  const inserted = await repo.insertLead(db, {
    ...fields,
    userId: source.userId,
    sourceId: source.id,
    score: scoreLead({ ...fields, source: consent.confirmedAt ? 'form-confirmed' : 'form', address }),
    status: 'new',
    metadata: {
      source: source.name,
      foundAt: consent.confirmedAt ?? consent.submittedAt,
      address: addressSummary(address),
    },
    consent,
    lawfulBasis: 'consent',
  });
  if (inserted)
    await recordWebhookEvent(db, source.userId, 'lead.created', {
      id: inserted.id,
      email: inserted.email,
      sourceId: source.id,
    });
  if (inserted) return inserted.id;
  // Another submission stored the same address a moment ago: attach to that lead.
  const raced = await repo.findLeadByEmail(db, source.userId, person.email);
  if (!raced) throw new Error('lead vanished between insert and read');
  await repo.updateLead(db, source.userId, raced.id, { consent });
  return raced.id;
}

/**
 * POST /f/:slug. A filled honeypot answers like success and stores nothing (a bot learns nothing).
 * With double opt-in (the default) the submission waits and its confirmation mail is queued
 * (`enqueueMail`, the leads.form-confirmation job); the lead exists only once the link is followed.
 * Without it, the lead is stored now.
 */
export async function submitForm(
  ctx: AppContext,
  slug: string,
  body: Record<string, unknown>,
  ip: string | null,
  enqueueMail: (submissionId: number) => Promise<void>,
  now = new Date(),
): Promise<SubmitOutcome> {
  const { source, form } = await publicForm(ctx.db, slug);
  const parsed = formSubmissionSchema.safeParse(body);
  const values = Object.fromEntries(
    ['email', 'firstName', 'lastName', 'company'].map((key) => [key, typeof body[key] === 'string' ? body[key] : '']),
  );
  if (typeof body.website === 'string' && body.website.trim() !== '') {
    return form.doubleOptIn ? { kind: 'check-inbox', form, email: values.email ?? '' } : { kind: 'subscribed', form };
  }
  if (!parsed.success) {
    const fields: Record<string, string> = {};
    for (const issue of parsed.error.issues) fields[String(issue.path[0] ?? 'form')] ??= issue.message;
    return { kind: 'invalid', form, fields, values };
  }
  const person: FormSubmission = parsed.data;
  const settings = source.settings as FormSettings;
  if (!settings.doubleOptIn) {
    await storeFormLead(ctx.db, ctx.config.dnsServers, source, person, {
      submittedAt: now.toISOString(),
      ip,
      formVersion: settings.version,
      text: settings.consentText,
      confirmedAt: null,
    });
    return { kind: 'subscribed', form };
  }
  // Our mail to a stranger needs an account that proved its own address, and stays within the caps.
  const owner = await userById(ctx.db, source.userId);
  if (!owner?.emailConfirmedAt) return { kind: 'unconfirmed-account', form };
  if (!(await withinConfirmationCaps(ctx, source))) return { kind: 'capped', form };
  const submission = await repo.insertSubmission(ctx.db, {
    userId: source.userId,
    sourceId: source.id,
    email: person.email,
    firstName: person.firstName,
    lastName: person.lastName,
    company: person.company,
    ip,
    formVersion: settings.version,
    consentText: settings.consentText,
    submittedAt: now,
  });
  await enqueueMail(submission.id);
  return { kind: 'check-inbox', form, email: person.email };
}

/**
 * The leads.form-confirmation job: mails a submission its double opt-in link, once (the claim on
 * mailed_at makes a retried job a no-op; a mail lost to a crash between claim and send is not resent).
 */
export async function mailFormConfirmation(ctx: AppContext, submissionId: number, now = new Date()): Promise<void> {
  const submission = await repo.claimSubmissionMail(ctx.db, submissionId, now);
  if (!submission) return;
  const source = await repo.findSource(ctx.db, submission.userId, submission.sourceId);
  if (!source?.slug) return;
  const owner = await userById(ctx.db, source.userId);
  if (!owner?.emailConfirmedAt) return;
  // The mail repeats nothing the account typed but its business name when it is a plain one; the
  // consent text is on the page the link opens, not in mail to an address that has not confirmed.
  const formName = formBusinessName(owner);
  const { html, text } = confirmationMail({
    heading: 'Confirm your subscription',
    paragraphs: [
      `You (or someone using your address) signed up to ${formName ? `"${formName}"` : 'a mailing list'} with ${submission.email}, on a form hosted by Sendwell.`,
      'The link shows what you agreed to and asks you to confirm.',
    ],
    link: formConfirmationLink(ctx.config, source.slug, submission, now),
    buttonLabel: 'Yes, subscribe me',
    footnote: 'The link works for 48 hours. If you did not sign up, ignore this email: you will not be added.',
  });
  // A suppressed address (unsubscribed, bounced or complained before) gets no mail: sendTransactional says so and sends nothing.
  await ctx.mailer.sendTransactional({
    userId: source.userId,
    // Sent by the installation, in the business's name: the person signed up to it, not to Sendwell.
    from: { ...installationSender(ctx.config), ...(formName ? { name: formName } : {}) },
    to: submission.email,
    subject: formName ? `Confirm your subscription to ${formName}` : 'Confirm your subscription',
    html,
    text,
  });
}

/** Where a form confirmation link stands. */
export type FormLinkState = 'ready' | 'confirmed' | 'already' | 'expired' | 'invalid';

/**
 * What the link in `token` is for; when `confirm` is set and it is ready, stores the lead with its
 * consent record (confirmed now). Runs in one transaction with the submission locked, so two
 * clicks store one lead.
 */
export async function confirmFormSubmission(
  ctx: AppContext,
  slug: string,
  token: string,
  confirm: boolean,
  now = new Date(),
): Promise<{ state: FormLinkState; email: string | null; form: PublicForm | null }> {
  const read = readExpiringToken(ctx.config.sessionSecret, 'lead-form', token, now);
  if (read.status === 'invalid') return { state: 'invalid', email: null, form: null };
  const colon = read.subject.indexOf(':');
  const id = Number(read.subject.slice(0, colon));
  if (!Number.isSafeInteger(id) || id <= 0) return { state: 'invalid', email: null, form: null };
  return ctx.db.transaction(async (tx) => {
    const submission = await repo.lockSubmission(tx, id);
    const source = submission ? await repo.findSource(tx, submission.userId, submission.sourceId) : undefined;
    if (!submission || !source || source.slug !== slug || submission.email !== read.subject.slice(colon + 1)) {
      return { state: 'invalid' as const, email: null, form: null };
    }
    const form = await formView(tx, { ...source, slug }, submission.consentText);
    if (submission.confirmedAt) return { state: 'already' as const, email: submission.email, form };
    if (read.status === 'expired') return { state: 'expired' as const, email: submission.email, form };
    if (!confirm) return { state: 'ready' as const, email: submission.email, form };
    const leadId = await storeFormLead(tx, ctx.config.dnsServers, source, submission, {
      submittedAt: submission.submittedAt.toISOString(),
      ip: submission.ip,
      formVersion: submission.formVersion,
      text: submission.consentText,
      confirmedAt: now.toISOString(),
    });
    await repo.markSubmissionConfirmed(tx, submission.id, now, leadId);
    return { state: 'confirmed' as const, email: submission.email, form };
  });
}
