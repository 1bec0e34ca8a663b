import { z } from 'zod';

/** Where mail goes: the relay at SMTP_URL, or the built-in catcher that stores it for the Outbox page. */
export const mailTransportSchema = z.enum(['smtp', 'catcher']);
export type MailTransport = z.infer<typeof mailTransportSchema>;

/** A message the built-in catcher stored (GET /api/outbox, newest first; total in X-Total-Count). */
export const outboxItemSchema = z.object({
  id: z.number().int(),
  campaignId: z.number().int().nullable(),
  /** The campaign's name now; null for mail not sent by a campaign or whose campaign was deleted. */
  campaignName: z.string().nullable(),
  /** The sequence whose email step sent it: its id and name now, and the step's name as sent; null otherwise or once deleted. */
  sequenceId: z.number().int().nullable(),
  sequenceName: z.string().nullable(),
  sequenceStep: z.string().nullable(),
  messageId: z.string(),
  from: z.string(),
  to: z.string(),
  subject: z.string(),
  isTest: z.boolean(),
  createdAt: z.string(),
});
export type OutboxItem = z.infer<typeof outboxItemSchema>;

/** GET /api/outbox: one page of stored messages, and which transport new mail goes to. */
export const outboxListSchema = z.object({ transport: mailTransportSchema, messages: z.array(outboxItemSchema) });
export type OutboxList = z.infer<typeof outboxListSchema>;

export const OUTBOX_PAGE_SIZE_DEFAULT = 25;
export const OUTBOX_PAGE_SIZE_MAX = 100;

/** GET /api/outbox?search&page&pageSize — search matches sender, recipient or subject (case-insensitive). */
export const outboxQuerySchema = z.object({
  search: z.string().trim().max(200, 'Search must be at most 200 characters').optional(),
  page: z.coerce.number({ error: 'page must be a number' }).int().min(1, 'page must be 1 or more').default(1),
  pageSize: z.coerce
    .number({ error: 'pageSize must be a number' })
    .int()
    .min(1, 'pageSize must be 1 or more')
    .max(OUTBOX_PAGE_SIZE_MAX, `pageSize must be at most ${OUTBOX_PAGE_SIZE_MAX}`)
    .default(OUTBOX_PAGE_SIZE_DEFAULT),
});
export type OutboxQuery = z.input<typeof outboxQuerySchema>;

/**
 * GET /api/outbox/:id: the message as sent. `html` is for viewing: its open pixel is left out and
 * its tracked links point at their destinations, so looking at it records no open or click.
 * `headers` is the header block and `raw` the whole source, both exactly as stored.
 */
export const outboxMessageSchema = outboxItemSchema.extend({
  html: z.string().nullable(),
  text: z.string().nullable(),
  headers: z.string(),
  raw: z.string(),
});
export type OutboxMessage = z.infer<typeof outboxMessageSchema>;
