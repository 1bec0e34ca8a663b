import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import cookie from '@fastify/cookie';
import { serializerCompiler } from 'fastify-type-provider-zod';
import type { AppContext } from './context.ts';
import type { Config } from './config.ts';
import { registerErrorHandler } from './plugins/error-handler.ts';
import { registerSecurity } from './plugins/security.ts';
import { registerWebApp } from './plugins/web-app.ts';
import { requireRouteGuards, routeMetaWithGuard } from './lib/route-guard.ts';
import { requestValidatorCompiler } from './lib/request-validation.ts';
import { serializeRequest } from './lib/request-log.ts';
import { authRoutes } from './modules/auth/index.ts';
import { pricingRoutes, paymentRoutes } from './modules/billing/index.ts';
import { analyticsRoutes } from './modules/analytics/index.ts';
import { brandKitRoutes, campaignRoutes, campaignTemplateRoutes, savedBlockRoutes } from './modules/campaigns/index.ts';
import { healthRoutes } from './modules/health/index.ts';
import { contactRoutes } from './modules/contacts/index.ts';
import { segmentRoutes, requestSegmentRefresh } from './modules/segments/index.ts';
import { sequenceRoutes, requestTriggerCheck } from './modules/sequences/index.ts';
import { trackingRoutes } from './modules/tracking/index.ts';
import { uploadRoutes } from './modules/uploads/index.ts';
import { inboundRoutes, bounceProviderRoutes } from './modules/inbound/index.ts';
import { bounceRoutes } from './modules/bounces/index.ts';
import { suppressionRoutes } from './modules/suppressions/index.ts';
import { outboxRoutes } from './modules/outbox/index.ts';
import { domainRoutes } from './modules/domains/index.ts';
import { notificationRoutes } from './modules/notifications/index.ts';
import { registerRateLimits } from './modules/rate-limits/index.ts';
import { senderAddressRoutes } from './modules/sender-addresses/index.ts';
import { aliasRoutes } from './modules/aliases/index.ts';
import { leadRoutes, leadFormRoutes } from './modules/leads/index.ts';
import { webhookRoutes } from './modules/webhooks/index.ts';
import { apiKeyRoutes, registerIdempotency } from './modules/api-keys/index.ts';
import { sunsetRoutes } from './modules/sunset/index.ts';
import { openApiRoutes } from './modules/openapi/index.ts';

export type BuildAppOptions = {
  logger?: boolean;
  serveWebApp?: boolean;
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: { write(line: string): void };
};

/** Config's TRUST_PROXY for Fastify: a hop count as the function Fastify makes of one (its typings leave numbers out). */
function trustProxyOption(
  trust: Config['trustProxy'],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

/** Builds the HTTP app in a fixed order: external plugins, app plugins, then the modules. */
export async function buildApp(ctx: AppContext, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: ctx.config.logLevel,
            redact: [
              'req.headers.cookie',
              'req.headers.authorization',
              'req.headers["x-sendwell-token"]',
              'res.headers["set-cookie"]',
            ],
            // The inbound webhook's `?token=` is a secret: request URLs are logged without it.
            serializers: { req: serializeRequest },
            ...(options.logStream ? { stream: options.logStream } : {}),
          },
    // The client address (rate limits, sign-in delays) comes from X-Forwarded-For only through the proxies TRUST_PROXY names.
    trustProxy: trustProxyOption(ctx.config.trustProxy),
    bodyLimit: 1024 * 1024,
    // Sessions end on shutdown only after in-flight requests finish; see main.ts.
    forceCloseConnections: 'idle',
    // printRoutes shows each route's guard, and routeGuards (the route table's test) reads it from there.
    // buildPrettyMeta is a documented router option (Fastify's Server reference) its types leave out.
    routerOptions: { buildPrettyMeta: routeMetaWithGuard } as FastifyServerOptions['routerOptions'],
  });
  // During shutdown, answers carry `Connection: close` so keep-alive sockets of in-flight requests
  // end with their response instead of holding the process open.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
  app.setValidatorCompiler(requestValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await registerSecurity(app, ctx.config);
  await app.register(cookie);
  registerErrorHandler(app);
  await registerRateLimits(app, ctx.config, ctx.db);
  // The built web app's files are public, and @fastify/static takes no route options to say so: they
  // come before requireRouteGuards, after which every route must state its guard.
  await registerWebApp(app, options.serveWebApp !== false);
  requireRouteGuards(app);
  // Idempotency-Key on POSTs made with an API key, for every route registered below.
  registerIdempotency(app, ctx.db);

  await app.register(healthRoutes, ctx);
  await app.register(authRoutes, ctx);
  await app.register(pricingRoutes);
  await app.register(paymentRoutes, ctx);
  await app.register(analyticsRoutes, ctx);
  await app.register(campaignRoutes, ctx);
  await app.register(campaignTemplateRoutes, ctx);
  await app.register(brandKitRoutes, ctx);
  await app.register(savedBlockRoutes, ctx);
  // Contacts tell segments and sequence triggers of changes through this callback, so the modules import one way only.
  const onContactsChanged = async (userId: string) => {
    await requestSegmentRefresh(ctx.queue, userId);
    await requestTriggerCheck(ctx.queue, userId);
  };
  await app.register(contactRoutes, { ...ctx, onContactsChanged });
  await app.register(segmentRoutes, ctx);
  await app.register(sequenceRoutes, ctx);
  await app.register(trackingRoutes, ctx);
  await app.register(uploadRoutes, ctx);
  await app.register(inboundRoutes, ctx);
  await app.register(bounceRoutes, ctx);
  await app.register(bounceProviderRoutes, ctx);
  await app.register(suppressionRoutes, ctx);
  await app.register(outboxRoutes, ctx);
  await app.register(domainRoutes, ctx);
  await app.register(notificationRoutes, ctx);
  await app.register(senderAddressRoutes, ctx);
  await app.register(aliasRoutes, ctx);
  // A lead converted into a contact changes lists, like any contact change.
  await app.register(leadRoutes, { ...ctx, onContactsChanged });
  await app.register(leadFormRoutes, ctx);
  await app.register(webhookRoutes, ctx);
  await app.register(apiKeyRoutes, ctx);
  await app.register(sunsetRoutes, ctx);
  await app.register(openApiRoutes, ctx);
  return app;
}
