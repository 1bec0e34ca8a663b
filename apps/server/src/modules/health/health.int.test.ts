import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/build-app.ts';

describe('GET /api/health', () => {
  const t = useTestApp();

  it('reports the database and the queue', async () => {
    const response = await t().client().get('/api/health');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      status: 'ok',
      database: { ok: true, driver: process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite' },
      queue: { ok: true },
    });
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const response = await t().client().get('/api/nope');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'No route for GET /api/nope' });
  });
});
