import { describe, expect, it } from 'vitest';

import { getApiErrorFields, getApiErrorMessage, getApiErrorStatus, isUnauthorizedError, parseApiError } from './api';

describe('transport errors', () => {
  it('recognises a 401 Unauthorized', () => {
    expect(isUnauthorizedError(new Error('401: {"message":"Unauthorized"}'))).toBe(true);
    expect(isUnauthorizedError(new Error('401: Unauthorized'))).toBe(true);
  });

  it('does not treat other errors as unauthorized', () => {
    expect(isUnauthorizedError(new Error('401: {"message":"Invalid email or password"}'))).toBe(false);
    expect(isUnauthorizedError(new Error('403: Unauthorized'))).toBe(false);
    expect(isUnauthorizedError(new Error('Unauthorized'))).toBe(false);
    expect(isUnauthorizedError('401: Unauthorized')).toBe(false);
  });

  it('splits status and JSON body', () => {
    const parsed = parseApiError(new Error('409: {"message":"An account with this email already exists"}'));
    expect(parsed.status).toBe(409);
    expect(parsed.json).toEqual({ message: 'An account with this email already exists' });
  });

  it('keeps a non-JSON body as text', () => {
    const parsed = parseApiError(new Error('502: Bad Gateway'));
    expect(parsed).toEqual({ status: 502, body: 'Bad Gateway', json: undefined });
  });

  it('has no status for errors that did not come from a response', () => {
    expect(getApiErrorStatus(new TypeError('Failed to fetch'))).toBeNull();
    expect(getApiErrorMessage(new TypeError('Failed to fetch'))).toBeUndefined();
  });

  it('reads the message field, then the error field', () => {
    expect(getApiErrorMessage(new Error('400: {"message":"Password must be at least 6 characters long"}'))).toBe(
      'Password must be at least 6 characters long',
    );
    expect(getApiErrorMessage(new Error('503: {"error":"Stripe checkout not configured"}'))).toBe(
      'Stripe checkout not configured',
    );
    expect(getApiErrorMessage(new Error('500: Internal Server Error'))).toBeUndefined();
    expect(getApiErrorMessage(new Error('400: {"message":""}'))).toBeUndefined();
  });

  it('reads per-field messages of a validation answer', () => {
    const err = new Error('400: {"message":"Invalid input","fields":{"email":"Please enter a valid email address"}}');
    expect(getApiErrorFields(err)).toEqual({ email: 'Please enter a valid email address' });
    expect(getApiErrorFields(new Error('400: {"message":"x"}'))).toEqual({});
  });
});
