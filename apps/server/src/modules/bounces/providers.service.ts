import {
  BOUNCE_PROVIDER_SECRET_RULES,
  BOUNCE_PROVIDERS,
  type BounceProvider,
  type BounceProvidersResponse,
  type BounceVerdictResponse,
  type ProviderWebhookResponse,
} from '@sendwell/contract/bounces';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { openSecret, sealSecret } from '../../lib/secret-box.ts';
import { applyVerdict } from './bounces.service.ts';
import * as repo from './bounces.repo.ts';
import { mailgunReplayToken, readMailgun } from './providers/mailgun.ts';
import { readPostmark } from './providers/postmark.ts';
import { readSendgrid, sendgridPublicKey } from './providers/sendgrid.ts';
import { readSes, type SnsOptions } from './providers/ses.ts';
import { ProviderRejection, type ProviderEvent, type ProviderPost } from './providers/types.ts';

const purposeOf = (provider: BounceProvider) => `bounce-provider:${provider}`;

/** A Mailgun post whose token was seen already (within its signature's window): a replay. */
const MAILGUN_REPLAY = 'This Mailgun post was received already (its signature token was used): a replay is refused';

/** The path of an account's webhook for one provider (its inbound token names the account). */
const providerWebhookPath = (provider: BounceProvider, token: string) => `/api/webhook/bounces/${provider}/${token}`;

/**
 * Each provider, where to point it and whether the account has set it up (secrets are never shown).
 * `token` is the account's inbound webhook token, which names the account in the webhook's path.
 */
export async function providerStatuses(
  db: Db,
  config: Config,
  userId: string,
  token: string,
): Promise<BounceProvidersResponse> {
  const saved = new Map((await repo.findProviderSecrets(db, userId)).map((row) => [row.provider, row]));
  return {
    providers: BOUNCE_PROVIDERS.map((provider) => {
      const row = saved.get(provider);
      return {
        provider,
        label: BOUNCE_PROVIDER_SECRET_RULES[provider].label,
        configured: row !== undefined,
        hint: row?.hint ?? null,
        webhookUrl: `${config.publicUrl}${providerWebhookPath(provider, token)}`,
        updatedAt: row?.updatedAt.toISOString() ?? null,
      };
    }),
  };
}

/** Saves the account's setting for a provider, after checking its shape (and, for SendGrid, that it is a key). */
export async function saveProviderSecret(
  db: Db,
  config: Config,
  userId: string,
  token: string,
  provider: BounceProvider,
  secret: string,
): Promise<BounceProvidersResponse> {
  const rule = BOUNCE_PROVIDER_SECRET_RULES[provider];
  const value = secret.trim();
  if (!rule.pattern.test(value)) throw new AppError('bad_request', rule.message);
  if (provider === 'sendgrid') {
    try {
      sendgridPublicKey(value);
    } catch {
      throw new AppError('bad_request', rule.message);
    }
  }
  await repo.saveProviderSecret(db, {
    userId,
    provider,
    secretSealed: sealSecret(config.sessionSecret, purposeOf(provider), value),
    hint: value.slice(-4),
  });
  return providerStatuses(db, config, userId, token);
}

export async function deleteProviderSecret(
  db: Db,
  config: Config,
  userId: string,
  token: string,
  provider: BounceProvider,
): Promise<BounceProvidersResponse> {
  if (!(await repo.deleteProviderSecret(db, userId, provider)))
    throw new AppError('not_found', `No ${provider} setting is saved`);
  return providerStatuses(db, config, userId, token);
}

async function openedSecret(db: Db, config: Config, userId: string, provider: BounceProvider): Promise<string | null> {
  const row = await repo.findProviderSecret(db, userId, provider);
  if (!row) return null;
  try {
    return openSecret(config.sessionSecret, purposeOf(provider), row.secretSealed);
  } catch {
    // Sealed under another SESSION_SECRET: as good as unset; the account saves it again.
    return null;
  }
}

const defaultFetchText = async (url: string): Promise<string> => {
  const response = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`GET ${url}: ${response.status}`);
  return response.text();
};

/**
 * One post to a provider webhook: the account by its token (401 without), the provider's own
 * signature check with the account's setting (401 when it fails, 400 for a body not in the
 * provider's shape), then each event acted on as a bounce message would be, tied to our send by
 * the Message-ID the provider echoes, else the account's latest send to the recipient.
 */
export async function receiveProviderPost(
  ctx: { db: Db; config: Config; fetchText?: SnsOptions['fetchText'] },
  input: {
    provider: BounceProvider;
    /** The account whose token the webhook's path carried (the route's guard found it). */
    userId: string;
    rawBody: Buffer;
    headers: ProviderPost['headers'];
    now?: Date;
  },
): Promise<ProviderWebhookResponse> {
  const { userId } = input;
  const post: ProviderPost = {
    rawBody: input.rawBody,
    headers: input.headers,
    secret: await openedSecret(ctx.db, ctx.config, userId, input.provider),
    now: input.now ?? new Date(),
  };
  let events: ProviderEvent[];
  try {
    switch (input.provider) {
      case 'mailgun': {
        events = readMailgun(post);
        // Remembered in the database for as long as its signature would pass, so every process refuses a replay.
        const { token, expiresAt } = mailgunReplayToken(post);
        if (!(await repo.rememberWebhookToken(ctx.db, 'mailgun', token, expiresAt, post.now)))
          throw new AppError('conflict', MAILGUN_REPLAY);
        break;
      }
      case 'sendgrid':
        events = readSendgrid(post);
        break;
      case 'postmark':
        events = readPostmark(post);
        break;
      case 'ses': {
        const reading = await readSes(post, {
          trustedOrigin: ctx.config.snsCertOrigin,
          fetchText: ctx.fetchText ?? defaultFetchText,
        });
        if (reading.kind === 'subscribed') return { verdicts: [], subscribed: true };
        events = reading.kind === 'events' ? reading.events : [];
        break;
      }
    }
  } catch (error) {
    if (error instanceof ProviderRejection) throw new AppError(error.status, error.message);
    throw error;
  }
  const verdicts: BounceVerdictResponse[] = [];
  for (const event of events) verdicts.push(await actOn(ctx.db, userId, event));
  return { verdicts };
}

async function actOn(db: Db, userId: string, event: ProviderEvent): Promise<BounceVerdictResponse> {
  const { verdict } = event;
  const send =
    (event.messageId ? await repo.findSendByMessageId(db, userId, event.messageId) : undefined) ??
    (event.recipient ? await repo.findLatestSendToEmail(db, userId, event.recipient) : undefined);
  // A send found by Message-ID must still be to the address the event names (an echo of another message's id changes nothing).
  const matched = send !== undefined && (!event.recipient || send.email.toLowerCase() === event.recipient);
  if (matched && verdict.kind !== 'other') await applyVerdict(db, send, verdict);
  return {
    kind: verdict.kind,
    reason: verdict.kind === 'bounce' ? verdict.reason : null,
    hard: verdict.hard,
    recipient: event.recipient,
    matched: matched && verdict.kind !== 'other',
  };
}
