import { z } from 'zod';

/** POST /api/internal/admin/reset-password (loopback admin channel, PGlite only). */
export const resetPasswordBodySchema = z.object({ email: z.string().min(1) });

/** The temporary password, valid until expiresAt (ISO); the user sets a new one at sign-in. */
export const resetPasswordResponseSchema = z.object({ password: z.string(), expiresAt: z.string() });
export type ResetPasswordResponse = z.infer<typeof resetPasswordResponseSchema>;

/** POST /api/internal/admin/grant-unlimited (loopback admin channel, PGlite only): same body, answers {granted}. */
export const grantUnlimitedResponseSchema = z.object({ granted: z.literal(true) });
