import { bigserial, index, pgTable, serial, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth.ts';

/** Single addresses an account may send from once it followed the link mailed to each (no domain needed). */
export const senderAddresses = pgTable(
  'sender_addresses',
  {
    id: serial('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Lower-cased. */
    email: text('email').notNull(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    confirmationSentAt: timestamp('confirmation_sent_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('sender_addresses_user_email_idx').on(t.userId, t.email)],
);

/**
 * Every confirmation mail sent to a sender address, kept a day: the hourly limit per account and
 * the per-address wait count from here, so deleting an address and adding it again resets neither.
 */
export const senderConfirmationMails = pgTable(
  'sender_confirmation_mails',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sender_confirmation_mails_user_sent_idx').on(t.userId, t.sentAt)],
);
