import Fastify, { type FastifyInstance } from 'fastify';
import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import type { Config } from '../config.ts';

/** Paths that mail clients and providers call from elsewhere: tracking, one-click unsubscribe, webhooks. */
const CROSS_SITE_EXEMPT = [
  // A hosted lead form is posted from the sites it is embedded in (its confirmation link is not exempt).
  /^\/f\/[\w-]+(?:\?|$)/,
  /^\/t\//,
  /^\/u\//,
  /^\/api\/webhook\//,
  /^\/api\/webhooks\//,
];
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * What a sent mail loads from this app: the open pixel, uploaded images, the sample images and the
 * social icons (images/). A mail is read on another origin (a webmail, the editor's sandboxed preview), where helmet's
 * `Cross-Origin-Resource-Policy: same-origin` would block each of them (no image, no open counted).
 */
const MAIL_RESOURCES = /^\/(?:t\/o\/|uploads\/|sample-images\/|images\/)/;

/**
 * The headers @fastify/helmet sets with these options. They depend on the options alone, yet the
 * plugin builds helmet's middleware afresh (parsing the CSP directives) on every request, about
 * 30 µs of CPU each under load (bench/contacts-search-load.ts); so they are taken once, from a
 * request to a throwaway app with the plugin, as every header it has that a bare app lacks.
 */
async function helmetHeaders(options: FastifyHelmetOptions): Promise<Record<string, string>> {
  const headersOf = async (withHelmet: boolean) => {
    const probe = Fastify();
    if (withHelmet) await probe.register(helmet, options);
    probe.get('/', async () => 'probe');
    const { headers } = await probe.inject('/');
    await probe.close();
    return headers;
  };
  const bare = await headersOf(false);
  return Object.fromEntries(
    Object.entries(await headersOf(true)).flatMap(([name, value]) =>
      bare[name] === undefined && typeof value === 'string' ? [[name, value]] : [],
    ),
  );
}

/** Helmet's options: a CSP the built app passes; HSTS and upgrade-insecure-requests only behind https. */
export function helmetOptions(config: Config): FastifyHelmetOptions {
  return {
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
  };
}

/** Security headers (helmet's, see helmetOptions) and the cross-site request refusal. */
export async function registerSecurity(app: FastifyInstance, config: Config): Promise<void> {
  const securityHeaders = await helmetHeaders(helmetOptions(config));
  // On every answer, 404s and errors included, as the plugin's onRequest hook did.
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(securityHeaders);
    if (MAIL_RESOURCES.test(request.url)) reply.header('cross-origin-resource-policy', 'cross-origin');
    // API answers carry account data: never kept by a browser or a shared cache.
    if (request.url.startsWith('/api/')) reply.header('cache-control', 'no-store');
    done();
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
