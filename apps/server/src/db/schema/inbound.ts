import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
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
