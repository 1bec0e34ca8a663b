import type pg from 'pg';

/** True when a database error (possibly wrapped by Drizzle) is a unique-constraint violation. */
export function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

/** What the API answers (503) when the database cannot be reached or dropped the connection. */
export const DATABASE_UNAVAILABLE = 'The database is unavailable; try again shortly.';

/**
 * Server codes that mean the connection, not the statement, failed: class 08 (connection
 * exception), the server shutting down or terminating the backend (57P01 admin_shutdown, as from
 * pg_terminate_backend; 57P02 crash_shutdown; 57P03 still starting up; 57P05 idle session timeout),
 * and too many connections (53300).
 */
const SERVER_CODES = new Set(['57P01', '57P02', '57P03', '57P05', '53300']);
/** Socket errors of the client's connection. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** node-postgres' own errors (they carry no code) when its connection ended or never came. */
const CLIENT_MESSAGES = [
  /^Connection terminated/,
  /is not queryable$/,
  /^timeout exceeded when trying to connect$/,
  /^terminating connection/,
];
/**
 * Failures that happen while connecting: no statement reached the server, so any may be retried
 * (55000 as a FATAL error: the database does not accept connections now).
 */
const BEFORE_STATEMENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', '57P03', '53300', '55000']);

type ErrorFields = { code?: unknown; message?: unknown; severity?: unknown };

function* causes(error: unknown): Generator<ErrorFields> {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 8; depth += 1) {
    yield e as ErrorFields;
    e = (e as { cause?: unknown }).cause;
  }
}

/**
 * True when the error (possibly wrapped by Drizzle) is the database connection failing — dropped,
 * terminated, refused, timed out, ended by a FATAL error — rather than the statement being wrong. The request that met it
 * answers 503; the process goes on.
 */
export function isConnectionError(error: unknown): boolean {
  for (const e of causes(error)) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (code.startsWith('08') || SERVER_CODES.has(code) || SOCKET_CODES.has(code)) return true;
    // The server ends the session after a FATAL error (a database refusing connections, say).
    if (e.severity === 'FATAL' || e.severity === 'PANIC') return true;
    const message = typeof e.message === 'string' ? e.message : '';
    if (!code && CLIENT_MESSAGES.some((pattern) => pattern.test(message))) return true;
  }
  return false;
}

/** True when the connection failed before any statement was sent (refused, still starting, full). */
export function failedBeforeStatement(error: unknown): boolean {
  for (const e of causes(error)) {
    if (e.code === '55000' && e.severity !== 'FATAL') continue;
    if (typeof e.code === 'string' && BEFORE_STATEMENT_CODES.has(e.code)) return true;
    if (typeof e.message === 'string' && /^timeout exceeded when trying to connect$/.test(e.message)) return true;
  }
  return false;
}

/** A statement that only reads, so running it twice is harmless (select, show, values, table). */
export function isReadOnlyStatement(text: string): boolean {
  return /^\s*(select|show|values|table)\b/i.test(text);
}

/** The innermost message of an error Drizzle wrapped ("Failed query: …" around the driver's error). */
export function rootMessage(error: unknown): string {
  let message = error instanceof Error ? error.message : String(error);
  for (const e of causes(error)) if (typeof e.message === 'string' && e.message) message = e.message;
  return message;
}

/** Backoff between attempts after a lost connection: quick at first, then at most every 2 s. */
export function reconnectDelayMs(attempt: number): number {
  return Math.min(2000, 50 * 2 ** attempt);
}

/**
 * Runs `operation`, running it again (up to `attempts` times in all, with backoff) while it fails
 * on a lost database connection. Only for operations that are safe to repeat: the caller says so.
 */
export async function retryOnConnectionLoss<T>(operation: () => Promise<T>, attempts = 6): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await operation();
    } catch (error) {
      if (attempt + 1 >= attempts || !isConnectionError(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, reconnectDelayMs(attempt)));
    }
  }
}

/**
 * Limits that keep every pool (the app's, pg-boss's, the record pool) from waiting on a dead
 * connection forever: a pooled connection or a new one comes within CONNECT_TIMEOUT_MS; the server
 * cancels a statement after `statementMs` and ends a session left idle in a transaction (its process
 * hung or died mid-transaction, holding locks) after IDLE_IN_TRANSACTION_MS; and a statement whose
 * answer never comes (the server's host is gone: nothing closes the socket) fails on the client
 * READ_MARGIN_MS after the server would have cancelled it, and its connection is discarded. TCP
 * keepalive finds a dead idle connection.
 */
const CONNECT_TIMEOUT_MS = 10_000;
const IDLE_IN_TRANSACTION_MS = 60_000;
const READ_MARGIN_MS = 10_000;

export function poolLimits(statementMs: number): {
  connectionTimeoutMillis: number;
  query_timeout: number;
  keepAlive: boolean;
  keepAliveInitialDelayMillis: number;
  options: string;
} {
  return {
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    query_timeout: statementMs + READ_MARGIN_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    options: `-c statement_timeout=${statementMs} -c idle_in_transaction_session_timeout=${IDLE_IN_TRANSACTION_MS}`,
  };
}

/**
 * Every connection of `pool` may drop (a server restart, pg_terminate_backend, a network cut). An
 * idle one is reported through the pool's 'error' event and replaced; a checked-out one (a
 * transaction's, a migration's) emits 'error' on its client, which with no listener is an
 * "Unhandled 'error' event" that ends the process. So every client gets a listener when the pool
 * creates it: the statement in progress fails on its own, the pool discards the client when it is
 * released, and the process goes on.
 */
export function keepProcessOnConnectionLoss(pool: pg.Pool, what: string): void {
  pool.on('error', (error) => console.warn(`${what}: ${error.message}`));
  pool.on('connect', (client) => {
    client.on('error', (error) => console.warn(`${what} (in use): ${error.message}`));
  });
}
