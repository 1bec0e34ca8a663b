import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from './app-error.ts';
import { DATABASE_UNAVAILABLE } from './db-errors.ts';
import { sendProgressStream } from './ndjson-stream.ts';

/** The NDJSON lines a progress stream answers when `run` reports 2 and 5 rows and then ends with `outcome`. */
async function linesOf(outcome: () => Promise<unknown>): Promise<{ status: number; type: string; lines: unknown[] }> {
  const app = Fastify({ logger: false });
  app.get('/import', async (request, reply) =>
    sendProgressStream(
      request,
      reply,
      async (reportRows) => {
        reportRows(2);
        reportRows(5);
        return outcome();
      },
      'Failed to import',
    ),
  );
  const response = await app.inject('/import');
  await app.close();
  return {
    status: response.statusCode,
    type: String(response.headers['content-type']),
    lines: response.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as unknown),
  };
}

describe('sendProgressStream', () => {
  it('answers 200 NDJSON: progress lines, then the result', async () => {
    const { status, type, lines } = await linesOf(async () => ({ imported: 5 }));
    expect(status).toBe(200);
    expect(type).toBe('application/x-ndjson');
    expect(lines).toEqual([
      { type: 'progress', rows: 2 },
      { type: 'progress', rows: 5 },
      { type: 'result', result: { imported: 5 } },
    ]);
  });

  it('ends with the status and message the error handler answers, the route’s own text for the unexpected', async () => {
    const lastLine = async (error: unknown) => (await linesOf(() => Promise.reject(error))).lines.at(-1);
    expect(await lastLine(new AppError('not_found', 'Contact list not found'))).toEqual({
      type: 'error',
      status: 404,
      message: 'Contact list not found',
    });
    const invalid = z.object({ email: z.string({ error: 'Email is required' }) }).safeParse({}).error;
    expect(await lastLine(invalid)).toEqual({ type: 'error', status: 400, message: 'Email is required' });
    expect(await lastLine(new Error('Connection terminated unexpectedly'))).toEqual({
      type: 'error',
      status: 503,
      message: DATABASE_UNAVAILABLE,
    });
    expect(await lastLine(new TypeError('x is undefined'))).toEqual({
      type: 'error',
      status: 500,
      message: 'Failed to import',
    });
  });
});
