import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Fixed-window request counters of the rate limits, shared by every API process (when there is no REDIS_URL). */
export const rateLimitWindows = pgTable(
  'rate_limit_windows',
  {
    /** The route and the limited key (client address or account), e.g. `POST/api/auth/login:203.0.113.7`. */
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    windowEndsAt: timestamp('window_ends_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limit_windows_window_ends_at_idx').on(t.windowEndsAt)],
);
