import type { FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ALIAS_TESTS_PER_MINUTE,
  INBOUND_MAX_BYTES,
  aliasTestResultSchema,
  aliasTestsLimitedMessage,
  testAliasBodySchema,
  testForwardingBodySchema,
} from '@sendwell/contract/aliases';
import {
  INBOUND_TOKEN_HEADER,
  inboundAddressResponseSchema,
  inboundEnvelopeSchema,
  inboundWebhookJsonSchema,
  inboundWebhookResponseSchema,
  SEND_RAW_MESSAGE,
} from '@sendwell/contract/inbound';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { guardHook } from '../../lib/route-guard.ts';
import { requireUser } from '../auth/index.ts';
import { accountOfInboundToken, inboundAddressOf, regenerateInboundAddress } from './inbound.service.ts';
import { testAlias, testForwarding } from './alias-tests.ts';
import { receiveInbound, type InboundEnvelope } from './pipeline.ts';

const MAX_INBOUND_BYTES = INBOUND_MAX_BYTES;
/** JSON carries the message in base64 (4/3 of its size) plus a little envelope. */
const MAX_JSON_BYTES = Math.ceil((INBOUND_MAX_BYTES * 4) / 3) + 64 * 1024;

declare module 'fastify' {
  interface FastifyRequest {
    /** The account whose inbound token the request carried (set by requireInboundToken). */
    inboundUserId: string;
  }
}

/** The token a provider presented: the X-Sendwell-Token header, a Bearer token, or `?token=` (for URL-only providers). */
function presentedToken(request: FastifyRequest): string {
  const header = request.headers[INBOUND_TOKEN_HEADER.toLowerCase()];
  if (typeof header === 'string' && header.trim() !== '') return header.trim();
  const authorization = request.headers.authorization ?? '';
  if (authorization.toLowerCase().startsWith('bearer ')) return authorization.slice(7).trim();
  const query = request.query as { token?: unknown };
  return typeof query.token === 'string' ? query.token : '';
}

/**
 * The guard of inbound routes: finds the account by the token presented (401 without a known one)
 * and puts it on `request.inboundUserId`, the only account the request may touch.
 */
function requireInboundToken(db: Db) {
  return guardHook('webhook-token', async (request: FastifyRequest) => {
    const userId = await accountOfInboundToken(db, presentedToken(request));
    if (userId === null) throw new AppError('unauthorized', 'Unauthorized');
    request.inboundUserId = userId;
  });
}

/**
 * Route table:
 *   token POST /api/webhook/email   raw MIME (message/rfc822), ≤ 25 MB; bounces, complaints, auto-replies are
 *                                   classified (modules/bounces) and recorded against the token's account's
 *                                   messages only; answers { kind, reason, hard, recipient, matched }
 *   user  GET  /api/webhook/email-address        the account's own webhook address (with its token)
 *   user  POST /api/inbound/regenerate-address   a new token; the old address stops working. Not under
 *                                   /api/webhook/, whose paths skip the cross-site check (plugins/security.ts)
 */
export const inboundRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  app.decorateRequest('inboundUserId', '');
  app.addContentTypeParser(
    ['message/rfc822', 'text/plain', 'application/octet-stream'],
    { parseAs: 'buffer', bodyLimit: MAX_INBOUND_BYTES },
    (_request, body, done) => done(null, body),
  );

  await app.register(multipart, {
    limits: { fieldSize: MAX_INBOUND_BYTES, fields: 20, files: 2, fileSize: MAX_INBOUND_BYTES, parts: 30 },
  });

  app.post(
    '/api/webhook/email',
    {
      bodyLimit: MAX_JSON_BYTES,
      guard: requireInboundToken(ctx.db),
      schema: { response: { 200: inboundWebhookResponseSchema } },
    },
    async (request) => {
      const { raw, envelope } = await webhookMessage(request);
      const result = await receiveInbound(ctx, { raw, envelope, via: 'webhook', userId: request.inboundUserId });
      if (!result.stored) {
        const verdict = result.recipients.find((r) => r.verdict !== undefined)?.verdict;
        if (verdict) return verdict;
      }
      return {
        handled: 'routed' as const,
        messageId: result.messageId,
        recipients: result.recipients.flatMap((r) =>
          r.decision
            ? [
                {
                  recipient: r.recipient,
                  outcome: r.decision.outcome,
                  detail: r.decision.detail,
                  duplicate: r.duplicate ?? false,
                },
              ]
            : [],
        ),
      };
    },
  );

  const signedIn = requireUser(ctx.db, ctx.config);
  app.get(
    '/api/webhook/email-address',
    { guard: signedIn, schema: { response: { 200: inboundAddressResponseSchema } } },
    async (request) => inboundAddressOf(ctx.db, ctx.config, request.signedIn.user.id),
  );

  app.post(
    '/api/inbound/regenerate-address',
    { guard: signedIn, schema: { response: { 200: inboundAddressResponseSchema } } },
    async (request) => regenerateInboundAddress(ctx.db, ctx.config, request.signedIn.user.id),
  );

  // Each test sends a real message through the pipeline (and possibly out to a destination), so an
  // account may run only so many a minute; counted per account (the session guard runs first).
  const aliasTestLimit = {
    rateLimit: {
      max: ALIAS_TESTS_PER_MINUTE,
      timeWindow: 60_000,
      keyGenerator: (request: FastifyRequest) => request.signedIn.user.id,
      errorResponseBuilder: (_request: FastifyRequest, context: { ttl: number }) =>
        new AppError('rate_limited', aliasTestsLimitedMessage(Math.max(1, Math.ceil(context.ttl / 1000)))),
    },
  };

  app.post(
    '/api/test-alias',
    {
      guard: signedIn,
      config: aliasTestLimit,
      schema: { body: testAliasBodySchema, response: { 200: aliasTestResultSchema } },
    },
    async (request) => testAlias(ctx, request.signedIn.user, request.body),
  );

  app.post(
    '/api/test-forwarding',
    {
      guard: signedIn,
      config: aliasTestLimit,
      schema: { body: testForwardingBodySchema, response: { 200: aliasTestResultSchema } },
    },
    async (request) => testForwarding(ctx, request.signedIn.user, request.body),
  );
};

const tooLarge = () => new AppError('too_large', `The message is larger than ${MAX_INBOUND_BYTES / 1024 / 1024} MB`);

/** The envelope a raw message implies when the provider gives none: Return-Path (null for <>), else nothing. */
function headerEnvelope(raw: Buffer): InboundEnvelope {
  const head = raw.subarray(0, Math.min(raw.length, 64 * 1024)).toString('latin1');
  const returnPath = /^return-path:\s*<?([^>\r\n]*)>?/im.exec(head.split(/\r?\n\r?\n/)[0] ?? '');
  const found = returnPath ? (returnPath[1] ?? '').trim() : fromOf(head);
  // What a header field holds is the sender's text: anything but one address counts as none we can answer.
  const checked = inboundEnvelopeSchema.safeParse({ from: found });
  return { mailFrom: checked.success ? (checked.data.from ?? '') : 'unknown@invalid', rcptTo: [] };
}

function fromOf(head: string): string {
  const from = /^from:\s*(.*)$/im.exec(head.split(/\r?\n\r?\n/)[0] ?? '')?.[1] ?? '';
  return /<([^>]+)>/.exec(from)?.[1] ?? /[^\s<>"]+@[^\s<>"]+/.exec(from)?.[0] ?? 'unknown@invalid';
}

/**
 * The raw message and envelope of a webhook post, in any of its three forms: the raw MIME body;
 * multipart/form-data with the raw message in an `email` field (SendGrid's "post the raw, full MIME
 * message", Mailgun's `body-mime`) and the envelope in `envelope` (JSON) or `sender`/`recipient`;
 * JSON with `raw` (base64) and an optional `envelope: {from, to}`.
 */
async function webhookMessage(request: FastifyRequest): Promise<{ raw: Buffer; envelope: InboundEnvelope }> {
  if (request.isMultipart()) {
    const fields = new Map<string, string | Buffer>();
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const buffer = await part.toBuffer();
        if (part.file.truncated) throw tooLarge();
        fields.set(part.fieldname, buffer);
      } else if (typeof part.value === 'string') {
        if (part.valueTruncated) throw tooLarge();
        fields.set(part.fieldname, part.value);
      }
    }
    const email = fields.get('email') ?? fields.get('body-mime');
    if (email === undefined || email.length === 0) throw new AppError('bad_request', SEND_RAW_MESSAGE);
    const raw = Buffer.isBuffer(email) ? email : Buffer.from(email, 'utf8');
    const envelopeField = fields.get('envelope');
    let given: unknown;
    if (envelopeField !== undefined) {
      try {
        given = JSON.parse(envelopeField.toString()) as unknown;
      } catch {
        throw new AppError('bad_request', 'envelope must be JSON like {"from":"a@b.example","to":["c@d.example"]}', {
          envelope: 'not JSON',
        });
      }
    } else if (fields.has('recipient') || fields.has('sender')) {
      given = {
        ...(fields.has('sender') ? { from: fields.get('sender')?.toString() } : {}),
        ...(fields.has('recipient') ? { to: fields.get('recipient')?.toString() } : {}),
      };
    }
    const envelope = checkedEnvelope(given, raw);
    return { raw, envelope };
  }
  if (Buffer.isBuffer(request.body)) {
    if (request.body.length === 0) throw new AppError('bad_request', SEND_RAW_MESSAGE);
    if (request.body.length > MAX_INBOUND_BYTES) throw tooLarge();
    return { raw: request.body, envelope: headerEnvelope(request.body) };
  }
  const json = inboundWebhookJsonSchema.safeParse(request.body);
  const encoded = json.success ? (json.data.raw ?? json.data.email ?? json.data.rawEmail) : undefined;
  if (!json.success || encoded === undefined) throw new AppError('bad_request', SEND_RAW_MESSAGE);
  if (!/^[A-Za-z0-9+/=_\-\s]+$/.test(encoded))
    throw new AppError('bad_request', 'raw must be the base64 of the raw message');
  const raw = Buffer.from(encoded, 'base64');
  if (raw.length === 0) throw new AppError('bad_request', SEND_RAW_MESSAGE);
  if (raw.length > MAX_INBOUND_BYTES) throw tooLarge();
  return { raw, envelope: checkedEnvelope(json.data.envelope, raw) };
}

/**
 * The envelope a post gives (undefined: none), checked with the contract: one address each (400
 * naming the field otherwise, before anything is stored); what it leaves out comes from the
 * message's own header fields.
 */
function checkedEnvelope(given: unknown, raw: Buffer): InboundEnvelope {
  const fallback = headerEnvelope(raw);
  if (given === undefined) return fallback;
  const parsed = inboundEnvelopeSchema.safeParse(given);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = ['envelope', ...(issue?.path ?? []).filter((part) => typeof part === 'string')].join('.');
    const message = issue?.message ?? 'envelope is not valid';
    throw new AppError('bad_request', message, { [field]: message });
  }
  return { mailFrom: parsed.data.from ?? fallback.mailFrom, rcptTo: parsed.data.to ?? [] };
}
