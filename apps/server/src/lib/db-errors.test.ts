import { describe, expect, it } from 'vitest';
import {
  failedBeforeStatement,
  isConnectionError,
  isReadOnlyStatement,
  retryOnConnectionLoss,
  rootMessage,
} from './db-errors.ts';

const serverError = (code: string, severity = 'ERROR') =>
  Object.assign(new Error(`server said ${code}`), { code, severity });
/** How Drizzle wraps a driver error: "Failed query: …" with the driver's error as its cause. */
const wrapped = (cause: unknown) => new Error('Failed query: select 1\nparams: ', { cause });

describe('telling a lost database connection from a bad statement', () => {
  it('knows terminated, refused and reset connections, also wrapped by Drizzle', () => {
    expect(isConnectionError(serverError('57P01', 'FATAL'))).toBe(true);
    expect(isConnectionError(wrapped(new Error('Connection terminated unexpectedly')))).toBe(true);
    expect(isConnectionError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isConnectionError(new Error('Client has encountered a connection error and is not queryable'))).toBe(true);
    expect(isConnectionError(wrapped(serverError('08006')))).toBe(true);
    // A database that refuses connections answers 55000 as a FATAL error: the session is over.
    expect(isConnectionError(serverError('55000', 'FATAL'))).toBe(true);
  });

  it('leaves statement errors alone', () => {
    expect(isConnectionError(serverError('23505'))).toBe(false);
    expect(isConnectionError(serverError('55000'))).toBe(false);
    expect(isConnectionError(new Error('boom'))).toBe(false);
    expect(isConnectionError(undefined)).toBe(false);
  });

  it('knows which failures happened before any statement reached the server', () => {
    expect(failedBeforeStatement(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(failedBeforeStatement(serverError('57P03', 'FATAL'))).toBe(true);
    expect(failedBeforeStatement(serverError('55000', 'FATAL'))).toBe(true);
    expect(failedBeforeStatement(serverError('55000'))).toBe(false);
    expect(failedBeforeStatement(serverError('57P01', 'FATAL'))).toBe(false);
  });

  it('treats only reads as safe to run twice', () => {
    expect(isReadOnlyStatement('select "id" from "contacts"')).toBe(true);
    expect(isReadOnlyStatement('\n  SELECT 1')).toBe(true);
    expect(isReadOnlyStatement('WITH x AS (DELETE FROM t RETURNING *) SELECT * FROM x')).toBe(false);
    expect(isReadOnlyStatement('update "campaigns" set …')).toBe(false);
  });

  it('reports the driver’s message, not Drizzle’s wrapping', () => {
    expect(rootMessage(wrapped(new Error('Connection terminated unexpectedly')))).toBe(
      'Connection terminated unexpectedly',
    );
  });

  it('repeats an operation while its connection fails, and not for other errors', async () => {
    let calls = 0;
    const answer = await retryOnConnectionLoss(async () => {
      calls += 1;
      if (calls < 3) throw new Error('Connection terminated unexpectedly');
      return 'done';
    });
    expect([answer, calls]).toEqual(['done', 3]);
    calls = 0;
    await expect(
      retryOnConnectionLoss(async () => {
        calls += 1;
        throw serverError('23505');
      }),
    ).rejects.toThrow('23505');
    expect(calls).toBe(1);
  });
});
