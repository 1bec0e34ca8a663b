import type {
  ContextConfigDefault,
  FastifyBaseLogger,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  FastifyTypeProvider,
  FastifyTypeProviderDefault,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerBase,
  RawServerDefault,
  RouteGenericInterface,
} from 'fastify';

/**
 * What a route requires before its handler runs. Every route states exactly one, as its `guard`
 * option, next to its path: `'public'`, or the guard its module builds (requireUser for 'session').
 * The route table (routeGuards) is read back from the hooks that run for each route, and a test keeps
 * a snapshot of it, so a route added, dropped or guarded differently shows up as a failing test.
 */
type RouteGuard =
  'session' | 'session-or-key:full' | 'session-or-key:sending' | 'webhook-token' | 'admin-token' | 'public';
type HookGuard = Exclude<RouteGuard, 'public'>;

/** A check that runs as the first onRequest hook of the routes it guards; it throws to refuse the request. */
export type GuardHook = {
  readonly guard: HookGuard;
  readonly onRequest: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
};

/** The `guard` route option: anyone may call the route, or the hook that checks the caller. */
type GuardOption = 'public' | GuardHook;

declare module 'fastify' {
  // Fastify's own route options, made to require a guard: a route declared without one does not
  // compile (the type parameters repeat Fastify's, as declaration merging requires).
  interface RouteShorthandOptions<
    /* eslint-disable @typescript-eslint/no-unused-vars -- merged with Fastify's declaration, which uses them */
    RawServer extends RawServerBase = RawServerDefault,
    RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
    RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
    RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
    ContextConfig = ContextConfigDefault,
    SchemaCompiler extends FastifySchema = FastifySchema,
    TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault,
    Logger extends FastifyBaseLogger = FastifyBaseLogger,
    /* eslint-enable @typescript-eslint/no-unused-vars */
  > {
    /** Who may call the route; requireRouteGuards turns it into the route's first onRequest hook. */
    guard: GuardOption;
  }
  interface FastifyContextConfig {
    /** Set by requireRouteGuards on routes whose `guard` is 'public' (the route table reads it); never by hand. */
    guard?: 'public';
  }
}

/**
 * Guard hooks are known by their function name, the one thing about a hook Fastify keeps when it
 * binds the hook to its route ("bound route-guard:session").
 */
const GUARD_NAME = /^(?:bound )?route-guard:(.+)$/;

/** A guard for routes' `guard` option: `check` runs first for each of them, named so the route table shows `guard`. */
export function guardHook(guard: HookGuard, check: GuardHook['onRequest']): GuardHook {
  Object.defineProperty(check, 'name', { value: `route-guard:${guard}` });
  return { guard, onRequest: check };
}

/**
 * Makes every route registered after this (the modules', the admin channel's) state its guard:
 * a route without one (declared with no options at all, which the types cannot catch) fails at
 * registration; one with a hook guard gets it as its first onRequest hook, ahead of any other
 * (per-account rate limits key on request.signedIn); a public one is marked so for the route table.
 */
export function requireRouteGuards(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const guard: GuardOption | undefined = route.guard;
    const where = `${String(route.method)} ${route.url}`;
    if (guard === undefined) throw new Error(`${where} states no guard: give it the \`guard\` option`);
    if (route.config?.guard !== undefined) throw new Error(`${where}: state its guard as \`guard\`, not in config`);
    if (guard === 'public') route.config = { ...route.config, guard };
    else route.onRequest = [guard.onRequest, ...(route.onRequest === undefined ? [] : [route.onRequest].flat())];
  });
}

export type RouteGuardRow = { method: string; url: string; guard: string };

/** The schemas a route was declared with (zod schemas here), by the part of the request or answer they check. */
type RouteSchemas = Partial<Record<'body' | 'querystring' | 'params' | 'headers' | 'response', unknown>>;
export type RouteRow = RouteGuardRow & { schema: RouteSchemas | undefined };

/** What Fastify keeps of a route (its context) that the guard and schemas are read from. */
type RouteStore = {
  onRequest?: { name: string }[] | null;
  config?: { guard?: string };
  schema?: RouteSchemas;
} & Record<string, unknown>;
type RouterRoute = { method: string; path: string; store?: RouteStore };

/** The guard of one route: its guard hooks' names and its declaration, 'none' without either. */
function guardOf(store: RouteStore | undefined): string {
  const guards = (store?.onRequest ?? []).flatMap((hook) => GUARD_NAME.exec(hook.name)?.[1] ?? []);
  if (store?.config?.guard !== undefined) guards.push(store.config.guard);
  return guards.length === 0 ? 'none' : guards.join(' + ');
}

/** The route properties Fastify's own printRoutes shows (its default buildPrettyMeta's). */
const SHOWN_PROPERTIES = [
  'errorHandler',
  'logLevel',
  'logSerializers',
  'onRequest',
  'preParsing',
  'preValidation',
  'preHandler',
  'preSerialization',
  'onSend',
  'onResponse',
  'onTimeout',
  'onError',
  'onRequestAbort',
];

let collecting: RouteRow[] | null = null;

/**
 * Fastify's routerOptions.buildPrettyMeta (documented in its Server reference): what printRoutes
 * shows of a route, here Fastify's own choice plus `guard`. printRoutes calls it once per route, so
 * routeGuards collects the table through it.
 */
export function routeMetaWithGuard(route: RouterRoute): Record<string, unknown> {
  const guard = guardOf(route.store);
  collecting?.push({ method: route.method, url: route.path, guard, schema: route.store?.schema });
  const shown: Record<string, unknown> = {};
  for (const key of SHOWN_PROPERTIES) shown[key] = route.store?.[key];
  return { ...shown, guard };
}

/**
 * Every route of a ready app (built with routeMetaWithGuard) with its guard, sorted by URL and
 * method; a HEAD route guarded like the GET beside it (Fastify adds one to each GET) is left out.
 */
export function routeGuards(app: FastifyInstance): RouteGuardRow[] {
  return routes(app).map(({ method, url, guard }) => ({ method, url, guard }));
}

/** Every route of a ready app as routeGuards lists them, with the schemas each was declared with. */
export function routes(app: FastifyInstance): RouteRow[] {
  collecting = [];
  let rows: RouteRow[];
  try {
    app.printRoutes({ includeMeta: ['guard'] });
    rows = collecting;
  } finally {
    collecting = null;
  }
  const getGuards = new Map(rows.filter((row) => row.method === 'GET').map((row) => [row.url, row.guard]));
  return rows
    .filter((row) => !(row.method === 'HEAD' && getGuards.get(row.url) === row.guard))
    .sort((a, b) => a.url.localeCompare(b.url) || a.method.localeCompare(b.method));
}
