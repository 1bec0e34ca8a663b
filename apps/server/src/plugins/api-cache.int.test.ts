import { describe, expect, it } from 'vitest';
import { signUpUser, useTestApp } from '../../test/build-app.ts';

// Security finding 7: API JSON lacked Cache-Control: no-store.
describe('API answers and caches', () => {
  const t = useTestApp();

  it('marks every API answer no-store, errors and signed-in data included', async () => {
    const { client } = await signUpUser(t());
    for (const url of ['/api/health', '/api/auth/user', '/api/campaigns', '/api/no-such-route']) {
      expect((await client.get(url)).headers['cache-control'], url).toBe('no-store');
    }
    expect((await t().client().get('/api/auth/user')).headers['cache-control']).toBe('no-store');
  });
});
