import { z } from 'zod';

const componentStatus = z.object({ ok: z.boolean(), latencyMs: z.number(), error: z.string().optional() });

/** GET /api/health */
export const healthResponseSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: componentStatus.extend({ driver: z.enum(['pglite', 'postgres']) }),
  queue: componentStatus,
  uptimeSeconds: z.number(),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;
