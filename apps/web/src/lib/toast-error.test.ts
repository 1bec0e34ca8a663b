import { beforeEach, describe, expect, it, vi } from 'vitest';

import { ApiError } from './api';
import { apiErrorText, toastError } from './toast-error';

const { toast, redirectToLogin } = vi.hoisted(() => ({ toast: vi.fn(), redirectToLogin: vi.fn() }));
vi.mock('./use-toast', () => ({ toast }));
vi.mock('./unauthorized', () => ({ redirectToLogin }));

const FALLBACK = 'Failed to delete contacts';
const plan403 = new ApiError(403, '{"message":"Your plan has 10 emails left this month."}');
const duplicate409 = new ApiError(409, '{"message":"A contact with this email already exists"}');
const server500 = new ApiError(500, '{"message":"Something went wrong on our side. Please try again."}');

describe('apiErrorText', () => {
  it('shows the server’s message by default, whatever the status', () => {
    expect(apiErrorText(plan403, FALLBACK)).toBe('Your plan has 10 emails left this month.');
    expect(apiErrorText(server500, FALLBACK)).toBe('Something went wrong on our side. Please try again.');
  });

  it('falls back for network failures and bodies without a message', () => {
    expect(apiErrorText(new TypeError('Failed to fetch'), FALLBACK)).toBe(FALLBACK);
    expect(apiErrorText(new ApiError(400, 'Bad Request'), FALLBACK)).toBe(FALLBACK);
    expect(apiErrorText(new ApiError(422, '{"message":"  "}'), FALLBACK)).toBe(FALLBACK);
    expect(apiErrorText(undefined, FALLBACK)).toBe(FALLBACK);
  });

  it('reads the error field of the provider hand-off answers', () => {
    expect(apiErrorText(new ApiError(503, '{"error":"Stripe checkout not configured"}'), FALLBACK)).toBe(
      'Stripe checkout not configured',
    );
  });

  it('keeps 5xx texts out with the client-error rule', () => {
    expect(apiErrorText(plan403, FALLBACK, 'client-error')).toBe('Your plan has 10 emails left this month.');
    expect(apiErrorText(server500, FALLBACK, 'client-error')).toBe(FALLBACK);
  });

  it('shows only the named status, or never the server’s text', () => {
    expect(apiErrorText(duplicate409, FALLBACK, 409)).toBe('A contact with this email already exists');
    expect(apiErrorText(plan403, FALLBACK, 409)).toBe(FALLBACK);
    expect(apiErrorText(duplicate409, FALLBACK, 'never')).toBe(FALLBACK);
  });
});

describe('toastError', () => {
  beforeEach(() => {
    toast.mockClear();
    redirectToLogin.mockClear();
  });

  it('shows a destructive toast titled Error with the server’s message', () => {
    toastError(duplicate409, FALLBACK);
    expect(toast).toHaveBeenCalledWith({
      title: 'Error',
      description: 'A contact with this email already exists',
      variant: 'destructive',
    });
  });

  it('takes the spec’s title and rule', () => {
    toastError(server500, 'Invalid credentials', { title: 'Login Failed', serverMessage: 'client-error' });
    expect(toast).toHaveBeenCalledWith({
      title: 'Login Failed',
      description: 'Invalid credentials',
      variant: 'destructive',
    });
  });

  it('sends a 401 Unauthorized to the login instead of showing an error', () => {
    toastError(new ApiError(401, '{"message":"Unauthorized"}'), FALLBACK);
    expect(redirectToLogin).toHaveBeenCalledOnce();
    expect(toast).not.toHaveBeenCalled();
  });

  it('shows a 401 that is not Unauthorized (a wrong password) like any other refusal', () => {
    toastError(new ApiError(401, '{"message":"Invalid email or password"}'), 'Invalid credentials', {
      title: 'Login Failed',
    });
    expect(redirectToLogin).not.toHaveBeenCalled();
    expect(toast).toHaveBeenCalledWith({
      title: 'Login Failed',
      description: 'Invalid email or password',
      variant: 'destructive',
    });
  });
});
