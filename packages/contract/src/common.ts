import { z } from 'zod';

/** `/:id` of a row the user owns; an id that cannot be one answers as not found. */
export const idParamsSchema = z.object({ id: z.coerce.number({ error: 'Not found' }).int().positive('Not found') });

/** `?token=` of a link Sendwell mailed (a confirmation link); its signature is checked by the server. */
export const tokenQuerySchema = z.object({ token: z.string().max(600).catch('') });
