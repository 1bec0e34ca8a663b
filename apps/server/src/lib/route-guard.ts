import type { FastifyInstance } from 'fastify';

/**
 * What a route requires before its handler runs. Every route has exactly one: a guard hook among
 * its onRequest hooks, or `config: publicRoute`. The route table (routeGuards) is read from the
 * routes themselves, and a test keeps a snapshot of it, so a route added without a guard or a guard
 * dropped from one shows up as a failing test.
 */
type RouteGuard = 'session' | 'webhook-token' | 'admin-token' | 'public';
type HookGuard = Exclude<RouteGuard, 'public'>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Declared on routes anyone may call; routes with a guard hook leave it out. */
    guard?: 'public';
  }
}

/** Route config of a route anyone may call (sign-in, public files, links in mail). */
export const publicRoute = { guard: 'public' } as const;

/**
 * Guard hooks are known by their function name, the one thing about a hook Fastify keeps when it
 * binds the hook to its route ("bound route-guard:session").
 */
const GUARD_NAME = /^(?:bound )?route-guard:(.+)$/;

/** Names an onRequest hook as the guard it is, so the route table can tell which routes it guards. */
export function guardHook<Hook extends (...args: never[]) => unknown>(guard: HookGuard, hook: Hook): Hook {
  Object.defineProperty(hook, 'name', { value: `route-guard:${guard}` });
  return hook;
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
