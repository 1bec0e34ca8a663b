/** Every error the services raise on purpose; the error handler maps the code to a status. */
export type AppErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'too_large'
  | 'unprocessable'
  | 'rate_limited'
  | 'not_configured'
  | 'unavailable';

export const statusByCode: Record<AppErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unprocessable: 422,
  rate_limited: 429,
  not_configured: 503,
  unavailable: 503,
};

export class AppError extends Error {
  constructor(
    readonly code: AppErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/** A 429 that says when to come back: the error handler sends `retryAfterSeconds` as Retry-After. */
export class RetryLaterError extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('rate_limited', message);
    this.name = 'RetryLaterError';
  }
}

/**
 * An error of a provider hand-off call (checkout, billing portal): the error handler answers it as
 * `{ error }`, the shape the spec's client reads for these calls, instead of `{ message }`.
 */
export class ProviderError extends AppError {
  constructor(message: string, code: AppErrorCode = 'not_configured') {
    super(code, message);
    this.name = 'ProviderError';
  }
}
