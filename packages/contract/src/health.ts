import { z } from 'zod';

const componentStatus = z.object({ ok: z.boolean(), latencyMs: z.number(), error: z.string().optional() });

/** GET /api/health */
export const healthResponseSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: componentStatus.extend({ driver: z.enum(['pglite', 'postgres']) }),
  queue: componentStatus,
  /**
   * This process's job workers, where it runs them: how many times the watchdog restarted a queue's
   * worker whose fetching stopped, and the queues restarted and not fetching again yet (the process
   * is not ready while any is).
   */
  workers: z.object({ restarts: z.number().int(), recovering: z.array(z.string()) }).optional(),
  uptimeSeconds: z.number(),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;
