import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/build-app.ts';
import { routeGuards } from '../../lib/route-guard.ts';

type Document = {
  openapi: string;
  paths: Record<string, Record<string, object>>;
};

describe('GET /api/openapi.json', () => {
  const t = useTestApp();

  it('lists every route an API key may call, and no other, and a maintained OpenAPI validator accepts it', async () => {
    const answer = await t().client().get('/api/openapi.json');
    expect(answer.statusCode).toBe(200);
    const document = answer.json() as Document;
    expect(document.openapi).toBe('3.1.0');

    const keyRoutes = routeGuards(t().app)
      .filter((row) => row.guard.startsWith('session-or-key:'))
      .map((row) => `${row.method.toLowerCase()} ${row.url.replace(/:(\w+)/g, '{$1}')}`)
      .sort();
    const listed = Object.entries(document.paths)
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method} ${path}`))
      .sort();
    expect(listed).toEqual(keyRoutes);
    expect(listed).toContain('post /api/campaigns/{id}/send');
    expect(listed).toContain('post /api/email-sequences/{id}/enrolments');
    expect(listed).not.toContain('get /api/api-keys');

    // A maintained validator of OpenAPI documents (against the OpenAPI 3.1 schemas) finds nothing wrong.
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });
});
