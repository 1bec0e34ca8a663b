import { z } from 'zod';

/** Every event an endpoint can receive (Standard Webhooks `type`), in the order the screen lists them. */
export const WEBHOOK_EVENT_TYPES = [
  'contact.created',
  'contact.updated',
  'contact.unsubscribed',
  'campaign.sent',
  'email.delivered',
  'email.opened',
  'email.clicked',
  'email.bounced',
  'email.complained',
  'lead.created',
  'sequence.completed',
  'inbound.received',
] as const;
export const webhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES, { error: 'Choose a known event type' });
export type WebhookEventType = z.infer<typeof webhookEventTypeSchema>;

/** The event a "Send test event" posts; no filter excludes it. */
export const WEBHOOK_TEST_EVENT_TYPE = 'webhook.test';

/** Endpoints one account may keep. */
export const MAX_WEBHOOK_ENDPOINTS = 20;
/** The largest event body sent (bytes of JSON): larger objects are sent by id. */
export const MAX_WEBHOOK_PAYLOAD_BYTES = 20_000;
/** The most of a receiver's answer that is kept in the delivery log (bytes). */
export const WEBHOOK_RESPONSE_SNIPPET_BYTES = 1024;

const urlField = z
  .string({ error: 'URL is required' })
  .trim()
  .min(1, 'URL is required')
  .max(2000, 'URL must be at most 2000 characters')
  .refine((value) => URL.canParse(value), 'Enter a full URL, e.g. https://example.com/webhooks');

const descriptionField = z.string().trim().max(200, 'Description must be at most 200 characters');

const eventTypesField = z
  .array(webhookEventTypeSchema, { error: 'Event types must be a list' })
  .max(WEBHOOK_EVENT_TYPES.length, 'Too many event types')
  .transform((types) => [...new Set(types)]);

/** POST /api/webhooks: an empty `eventTypes` list means every event. */
export const createWebhookEndpointBodySchema = z.object({
  url: urlField,
  description: descriptionField.default(''),
  eventTypes: eventTypesField.default([]),
});
export type CreateWebhookEndpointBody = z.input<typeof createWebhookEndpointBodySchema>;

/** PATCH /api/webhooks/:id */
export const updateWebhookEndpointBodySchema = z
  .object({
    url: urlField.optional(),
    description: descriptionField.optional(),
    eventTypes: eventTypesField.optional(),
    enabled: z.boolean({ error: 'Enabled must be true or false' }).optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), 'Nothing to change');
export type UpdateWebhookEndpointBody = z.input<typeof updateWebhookEndpointBodySchema>;

export const webhookEndpointStatusSchema = z.enum(['enabled', 'disabled']);

/** An endpoint as the list and detail show it (never its secret: GET /api/webhooks/:id/secret reveals it). */
export const webhookEndpointSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  description: z.string(),
  eventTypes: z.array(webhookEventTypeSchema),
  status: webhookEndpointStatusSchema,
  /** Why it was disabled: by the user, a 410 answer, or a long failure streak. */
  disabledReason: z.string().nullable(),
  /** Since when every delivery failed (null while the last one succeeded). */
  failingSince: z.string().nullable(),
  /** Until when the previous secret still signs beside the new one after a rotation. */
  previousSecretExpiresAt: z.string().nullable(),
  createdAt: z.string(),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

export const webhookEndpointListSchema = z.object({ endpoints: z.array(webhookEndpointSchema) });
export type WebhookEndpointList = z.infer<typeof webhookEndpointListSchema>;

/** GET /api/webhooks/:id/secret, POST /api/webhooks/:id/rotate-secret */
export const webhookSecretSchema = z.object({
  secret: z.string(),
  previousSecretExpiresAt: z.string().nullable(),
});
export type WebhookSecret = z.infer<typeof webhookSecretSchema>;

export const webhookDeliveryStatusSchema = z.enum(['pending', 'succeeded', 'failed']);
export type WebhookDeliveryStatus = z.infer<typeof webhookDeliveryStatusSchema>;

/** One try of a delivery. */
export const webhookAttemptSchema = z.object({
  attempt: z.number().int(),
  /** The receiver's HTTP status; null when none came (refused address, timeout, connection error). */
  statusCode: z.number().int().nullable(),
  latencyMs: z.number().int().nullable(),
  /** At most 1 KB of the receiver's answer, or why nothing came. */
  response: z.string(),
  createdAt: z.string(),
});

/** One event's delivery to one endpoint, with its tries (newest first). */
export const webhookDeliverySchema = z.object({
  id: z.number().int(),
  eventId: z.string(),
  eventType: z.string(),
  status: webhookDeliveryStatusSchema,
  attempts: z.number().int(),
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
  tries: z.array(webhookAttemptSchema),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveryListSchema = z.object({ deliveries: z.array(webhookDeliverySchema) });
export type WebhookDeliveryList = z.infer<typeof webhookDeliveryListSchema>;

/** `/api/webhooks/:id/deliveries/:deliveryId/replay` */
export const webhookDeliveryParamsSchema = z.object({
  id: z.coerce.number({ error: 'Not found' }).int('Not found').positive('Not found').max(2_147_483_647, 'Not found'),
  deliveryId: z.coerce
    .number({ error: 'Not found' })
    .int('Not found')
    .positive('Not found')
    .max(Number.MAX_SAFE_INTEGER, 'Not found'),
});

/** The job that delivers due webhook messages (woken by new events, and each minute). */
export const deliverWebhooksJobSchema = z.object({});
