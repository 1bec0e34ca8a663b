import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test/build-app.ts';
import { buildApp } from './app.ts';
import { routeGuards, type RouteGuardRow } from './lib/route-guard.ts';
import { adminChannelRoutes } from './modules/admin/index.ts';

/** One line per route, listmonk style: method, URL, guard. */
function printTable(rows: RouteGuardRow[]): string {
  const width = Math.max(...rows.map((row) => row.url.length));
  return rows.map((row) => `${row.method.padEnd(7)}${row.url.padEnd(width + 2)}${row.guard}`).join('\n') + '\n';
}

describe('the route table', () => {
  const t = useTestApp();

  it('gives every route exactly one guard, read from the hooks that run for it', async () => {
    // Built as main.ts builds it, with the admin channel it adds when the database is PGlite.
    const app = await buildApp(t().ctx, { logger: false, serveWebApp: false });
    await app.register(adminChannelRoutes('route-table-test-token'), t().ctx);
    await app.ready();
    try {
      const table = routeGuards(app);
      expect(table.length).toBeGreaterThan(50);
      // 'none': a route with neither a guard hook nor `guard: 'public'`; 'a + b': two at once.
      expect(table.filter((row) => row.guard === 'none' || row.guard.includes(' + '))).toEqual([]);
      // A route added, removed or guarded differently changes this file: review it, then update it
      // with `npx vitest run --project int-pglite -u apps/server/src/route-table.int.test.ts`.
      await expect(printTable(table)).toMatchFileSnapshot('./__snapshots__/route-table.txt');
    } finally {
      await app.close();
    }
  });

  it('refuses a route that states no guard: it does not compile, and without options it fails at registration', async () => {
    const app = await buildApp(t().ctx, { logger: false, serveWebApp: false });
    try {
      // @ts-expect-error -- `guard` is a required route option (lib/route-guard.ts)
      expect(() => app.get('/no-guard', { schema: {} }, async () => 'no')).toThrow('GET /no-guard states no guard');
      expect(() => app.get('/no-options', async () => 'no')).toThrow('GET /no-options states no guard');
      expect(() =>
        app.get('/guard-in-config', { guard: 'public', config: { guard: 'public' } }, async () => 'no'),
      ).toThrow('GET /guard-in-config: state its guard as `guard`, not in config');
    } finally {
      await app.close();
    }
  });

  it('names each kind of guard by what it checks', async () => {
    const app = t().app;
    const guardOf = (method: string, url: string) =>
      routeGuards(app).find((row) => row.method === method && row.url === url)?.guard;
    // The session guard (auth, API keys), the guards that also take an API key (contacts with a
    // full key, campaigns' reads and sends with a sending one too), a token guard and public routes.
    expect(guardOf('GET', '/api/api-keys')).toBe('session');
    expect(guardOf('GET', '/api/contacts')).toBe('session-or-key:full');
    expect(guardOf('GET', '/api/campaigns/:id')).toBe('session-or-key:sending');
    expect(guardOf('GET', '/api/auth/user')).toBe('session');
    expect(guardOf('POST', '/api/webhook/email')).toBe('webhook-token');
    expect(guardOf('POST', '/api/auth/login')).toBe('public');
    expect(guardOf('GET', '/t/o/:token')).toBe('public');
    // And the guard does what it says: a signed-out call to a session route is refused.
    const refused = await t().client().get('/api/campaigns/1');
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ message: 'Unauthorized' });
  });
});
