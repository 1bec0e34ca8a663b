import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth.ts';

/**
 * An account's API keys. The secret is shown once, at creation; only its SHA-256 is kept (the
 * secret is 32 random bytes, so no slow hash is needed), with its first characters so a person can
 * tell keys apart. Revoking stamps revokedAt: the row stays for the list's history.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** SHA-256 (hex) of the whole secret, `sw_live_…`. */
    secretHash: text('secret_hash').notNull().unique(),
    /** The secret's first characters (`sw_live_ab12`), shown in the list. */
    secretPrefix: text('secret_prefix').notNull(),
    /** 'full' (every program route) or 'sending' (sending routes only). */
    scope: text('scope').notNull(),
    /** A sending key limited to one of the account's domains sends only from addresses there. */
    domain: text('domain'),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('api_keys_user_id_idx').on(t.userId)],
);

/**
 * The answers of POST requests made with a key and an `Idempotency-Key` header, kept 24 hours, so a
 * program retrying a request gets the first answer instead of doing it twice. A row without a status
 * is a request still running.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** SHA-256 of the method, path and body: the same key with another request is refused. */
    requestHash: text('request_hash').notNull(),
    responseStatus: integer('response_status'),
    responseType: text('response_type'),
    responseBody: text('response_body'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index('idempotency_keys_created_at_idx').on(t.createdAt)],
);
