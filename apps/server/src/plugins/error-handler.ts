import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { AppError, ProviderError, RetryLaterError, statusByCode } from '../lib/app-error.ts';
import { DATABASE_UNAVAILABLE, isConnectionError } from '../lib/db-errors.ts';

/**
 * The one edge where errors become HTTP answers: `{ message, fields? }` (`{ error }` for provider
 * hand-off calls). Validation failures are 400 with the contract's messages; a lost database
 * connection is 503 (the request may be tried again; the process goes on); unexpected errors are
 * 500 with a generic message, logged.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError | ZodError, request, reply) => {
    if (error instanceof ProviderError) {
      return reply.status(statusByCode[error.code]).send({ error: error.message });
    }
    if (error instanceof RetryLaterError) reply.header('retry-after', String(error.retryAfterSeconds));
    if (error instanceof AppError) {
      return reply.status(statusByCode[error.code]).send({ message: error.message, fields: error.fields });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: Record<string, string> = {};
      for (const issue of error.validation) {
        const key = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || '_';
        fields[key] ??= issue.message ?? 'Invalid value';
      }
      const first = error.validation[0]?.message ?? 'Invalid request';
      return reply.status(400).send({ message: first, fields });
    }
    // Bodies that a handler parses itself (several content types on one route) use the same contract.
    if (error instanceof ZodError) {
      const fields: Record<string, string> = {};
      for (const issue of error.issues) fields[issue.path.join('.') || '_'] ??= issue.message;
      return reply.status(400).send({ message: error.issues[0]?.message ?? 'Invalid request', fields });
    }
    if (isConnectionError(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply.status(503).header('retry-after', '5').send({ message: DATABASE_UNAVAILABLE });
    }
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      const message =
        status === 413
          ? 'The request is too large'
          : status === 415
            ? 'Unsupported content type'
            : error.message || 'Bad request';
      return reply.status(status).send({ message });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ message: 'Something went wrong on our side. Please try again.' });
  });
}
