import { z } from 'zod';

/** A message the built-in catcher stored (GET /api/outbox, newest first; total in X-Total-Count). */
export const outboxItemSchema = z.object({
  id: z.number().int(),
  campaignId: z.number().int().nullable(),
  messageId: z.string(),
  from: z.string(),
  to: z.string(),
  subject: z.string(),
  isTest: z.boolean(),
  createdAt: z.string(),
});
export type OutboxItem = z.infer<typeof outboxItemSchema>;
export const outboxListSchema = z.object({ transport: z.enum(['smtp', 'catcher']), messages: z.array(outboxItemSchema) });
export const outboxQuerySchema = z.object({
  page: z.coerce.number({ error: 'page must be a number' }).int().min(1, 'page must be 1 or more').default(1),
  pageSize: z.coerce.number({ error: 'pageSize must be a number' }).int().min(1).max(100, 'pageSize must be at most 100').default(25),
});

/** GET /api/outbox/:id: the message as sent, with its parts for viewing. */
export const outboxMessageSchema = outboxItemSchema.extend({ html: z.string().nullable(), text: z.string().nullable(), headers: z.string() });
export type OutboxMessage = z.infer<typeof outboxMessageSchema>;
