import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { AppError, ProviderError, RetryLaterError, statusByCode } from '../lib/app-error.ts';
import { DATABASE_UNAVAILABLE, isConnectionError } from '../lib/db-errors.ts';

/** How an error is answered: its status and body, the Retry-After it asks for, and why it is logged. */
export type ErrorAnswer = {
  status: number;
  body: { message: string; fields?: Record<string, string> } | { error: string };
  retryAfter?: string;
  /** 'unavailable': the database connection was lost (a warning); 'unexpected': a bug or outage, answered generically. */
  logged?: 'unavailable' | 'unexpected';
};

/**
 * The answer to an error, wherever it surfaces (the error handler below; the NDJSON progress streams
 * of lib/ndjson-stream.ts): `{ message, fields? }` (`{ error }` for provider hand-off calls).
 * Validation failures are 400 with the contract's messages; a lost database connection is 503 (the
 * request may be tried again; the process goes on); unexpected errors are 500 with a generic message.
 */
export function errorAnswer(error: unknown): ErrorAnswer {
  if (error instanceof ProviderError) return { status: statusByCode[error.code], body: { error: error.message } };
  if (error instanceof AppError) {
    return {
      status: statusByCode[error.code],
      body: { message: error.message, fields: error.fields },
      ...(error instanceof RetryLaterError ? { retryAfter: String(error.retryAfterSeconds) } : {}),
    };
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const fields: Record<string, string> = {};
    for (const issue of error.validation) {
      const key = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || '_';
      fields[key] ??= issue.message ?? 'Invalid value';
    }
    const first = error.validation[0]?.message ?? 'Invalid request';
    return { status: 400, body: { message: first, fields } };
  }
  // Bodies that a handler parses itself (several content types on one route) use the same contract.
  if (error instanceof ZodError) {
    const fields: Record<string, string> = {};
    for (const issue of error.issues) fields[issue.path.join('.') || '_'] ??= issue.message;
    return { status: 400, body: { message: error.issues[0]?.message ?? 'Invalid request', fields } };
  }
  if (isConnectionError(error)) {
    return { status: 503, body: { message: DATABASE_UNAVAILABLE }, retryAfter: '5', logged: 'unavailable' };
  }
  const { statusCode, message } = (error ?? {}) as Partial<FastifyError>;
  const status = typeof statusCode === 'number' ? statusCode : 500;
  if (status >= 400 && status < 500) {
    const text =
      status === 413
        ? 'The request is too large'
        : status === 415
          ? 'Unsupported content type'
          : message || 'Bad request';
    return { status, body: { message: text } };
  }
  return {
    status: 500,
    body: { message: 'Something went wrong on our side. Please try again.' },
    logged: 'unexpected',
  };
}

/** Logs an error its answer says is worth logging, with the request (and so its id). */
export function logErrorAnswer(request: FastifyRequest, error: unknown, answer: ErrorAnswer): void {
  if (answer.logged === 'unavailable') request.log.warn({ err: error }, 'database unavailable');
  else if (answer.logged === 'unexpected') request.log.error({ err: error }, 'request failed');
}

/** The one edge where errors become HTTP answers (see errorAnswer). */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError | ZodError, request, reply) => {
    const answer = errorAnswer(error);
    logErrorAnswer(request, error, answer);
    if (answer.retryAfter !== undefined) reply.header('retry-after', answer.retryAfter);
    return reply.status(answer.status).send(answer.body);
  });
}
