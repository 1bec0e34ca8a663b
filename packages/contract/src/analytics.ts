import { z } from 'zod';

/** GET /api/analytics/stats: rates are percentages (0-100), revenue in dollars. */
export const statsResponseSchema = z.object({
  totalSubscribers: z.number().int(),
  avgOpenRate: z.number(),
  avgClickRate: z.number(),
  totalRevenue: z.number(),
});
export type StatsResponse = z.infer<typeof statsResponseSchema>;
