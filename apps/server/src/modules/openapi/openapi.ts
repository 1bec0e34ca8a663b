import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { routes, type RouteRow } from '../../lib/route-guard.ts';

/** The guards of routes a program may call with an API key: these make the public API. */
const KEY_GUARDS = new Map([
  ['session-or-key:full', 'A key with full access'],
  ['session-or-key:sending', 'Any key, full access or sending only'],
]);

type JsonSchema = Record<string, unknown>;

/**
 * Definitions a recursive schema needs (rich text, blocks in columns), gathered while a document is
 * built: zod writes them as the schema's own `$defs`, whose `#/$defs/…` references would resolve
 * against the document root; they go to `components.schemas` under names unique in the document.
 */
type SharedSchemas = Record<string, JsonSchema>;

function hoistDefinitions(schema: JsonSchema, shared: SharedSchemas): JsonSchema {
  const { $defs, ...rest } = schema as JsonSchema & { $defs?: Record<string, JsonSchema> };
  if (!$defs) return schema;
  const names = new Map<string, string>();
  for (const name of Object.keys($defs)) names.set(name, `Schema${Object.keys(shared).length + names.size + 1}`);
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) =>
        key === '$ref' && typeof inner === 'string' && inner.startsWith('#/$defs/')
          ? [key, `#/components/schemas/${names.get(inner.slice('#/$defs/'.length)) ?? ''}`]
          : [key, rewrite(inner)],
      ),
    );
  };
  for (const [name, definition] of Object.entries($defs))
    shared[names.get(name) ?? name] = rewrite(definition) as JsonSchema;
  return rewrite(rest) as JsonSchema;
}

/** A zod schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect); what JSON Schema cannot say (a transform) is left open. */
function jsonSchema(schema: unknown, io: 'input' | 'output', shared: SharedSchemas): JsonSchema | undefined {
  if (!(schema instanceof z.ZodType)) return undefined;
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  });
  return hoistDefinitions(rest, shared);
}

/** `/api/contacts/:id` as OpenAPI writes it, `/api/contacts/{id}`. */
function openApiPath(url: string): string {
  return url.replace(/:(\w+)/g, '{$1}');
}

/** The parameters of one location (`path`, `query`) from a route's object schema. */
function parameters(schema: unknown, location: 'path' | 'query', shared: SharedSchemas): JsonSchema[] {
  const object = jsonSchema(schema, 'input', shared);
  const properties = (object?.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((object?.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || required.has(name),
    schema: property,
  }));
}

function operation(row: RouteRow, shared: SharedSchemas): JsonSchema {
  const { schema } = row;
  const tag = row.url.split('/')[2] ?? 'api';
  const responses: Record<string, JsonSchema> = {};
  for (const [status, answer] of Object.entries((schema?.response ?? {}) as Record<string, unknown>)) {
    const content = jsonSchema(answer, 'output', shared);
    responses[status] = {
      description: status.startsWith('2') ? 'Success' : 'Error',
      ...(content ? { content: { 'application/json': { schema: content } } } : {}),
    };
  }
  if (Object.keys(responses).length === 0) responses['200'] = { description: 'Success' };
  responses['400'] = { description: 'Bad input: `{ message, fields }`', content: errorContent };
  responses['401'] = { description: 'No live API key or session', content: errorContent };
  responses['403'] = { description: "The key's scope or domain does not allow this", content: errorContent };
  responses['429'] = { description: "Over the key's requests per second (see Retry-After)", content: errorContent };
  const body = jsonSchema(schema?.body, 'input', shared);
  return {
    operationId: `${row.method.toLowerCase()}${row.url.replace(/[^a-zA-Z0-9]+(\w)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`,
    summary: `${row.method} ${row.url}`,
    description: KEY_GUARDS.get(row.guard),
    tags: [tag],
    parameters: [...parameters(schema?.params, 'path', shared), ...parameters(schema?.querystring, 'query', shared)],
    ...(body ? { requestBody: { required: true, content: { 'application/json': { schema: body } } } } : {}),
    responses,
  };
}

const errorContent = {
  'application/json': {
    schema: {
      type: 'object',
      properties: { message: { type: 'string' }, fields: { type: 'object', additionalProperties: { type: 'string' } } },
      required: ['message'],
    },
  },
};

/**
 * The OpenAPI 3.1 document of the public API: every route an API key may call, read from the route
 * table (so it can never list a route that does not exist, nor miss one that takes a key), with the
 * zod schemas each route was declared with as JSON Schema.
 */
export function openApiDocument(app: FastifyInstance, serverUrl: string): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const shared: SharedSchemas = {};
  for (const row of routes(app)) {
    if (!KEY_GUARDS.has(row.guard) || row.method === 'HEAD') continue;
    (paths[openApiPath(row.url)] ??= {})[row.method.toLowerCase()] = operation(row, shared);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Sendwell API',
      version: '1.0.0',
      description:
        'Send `Authorization: Bearer <API key>` (Settings → API keys). Each key may make the account’s requests per ' +
        'second (RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset headers; 429 with Retry-After beyond). A POST ' +
        'with an `Idempotency-Key` header (up to 256 characters) is answered once: a retry with the same key and body ' +
        'within 24 hours gets the first answer again; another body, or a retry while the first runs, gets 409.',
    },
    servers: [{ url: serverUrl }],
    security: [{ apiKey: [] }],
    components: {
      schemas: shared,
      securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'An API key, sw_live_…' } },
    },
    paths,
  };
}
