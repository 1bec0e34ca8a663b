import type { FastifyRequest } from 'fastify';

/** Query parameters that carry secrets (the inbound webhook's `?token=`): logged as [REDACTED]. */
const SECRET_QUERY_PARAMETERS = /([?&](?:token)=)[^&#]*/gi;

/** Paths that carry the account's token as their last segment (the provider bounce webhooks). */
const SECRET_PATH_SEGMENTS = /^(\/api\/webhook\/bounces\/[^/?#]+\/)[^/?#]+/i;

/** The URL with the value of every secret query parameter (and path token) replaced, for logs. */
export function redactedUrl(url: string): string {
  return url.replace(SECRET_PATH_SEGMENTS, '$1[REDACTED]').replace(SECRET_QUERY_PARAMETERS, '$1[REDACTED]');
}

/** pino's request serializer: Fastify's own fields, with the URL's secrets redacted. */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactedUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
