import type { SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * A yes/no question about the session's user that a caller asks in the same statement as the
 * session lookup, so a request needing both makes one round trip instead of two. `condition` is
 * SQL over the session's user id column, with named placeholders whose values come with each call;
 * `name` names the prepared statement, so each companion needs its own.
 */
export type SessionCompanion = { name: string; condition: (sessionUserId: AnyPgColumn) => SQL };
