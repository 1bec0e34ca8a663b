import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { timingSafeEqual } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '@sendwell/contract/errors';
import {
  grantUnlimitedResponseSchema,
  resetPasswordBodySchema,
  resetPasswordResponseSchema,
} from '@sendwell/contract/admin';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import { guardHook } from '../../lib/route-guard.ts';
import { newToken } from '../../lib/tokens.ts';
import { grantUnlimited, issueTemporaryPassword } from '../auth/index.ts';

/**
 * PGlite lets one process open DATA_DIR, so while the server runs the admin CLI asks it over
 * loopback instead of opening the database itself. The server writes its port and a one-off token
 * to DATA_DIR/server.json (mode 600): only someone who can read the data can use the channel.
 */
const runtimeFileName = 'server.json';
const runtimeFileSchema = z.object({ pid: z.number(), port: z.number(), token: z.string() });
export type RuntimeFile = z.infer<typeof runtimeFileSchema>;

export function readRuntimeFile(dataDir: string): RuntimeFile | undefined {
  const file = path.join(dataDir, runtimeFileName);
  if (!existsSync(file)) return undefined;
  const parsed = runtimeFileSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  return parsed.success ? parsed.data : undefined;
}

export function writeRuntimeFile(dataDir: string, content: RuntimeFile): void {
  writeFileSync(path.join(dataDir, runtimeFileName), JSON.stringify(content), { mode: 0o600 });
}

export function removeRuntimeFile(dataDir: string): void {
  rmSync(path.join(dataDir, runtimeFileName), { force: true });
}

/**
 * Route table (PGlite only):
 *   loopback + token POST /api/internal/admin/reset-password
 *   loopback + token POST /api/internal/admin/grant-unlimited
 */
export function adminChannelRoutes(token: string): FastifyPluginAsyncZod<AppContext> {
  const expected = Buffer.from(token);
  /** Only from this machine, with the token of server.json. */
  const adminToken = guardHook('admin-token', async (request: FastifyRequest) => {
    const given = Buffer.from(String(request.headers['x-sendwell-admin-token'] ?? ''));
    const loopback = ['127.0.0.1', '::1', '::ffff:127.0.0.1'].includes(request.socket.remoteAddress ?? '');
    if (!loopback || given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new AppError('forbidden', 'Forbidden');
    }
  });
  return async (app, ctx) => {
    app.post(
      '/api/internal/admin/reset-password',
      {
        guard: adminToken,
        schema: {
          body: resetPasswordBodySchema,
          response: { 200: resetPasswordResponseSchema, 403: apiErrorSchema },
        },
      },
      async (request) => {
        const issued = await issueTemporaryPassword(ctx.db, request.body.email);
        return { password: issued.password, expiresAt: issued.expiresAt.toISOString() };
      },
    );
    app.post(
      '/api/internal/admin/grant-unlimited',
      {
        guard: adminToken,
        schema: {
          body: resetPasswordBodySchema,
          response: { 200: grantUnlimitedResponseSchema, 403: apiErrorSchema },
        },
      },
      async (request) => {
        await grantUnlimited(ctx.db, request.body.email);
        return { granted: true as const };
      },
    );
  };
}

export function newAdminToken(): string {
  return newToken();
}
