import { z } from 'zod';

/** `/:id` of a row the user owns; an id that cannot be one answers as not found. */
export const idParamsSchema = z.object({ id: z.coerce.number({ error: 'Not found' }).int().positive('Not found') });
