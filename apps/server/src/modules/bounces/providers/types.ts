import type { Verdict } from '../classify.ts';

/** One event a provider reported, read into our terms: what it says and which of our messages it is about. */
export interface ProviderEvent {
  verdict: Verdict;
  /** The recipient the event is about (lower-cased). */
  recipient: string | null;
  /** Our Message-ID (with angle brackets) when the provider echoes it. */
  messageId: string | null;
}

/** A post a provider's signature check refused: 401 (no or wrong signature) or 400 (not the provider's shape). */
export class ProviderRejection extends Error {
  constructor(
    readonly status: 'unauthorized' | 'bad_request',
    message: string,
  ) {
    super(message);
  }
}

/** What a signature check reads of a post. */
export interface ProviderPost {
  rawBody: Buffer;
  headers: Record<string, string | string[] | undefined>;
  /** The account's saved setting for this provider (opened), or null when it saved none. */
  secret: string | null;
  now: Date;
}

export const headerOf = (headers: ProviderPost['headers'], name: string): string | null => {
  const value = headers[name.toLowerCase()];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' && first.trim() !== '' ? first.trim() : null;
};

/** A Message-ID in its bracketed form, whatever way the provider wrote it. */
export function bracketedMessageId(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const bare = value.trim().replace(/^<|>$/g, '').trim();
  return bare && bare.includes('@') && !/[\s<>]/.test(bare) ? `<${bare}>` : null;
}

export function jsonOf(rawBody: Buffer): unknown {
  try {
    return JSON.parse(rawBody.toString('utf8')) as unknown;
  } catch {
    throw new ProviderRejection('bad_request', 'The body must be JSON');
  }
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const stringOf = (value: unknown): string | null => (typeof value === 'string' ? value : null);
