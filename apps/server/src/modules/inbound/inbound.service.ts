import { INBOUND_WEBHOOK_PATH } from '@sendwell/contract/domains';
import type { InboundAddress } from '@sendwell/contract/inbound';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { openSecret, sealSecret } from '../../lib/secret-box.ts';
import { newToken, sha256Hex } from '../../lib/tokens.ts';
import * as repo from './inbound.repo.ts';

/** secret-box purpose of the sealed copies of inbound tokens. */
const TOKEN_PURPOSE = 'inbound-webhook-token';
/** What newToken() makes (base64url); anything else is no token of ours and is not looked up. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{20,100}$/;

/**
 * The account an inbound webhook token belongs to, or null: the one place a presented token is
 * checked (the webhook's guard uses it; so can any other inbound route). Tokens are looked up by
 * their SHA-256, like session tokens: a 256-bit random value needs no constant-time comparison.
 */
export async function accountOfInboundToken(db: Db, token: string): Promise<string | null> {
  if (!TOKEN_SHAPE.test(token)) return null;
  return (await repo.findInboundTokenOwner(db, sha256Hex(token))) ?? null;
}

function addressFor(config: Config, token: string): InboundAddress {
  return { url: `${config.publicUrl}${INBOUND_WEBHOOK_PATH}?token=${token}`, token };
}

function sealedToken(config: Config, userId: string, token: string) {
  return { userId, tokenHash: sha256Hex(token), tokenSealed: sealSecret(config.sessionSecret, TOKEN_PURPOSE, token) };
}

/**
 * The account's inbound webhook address, its token made on first use. A token sealed under another
 * SESSION_SECRET cannot be shown again, so it is replaced (the old address stops working).
 */
export async function inboundAddressOf(db: Db, config: Config, userId: string): Promise<InboundAddress> {
  const stored = await repo.findInboundToken(db, userId);
  if (stored) {
    try {
      return addressFor(config, openSecret(config.sessionSecret, TOKEN_PURPOSE, stored.tokenSealed));
    } catch {
      return regenerateInboundAddress(db, config, userId);
    }
  }
  const token = newToken();
  // Two first requests at once: the one that stored its token first wins, and the other shows that one.
  if (await repo.insertInboundToken(db, sealedToken(config, userId, token))) return addressFor(config, token);
  return inboundAddressOf(db, config, userId);
}

/** Gives the account a new inbound token; the old address stops working at once. */
export async function regenerateInboundAddress(db: Db, config: Config, userId: string): Promise<InboundAddress> {
  const token = newToken();
  await repo.replaceInboundToken(db, sealedToken(config, userId, token));
  return addressFor(config, token);
}
