import { index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth.ts';

/**
 * Each account's secret for the inbound webhook (POST /api/webhook/email): the webhook finds the
 * account by it, and touches only that account's messages, contacts and campaigns.
 */
export const inboundTokens = pgTable('inbound_tokens', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** SHA-256 (hex) of the token: what a presented token is looked up by, so a leaked table is no token. */
  tokenHash: text('token_hash').notNull().unique(),
  /** The token sealed with lib/secret-box.ts (a key derived from SESSION_SECRET), so the Email Forwarding tab can show it again. */
  tokenSealed: text('token_sealed').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Signature tokens of provider webhook posts seen within their signature's window (Mailgun's
 * `signature.token`): a post whose token is here is a replay and answers 409. In the database so
 * that every API process sees the same set; rows past `expires_at` are deleted as new ones arrive.
 */
export const webhookReplayTokens = pgTable(
  'webhook_replay_tokens',
  {
    provider: text('provider').notNull(),
    token: text('token').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.token] }), index('webhook_replay_tokens_expires_idx').on(t.expiresAt)],
);
