import { afterEach, describe, expect, it, vi } from 'vitest';

import {
  ApiError,
  apiJson,
  getApiErrorFields,
  getApiErrorMessage,
  getApiErrorStatus,
  isUnauthorizedError,
  throwIfResNotOk,
} from './api';

describe('ApiError', () => {
  it('keeps the transport message "{status}: {body}" and parses a JSON body', () => {
    const error = new ApiError(409, '{"message":"An account with this email already exists"}');
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toBe('409: {"message":"An account with this email already exists"}');
    expect(error.status).toBe(409);
    expect(error.body).toEqual({ message: 'An account with this email already exists' });
  });

  it('keeps a non-JSON body as text', () => {
    const error = new ApiError(502, 'Bad Gateway');
    expect(error.message).toBe('502: Bad Gateway');
    expect(error.body).toBe('Bad Gateway');
  });

  it('is what a non-2xx response throws, with the status text for an empty body', async () => {
    const empty = new Response('', { status: 404, statusText: 'Not Found' });
    const thrown = await throwIfResNotOk(empty).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(ApiError);
    expect((thrown as ApiError).message).toBe('404: Not Found');
    expect((thrown as ApiError).body).toBe('Not Found');
    await expect(throwIfResNotOk(new Response('{}', { status: 200 }))).resolves.toBeUndefined();
  });
});

describe('apiJson', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('rejects with an ApiError carrying the parsed body', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{"message":"Invalid input","fields":{"name":"Required"}}', { status: 400 })),
    );
    const error = await apiJson('POST', '/api/contacts', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(getApiErrorStatus(error)).toBe(400);
    expect(getApiErrorMessage(error)).toBe('Invalid input');
    expect(getApiErrorFields(error)).toEqual({ name: 'Required' });
  });
});

describe('transport errors', () => {
  it('recognises a 401 Unauthorized', () => {
    expect(isUnauthorizedError(new ApiError(401, '{"message":"Unauthorized"}'))).toBe(true);
    expect(isUnauthorizedError(new ApiError(401, 'Unauthorized'))).toBe(true);
    // The spec's rule reads the message, so a plain Error in the transport form counts too.
    expect(isUnauthorizedError(new Error('401: Unauthorized'))).toBe(true);
  });

  it('does not treat other errors as unauthorized', () => {
    expect(isUnauthorizedError(new ApiError(401, '{"message":"Invalid email or password"}'))).toBe(false);
    expect(isUnauthorizedError(new ApiError(403, 'Unauthorized'))).toBe(false);
    expect(isUnauthorizedError(new Error('Unauthorized'))).toBe(false);
    expect(isUnauthorizedError('401: Unauthorized')).toBe(false);
  });

  it('has no status or message for errors that did not come from a response', () => {
    expect(getApiErrorStatus(new TypeError('Failed to fetch'))).toBeNull();
    expect(getApiErrorMessage(new TypeError('Failed to fetch'))).toBeUndefined();
    expect(getApiErrorFields(new TypeError('Failed to fetch'))).toEqual({});
  });

  it('reads the message field, then the error field', () => {
    expect(getApiErrorMessage(new ApiError(400, '{"message":"Password must be at least 6 characters long"}'))).toBe(
      'Password must be at least 6 characters long',
    );
    expect(getApiErrorMessage(new ApiError(503, '{"error":"Stripe checkout not configured"}'))).toBe(
      'Stripe checkout not configured',
    );
    expect(getApiErrorMessage(new ApiError(500, 'Internal Server Error'))).toBeUndefined();
    expect(getApiErrorMessage(new ApiError(400, '{"message":""}'))).toBeUndefined();
    expect(getApiErrorMessage(new ApiError(400, 'null'))).toBeUndefined();
  });

  it('reads per-field messages of a validation answer', () => {
    const err = new ApiError(
      400,
      '{"message":"Invalid input","fields":{"email":"Please enter a valid email address"}}',
    );
    expect(getApiErrorFields(err)).toEqual({ email: 'Please enter a valid email address' });
    expect(getApiErrorFields(new ApiError(400, '{"message":"x"}'))).toEqual({});
  });
});
