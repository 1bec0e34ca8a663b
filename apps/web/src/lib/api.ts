import type { QueryFunction } from '@tanstack/react-query';

/** Throws `Error("{status}: {body text or status text}")` for a non-2xx response (spec §7 transport rule). */
export async function throwIfResNotOk(res: Response): Promise<void> {
  if (!res.ok) {
    const text = (await res.text()) || res.statusText;
    throw new Error(`${res.status}: ${text}`);
  }
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

export interface ParsedApiError {
  /** HTTP status, or null when the error did not come from a response (e.g. a network failure). */
  status: number | null;
  /** The body after "{status}: ", verbatim. */
  body: string;
  /** The body parsed as JSON, when it is JSON. */
  json: unknown;
}

/** Splits a transport error "{status}: {body}" into its parts. */
export function parseApiError(error: unknown): ParsedApiError {
  const message = error instanceof Error ? error.message : String(error ?? '');
  const match = /^(\d{3}): ([\s\S]*)$/.exec(message);
  if (!match) {
    return { status: null, body: message, json: undefined };
  }
  const body = match[2] ?? '';
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  return { status: Number(match[1]), body, json };
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
 * (the provider hand-off calls answer `{ error }`), else undefined.
 */
export function getApiErrorMessage(error: unknown): string | undefined {
  const { json } = parseApiError(error);
  return stringField(json, 'message') ?? stringField(json, 'error');
}

/** The per-field messages of a 400 validation answer (`{ message, fields }`), if any. */
export function getApiErrorFields(error: unknown): Record<string, string> {
  const { json } = parseApiError(error);
  if (json && typeof json === 'object' && 'fields' in json) {
    const fields = (json as { fields?: unknown }).fields;
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

/** The HTTP status of a transport error, or null. */
export function getApiErrorStatus(error: unknown): number | null {
  return parseApiError(error).status;
}
