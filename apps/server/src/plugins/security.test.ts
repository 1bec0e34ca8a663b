import Fastify from 'fastify';
import helmet from '@fastify/helmet';
import { describe, expect, it } from 'vitest';
import { testConfig } from '../../test/build-app.ts';
import { helmetOptions, registerSecurity } from './security.ts';

/** The headers of a 200 and of a 404 answer, without the ones that change per request. */
async function answerHeaders(register: (app: ReturnType<typeof Fastify>) => Promise<unknown>) {
  const app = Fastify();
  await register(app);
  app.get('/ok', async () => ({ ok: true }));
  const [ok, missing] = [await app.inject('/ok'), await app.inject('/missing')];
  await app.close();
  const stable = (headers: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(headers).filter(([name]) => name !== 'date'));
  return { ok: stable(ok.headers), missing: stable(missing.headers) };
}

describe('security headers', () => {
  it.each([['http://localhost:5000'], ['https://mail.example.com']])(
    'are the ones @fastify/helmet sets, on every answer (PUBLIC_URL %s)',
    async (publicUrl) => {
      const config = testConfig({ PUBLIC_URL: publicUrl });
      const ours = await answerHeaders((app) => registerSecurity(app, config));
      const plugin = await answerHeaders((app) => app.register(helmet, helmetOptions(config)));
      expect(ours).toEqual(plugin);
      expect(ours.ok['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(ours.missing['x-content-type-options']).toBe('nosniff');
      expect(ours.ok['strict-transport-security'] !== undefined).toBe(publicUrl.startsWith('https:'));
    },
  );
});
