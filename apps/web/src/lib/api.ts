import type { QueryFunction } from '@tanstack/react-query';

/**
 * A non-2xx answer. The message is the spec's transport form "{status}: {body text or status text}"
 * (§7), which screens and the Unauthorized rule read; `status` and `body` spare every caller from
 * parsing that string again.
 */
export class ApiError extends Error {
  /** The HTTP status of the answer. */
  readonly status: number;
  /** The answer's body: parsed JSON when it was JSON, else its text (the status text when it was empty). */
  readonly body: unknown;

  constructor(status: number, bodyText: string) {
    super(`${status}: ${bodyText}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = parseJsonOrText(bodyText);
  }

  /** The error for a response already known to be non-2xx; reads its body. */
  static async fromResponse(res: Response): Promise<ApiError> {
    return new ApiError(res.status, (await res.text()) || res.statusText);
  }
}

function parseJsonOrText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Throws an `ApiError` ("{status}: {body text or status text}") for a non-2xx response (spec §7 transport rule). */
export async function throwIfResNotOk(res: Response): Promise<void> {
  if (!res.ok) throw await ApiError.fromResponse(res);
}

/** Sends a JSON request with the session cookie; returns the raw response once it is known to be 2xx. */
export async function apiRequest(method: string, url: string, body?: unknown): Promise<Response> {
  const res = await fetch(url, {
    method,
    headers: body !== undefined ? { 'Content-Type': 'application/json' } : {},
    body: body !== undefined ? JSON.stringify(body) : undefined,
    credentials: 'include',
  });
  await throwIfResNotOk(res);
  return res;
}

/** Sends a JSON request and parses the JSON answer (empty bodies give undefined). */
export async function apiJson<T>(method: string, url: string, body?: unknown): Promise<T> {
  const res = await apiRequest(method, url, body);
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export type UnauthorizedBehavior = 'returnNull' | 'throw';

/** A react-query query function that GETs the first element of the query key as a URL. */
export const getQueryFn =
  <T>({ on401 }: { on401: UnauthorizedBehavior }): QueryFunction<T | null> =>
  async ({ queryKey, signal }) => {
    const res = await fetch(String(queryKey[0]), { credentials: 'include', signal });
    if (on401 === 'returnNull' && res.status === 401) {
      return null;
    }
    await throwIfResNotOk(res);
    return (await res.json()) as T;
  };

/** True for the transport error of a 401 whose body says Unauthorized (spec §8). */
export function isUnauthorizedError(error: unknown): boolean {
  return error instanceof Error && /^401: .*Unauthorized/.test(error.message);
}

function stringField(value: unknown, key: string): string | undefined {
  if (value && typeof value === 'object' && key in value) {
    const field = (value as Record<string, unknown>)[key];
    if (typeof field === 'string' && field.trim() !== '') return field;
  }
  return undefined;
}

/**
 * The human message of an API error: the JSON body's `message` field, else its `error` field
 * (the provider hand-off calls answer `{ error }`), else undefined (also for errors that are not
 * an `ApiError`, such as a network failure).
 */
export function getApiErrorMessage(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  return stringField(error.body, 'message') ?? stringField(error.body, 'error');
}

/** The per-field messages of a 400 validation answer (`{ message, fields }`), if any. */
export function getApiErrorFields(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  const { body } = error;
  if (body && typeof body === 'object' && 'fields' in body) {
    const fields = (body as { fields?: unknown }).fields;
    if (fields && typeof fields === 'object') {
      const out: Record<string, string> = {};
      for (const [key, value] of Object.entries(fields)) {
        if (typeof value === 'string') out[key] = value;
      }
      return out;
    }
  }
  return {};
}

/** The HTTP status of an API error, or null for any other error (e.g. a network failure). */
export function getApiErrorStatus(error: unknown): number | null {
  return error instanceof ApiError ? error.status : null;
}
