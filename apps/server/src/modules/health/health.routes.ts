import { performance } from 'node:perf_hooks';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthResponseSchema } from '@sendwell/contract/health';
import type { AppContext } from '../../context.ts';

async function probe(check: () => Promise<unknown>) {
  const started = performance.now();
  try {
    await check();
    return { ok: true, latencyMs: Math.round((performance.now() - started) * 10) / 10 };
  } catch (error) {
    return {
      ok: false,
      latencyMs: Math.round((performance.now() - started) * 10) / 10,
      error: (error as Error).message,
    };
  }
}

/** Route table: public GET /api/health (503 when the database or queue does not answer). */
export const healthRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  app.get(
    '/api/health',
    { schema: { response: { 200: healthResponseSchema, 503: healthResponseSchema } } },
    async (_request, reply) => {
      const [database, queue] = await Promise.all([
        probe(() => ctx.database.raw.executeSql('SELECT 1', [])),
        probe(() => ctx.queue.getQueues()),
      ]);
      const ok = database.ok && queue.ok;
      return reply.status(ok ? 200 : 503).send({
        status: ok ? 'ok' : 'degraded',
        database: { ...database, driver: ctx.database.driver },
        queue,
        uptimeSeconds: Math.round(process.uptime()),
      });
    },
  );
};
