import { z } from 'zod';

/** Every non-2xx answer of the API: a human message, plus per-field messages on validation errors. */
export const apiErrorSchema = z.object({
  message: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

/** Provider hand-off calls (checkout, portal) answer `{ error }` as the spec's client reads it. */
export const providerErrorSchema = z.object({ error: z.string() });
