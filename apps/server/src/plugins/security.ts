import type { FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';
import type { Config } from '../config.ts';

/** Paths that mail clients and providers call from elsewhere: tracking, one-click unsubscribe, webhooks. */
const CROSS_SITE_EXEMPT = [/^\/t\//, /^\/u\//, /^\/api\/webhook\//, /^\/api\/webhooks\//];
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Security headers (with a CSP the built app passes) and the cross-site request refusal. */
export async function registerSecurity(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Radix positions popovers with inline style attributes.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(config.secureCookies ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    strictTransportSecurity: config.secureCookies,
    crossOriginEmbedderPolicy: false,
  });

  const ownOrigin = new URL(config.publicUrl).origin;
  app.addHook('onRequest', async (request, reply) => {
    if (SAFE_METHODS.has(request.method)) return;
    const path = request.url;
    if (CROSS_SITE_EXEMPT.some((pattern) => pattern.test(path))) return;
    const origin = request.headers.origin;
    const fetchSite = request.headers['sec-fetch-site'];
    const sameHost = origin !== undefined && URL.canParse(origin) && new URL(origin).host === request.headers.host;
    const crossSite = origin !== undefined ? origin !== ownOrigin && !sameHost : fetchSite === 'cross-site';
    if (crossSite) return reply.status(403).send({ message: 'Cross-site request refused' });
  });
}
