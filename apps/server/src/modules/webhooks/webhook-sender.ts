import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { WEBHOOK_RESPONSE_SNIPPET_BYTES } from '@sendwell/contract/webhooks';
import { checkWebhookUrl, pinnedLookup, RefusedWebhookTarget, type GuardOptions } from './ssrf-guard.ts';

/** How long one attempt may take, connect to last byte kept. */
const WEBHOOK_TIMEOUT_MS = 10_000;

/** What one POST to a receiver came to. `statusCode` null: no answer (refused, timeout, connection error). */
export type PostOutcome = {
  statusCode: number | null;
  latencyMs: number;
  /** At most 1 KB of the answer's body, or why there was none. */
  response: string;
  /** The address the socket connected to (after the guard's check), when it got that far. */
  address: string | null;
};

/**
 * POSTs one signed webhook through the SSRF guard: the URL is checked, the socket's lookup pins the
 * checked address, redirects are answered as they are (never followed), the whole attempt ends
 * after 10 s, and at most 1 KB of the answer is read.
 */
export async function postWebhook(
  rawUrl: string,
  headers: Record<string, string>,
  body: string,
  guard: GuardOptions,
  timeoutMs = WEBHOOK_TIMEOUT_MS,
): Promise<PostOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const url = new URL(rawUrl);
  let address: string | null = null;
  try {
    // Scheme and IP literals are checked here (node calls no lookup for a literal); names at connect time.
    if (isIP(url.hostname.replace(/^\[|\]$/g, ''))) {
      await checkWebhookUrl(rawUrl, guard);
      address = url.hostname;
    } else if (url.protocol !== 'https:' && !(url.protocol === 'http:' && guard.allowLoopback)) {
      throw new RefusedWebhookTarget('The URL must start with https://');
    }
  } catch (error) {
    return { statusCode: null, latencyMs: elapsed(), response: refusalText(error), address: null };
  }
  return new Promise<PostOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<PostOutcome, 'latencyMs' | 'address'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      request.destroy();
      resolve({ ...outcome, latencyMs: elapsed(), address });
    };
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(url, {
      method: 'POST',
      agent: false,
      lookup: pinnedLookup(url, guard, (checked) => {
        address = checked;
      }),
      headers: {
        ...headers,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        'user-agent': 'Sendwell-Webhooks/1.0',
      },
    });
    const deadline = setTimeout(
      () => finish({ statusCode: null, response: `No answer within ${timeoutMs / 1000} s` }),
      timeoutMs,
    );
    request.on('error', (error) => finish({ statusCode: null, response: refusalText(error) }));
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      const done = () => {
        let text = Buffer.concat(chunks).toString('utf8');
        // A cut may split a character: drop a trailing replacement character it leaves.
        if (kept >= WEBHOOK_RESPONSE_SNIPPET_BYTES) text = text.replace(/\uFFFD$/, '');
        const location = response.headers.location;
        if (response.statusCode && response.statusCode >= 300 && response.statusCode < 400 && location)
          text = `Redirect to ${location.slice(0, 200)} not followed. ${text}`.slice(0, WEBHOOK_RESPONSE_SNIPPET_BYTES);
        finish({ statusCode: response.statusCode ?? null, response: text });
      };
      response.on('data', (chunk: Buffer) => {
        const room = WEBHOOK_RESPONSE_SNIPPET_BYTES - kept;
        if (room > 0) {
          chunks.push(chunk.subarray(0, room));
          kept += Math.min(room, chunk.length);
        }
        // Nothing past 1 KB is read: the socket is closed once the snippet is full.
        if (kept >= WEBHOOK_RESPONSE_SNIPPET_BYTES) done();
      });
      response.on('end', done);
      response.on('error', done);
    });
    request.end(body);
  });
}

function refusalText(error: unknown): string {
  if (error instanceof RefusedWebhookTarget) return `Refused: ${error.message}`;
  const code = (error as NodeJS.ErrnoException).code;
  const message = error instanceof Error ? error.message : String(error);
  return (code && !message.includes(code) ? `${code}: ${message}` : message).slice(0, WEBHOOK_RESPONSE_SNIPPET_BYTES);
}
