import {
  API_KEY_PREFIX,
  type ApiKey,
  type ApiKeyScope,
  type createApiKeyBodySchema,
} from '@sendwell/contract/api-keys';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { newToken, sha256Hex } from '../../lib/tokens.ts';
import { verifiedSendingDomains } from '../domains/index.ts';
import * as repo from './api-keys.repo.ts';

/** What a request made with a key may do: the key, its scope and the one domain it may send from (if limited). */
export type ApiKeyGrant = { id: string; scope: ApiKeyScope; domain: string | null };

/** How many of the secret's characters the list shows: the prefix and four random ones. */
const SHOWN_PREFIX_LENGTH = API_KEY_PREFIX.length + 4;

/** The longest secret looked up: ours are 51 characters; anything far longer is not one. */
const SECRET_MAX_LENGTH = 200;

function toApiKey(row: repo.ApiKeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.secretPrefix,
    scope: row.scope === 'sending' ? 'sending' : 'full',
    domain: row.domain,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * Creates a key and answers its secret, which is not kept (only its SHA-256): 32 random bytes, so
 * the hash needs no slowing down. A domain limit must name one of the account's verified domains.
 */
export async function createApiKey(
  db: DbOrTx,
  userId: string,
  body: z.output<typeof createApiKeyBodySchema>,
): Promise<{ apiKey: ApiKey; secret: string }> {
  if (body.domain !== null && !(await verifiedSendingDomains(db, userId)).includes(body.domain)) {
    throw new AppError('bad_request', 'Choose one of your verified domains', {
      domain: 'Choose one of your verified domains',
    });
  }
  const secret = `${API_KEY_PREFIX}${newToken(32)}`;
  const row = await repo.insertKey(db, {
    userId,
    name: body.name,
    scope: body.scope,
    domain: body.domain,
    secretHash: sha256Hex(secret),
    secretPrefix: secret.slice(0, SHOWN_PREFIX_LENGTH),
  });
  return { apiKey: toApiKey(row), secret };
}

export async function listApiKeys(db: DbOrTx, userId: string): Promise<ApiKey[]> {
  return (await repo.listKeys(db, userId)).map(toApiKey);
}

/** Revokes one of the account's keys; it stops working at once. Another account's id answers 404. */
export async function revokeApiKey(db: DbOrTx, userId: string, id: string): Promise<ApiKey> {
  const row = await repo.revokeKey(db, userId, id, new Date());
  if (!row) throw new AppError('not_found', 'API key not found');
  return toApiKey(row);
}

/** The live key a secret belongs to, with its account, and the use recorded; undefined for anything else. */
export async function authenticateApiKey(db: DbOrTx, secret: string) {
  if (!secret.startsWith(API_KEY_PREFIX) || secret.length > SECRET_MAX_LENGTH) return undefined;
  const found = await repo.findLiveKeyByHash(db, sha256Hex(secret));
  if (!found) return undefined;
  await repo.touchKey(db, found.key.id, new Date());
  const grant: ApiKeyGrant = {
    id: found.key.id,
    scope: found.key.scope === 'sending' ? 'sending' : 'full',
    domain: found.key.domain,
  };
  return { grant, user: found.user };
}

export async function readApiSettings(db: DbOrTx, userId: string) {
  return { requestsPerSecond: await repo.readRequestsPerSecond(db, userId) };
}

export async function writeApiSettings(db: DbOrTx, userId: string, settings: { requestsPerSecond: number }) {
  await repo.writeRequestsPerSecond(db, userId, settings.requestsPerSecond);
  return settings;
}

/**
 * Refuses a send from `fromEmail` by a key limited to another domain (its own domain and its
 * subdomains are allowed). A signed-in person, or a key without a limit, may send from any.
 */
export function assertMaySendFrom(grant: ApiKeyGrant | undefined, fromEmail: string | null | undefined): void {
  if (!grant?.domain) return;
  const fromDomain = (fromEmail ?? '').split('@').pop()?.toLowerCase() ?? '';
  if (fromDomain === grant.domain || fromDomain.endsWith(`.${grant.domain}`)) return;
  throw new AppError('forbidden', `This API key may only send from ${grant.domain}`);
}
