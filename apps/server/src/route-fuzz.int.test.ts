import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { z } from 'zod';
import { importCsvBodySchema } from '@sendwell/contract/contacts';
import { importLeadsCsvBodySchema } from '@sendwell/contract/leads';
import { segmentFieldKinds, segmentOperatorsByKind } from '@sendwell/contract/segments';
import { signUpUser, useTestApp } from '../test/build-app.ts';
import { arf, dsn } from '../test/feedback-reports.ts';
import { sentCampaign } from '../test/sent-campaign.ts';
import { routes, type RouteRow } from './lib/route-guard.ts';

/**
 * Security finding 6 ("500 for bad input"), for every route at once: requests made of arbitrary
 * JSON and of each route's own schema bent out of shape (NUL characters, numbers past int32 and
 * 2^53, dates like 9999-12-31, deep nesting, long strings, wrong types) never answer 5xx. Runs are
 * seeded, so a failure repeats; fast-check prints the shrunk request that caused it.
 */

const RUNS_PER_ROUTE = 25;
const SEED = 20_260_601;

/** Routes that answer 503 on purpose here: Stripe is not configured in tests (the spec's development mode). */
const NOT_CONFIGURED = new Set([
  'POST /api/payment/create-checkout',
  'POST /api/payment/billing-portal',
  'POST /api/webhook/stripe',
]);
/** Sent without the session: signing out would leave the rest of the run signed out. */
const WITHOUT_SESSION = new Set(['POST /api/auth/logout']);
/** JSON bodies a handler parses itself (the route takes several content types), by route. */
const BODIES_PARSED_BY_HANDLER: Record<string, z.ZodType> = {
  'POST /api/contacts/import-csv': importCsvBodySchema,
  'POST /api/lead-sources/:id/import-csv': importLeadsCsvBodySchema,
};

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonSchema = {
  type?: string | string[];
  enum?: Json[];
  const?: Json;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  format?: string;
};

const segmentFields = Object.keys(segmentFieldKinds);
const segmentOperators = [...new Set(Object.values(segmentOperatorsByKind).flat())];

/** Strings that break things: NUL, lone surrogates, header injection, quoting, long text. */
const nastyStrings = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '%00',
  '\ud800',
  '\r\nBcc: x@y.z',
  "' OR 1=1 --",
  '\\',
  '{{firstName}}',
  '{{',
  '<script>alert(1)</script>',
  '9999-12-31',
  '0000-01-01',
  '9999-12-31T23:59:59-12:00',
  '+275760-09-13T00:00:00Z',
  '99999999999',
  '1e400',
  'ü'.repeat(300),
  'x'.repeat(5000),
];
/** Numbers past int32 and 2^53, fractions, extremes. */
const nastyNumbers = [
  0,
  -1,
  0.5,
  2 ** 31 - 1,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53,
  Number.MAX_SAFE_INTEGER,
  1e21,
  1e308,
  -1e308,
  Number.MIN_VALUE,
];
/** Nesting deeper than any schema: arrays and objects 2,000 levels down. */
const deepJson = [
  JSON.parse('['.repeat(2000) + ']'.repeat(2000)) as Json,
  JSON.parse('{"a":'.repeat(2000) + '1' + '}'.repeat(2000)) as Json,
];
/** What replaces a value somewhere in a request: any type, nasty strings and numbers, deep nesting. */
const nastyArb: fc.Arbitrary<Json> = fc.oneof(
  { arbitrary: fc.constantFrom(...nastyStrings), weight: 4 },
  { arbitrary: fc.constantFrom(...nastyNumbers), weight: 3 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 20 }), weight: 1 },
  { arbitrary: fc.double(), weight: 1 },
  { arbitrary: fc.constantFrom<Json>(true, null, [], {}), weight: 1 },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>, weight: 1 },
  { arbitrary: fc.constantFrom(...deepJson), weight: 1 },
);

/**
 * Plausible strings by the field's name, so a generated request gets past the first checks (a
 * valid email where an email goes) and a mutation elsewhere reaches the code behind them.
 */
function plausibleString(key: string, ownIds: string[]): fc.Arbitrary<string> {
  const pick = (...values: string[]) => fc.constantFrom(...values);
  if (/email/i.test(key)) return pick('fuzz@x.io', 'Ada@Example.com', 'new@x.io');
  if (key === 'domain') return pick('acme.example', 'mail.fuzz.example', 'www.x.io');
  if (/url|href/i.test(key)) return pick('https://example.com/a', 'http://x.io/?a=1');
  if (key === 'src') return pick('/uploads/x.png', 'https://example.com/a.png');
  if (key === 'scheduledAt') return pick('2999-01-01T00:00:00Z', '2000-01-01T00:00:00Z', '9999-12-31T23:59:59Z');
  if (key === 'field') return pick(...segmentFields);
  if (key === 'operator') return pick(...segmentOperators, 'AND', 'OR');
  if (key === 'value') return pick('1', '75', '1.5', 'a', 'vip', '2026-06-15', '30 days ago', '9999-12-31', ...ownIds);
  if (/password/i.test(key)) return pick('secret12');
  if (key === 'csvData') return pick('email,firstName\nfuzz@x.io,Ada\n', 'email\n', 'name\nx\n');
  if (/color/i.test(key)) return pick('#1a2b3c', '#fff');
  if (/Id$/.test(key)) return pick(...ownIds);
  return fc.oneof(pick('Fuzz', 'a', 'Hello {{firstName}}', 'true', '1'), fc.string({ minLength: 1, maxLength: 12 }));
}

function plausibleNumber(key: string, ownIds: string[]): fc.Arbitrary<number> {
  if (/ids?$/i.test(key)) return fc.constantFrom(...ownIds.map(Number));
  if (key === 'amount') return fc.constantFrom(5, 19.99, 1_000_000);
  return fc.integer({ min: 0, max: 60 });
}

/** Values shaped by a JSON schema (from the route's zod schema), named fields plausible. */
function plausible(schema: JsonSchema | undefined, key: string, ownIds: string[], depth = 0): fc.Arbitrary<Json> {
  if (!schema || depth > 8) return fc.constantFrom<Json>('Fuzz', 1, null);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const choices = schema.anyOf ?? schema.oneOf ?? (schema.allOf ? schema.allOf.slice(0, 1) : undefined);
  if (choices && choices.length > 0)
    return fc.oneof(...choices.map((choice) => plausible(choice, key, ownIds, depth + 1)));
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : ['string'];
  return fc.oneof(
    ...types.map((type): fc.Arbitrary<Json> => {
      switch (type) {
        case 'string':
          return plausibleString(key, ownIds);
        case 'integer':
        case 'number':
          return plausibleNumber(key, ownIds);
        case 'boolean':
          return fc.boolean();
        case 'null':
          return fc.constant(null);
        case 'array':
          return fc.array(plausible(schema.items, key, ownIds, depth + 1), { minLength: 1, maxLength: 3 });
        case 'object': {
          const shape = Object.fromEntries(
            Object.entries(schema.properties ?? {}).map(([name, property]) => [
              name,
              plausible(property, name, ownIds, depth + 1),
            ]),
          );
          return fc.record(shape, { requiredKeys: schema.required ?? [] });
        }
        default:
          return fc.constant(null);
      }
    }),
  );
}

/** Every place in a value (the value itself first) down to a few levels: where a mutation may land. */
function placesIn(value: Json): (string | number)[][] {
  const places: (string | number)[][] = [[]];
  const walk = (item: Json, path: (string | number)[]) => {
    if (item === null || typeof item !== 'object' || path.length >= 8) return;
    for (const [key, child] of Object.entries(item)) {
      const at = [...path, Array.isArray(item) ? Number(key) : key];
      places.push(at);
      walk(child, at);
    }
  };
  walk(value, []);
  return places;
}

/** `value` with `replacement` put at `path`, copying only the containers along the path. */
function replaceAt(value: Json, path: (string | number)[], replacement: Json): Json {
  const [step, ...rest] = path;
  if (step === undefined || value === null || typeof value !== 'object') return replacement;
  if (Array.isArray(value)) {
    const copy = [...value];
    copy[Number(step)] = replaceAt(copy[Number(step)] ?? null, rest, replacement);
    return copy;
  }
  return { ...value, [step]: replaceAt(value[step] ?? null, rest, replacement) };
}

/** A value made bad in its own type: NUL inside a string, a number past int32 or 2^53 for a number. */
function corrupted(value: Json, choice: number, replacement: Json): Json {
  if (typeof value === 'string') {
    const bad = [`${value}\u0000`, `\u0000${value}`, value.repeat(400), '9999-12-31', '0000-01-01', ''];
    return bad[choice % bad.length] ?? value;
  }
  if (typeof value === 'number') return nastyNumbers[choice % nastyNumbers.length] ?? value;
  return replacement;
}

/**
 * A plausible value for the schema, bent out of shape at up to two places (made bad in its own
 * type, or replaced by anything): most requests carry one bad value among good ones, which is what
 * reaches the code behind the first field's check.
 */
function bentValue(schema: JsonSchema | undefined, ownIds: string[]): fc.Arbitrary<Json> {
  const mutation = fc.record({
    place: fc.nat(),
    kind: fc.constantFrom('corrupt', 'corrupt', 'replace', 'add key'),
    choice: fc.nat(),
    replacement: nastyArb,
  });
  return fc.tuple(plausible(schema, '', ownIds), fc.array(mutation, { maxLength: 2 })).map(([value, mutations]) => {
    let bent = value;
    for (const { place, kind, choice, replacement } of mutations) {
      const places = placesIn(bent);
      const path = places[place % places.length] ?? [];
      if (kind === 'add key' && bent !== null && typeof bent === 'object' && !Array.isArray(bent))
        bent = { ...bent, extra: replacement };
      else if (kind === 'corrupt') bent = replaceAt(bent, path, corrupted(valueAt(bent, path), choice, replacement));
      else bent = replaceAt(bent, path, replacement);
    }
    return bent;
  });
}

function valueAt(value: Json, path: (string | number)[]): Json {
  let at: Json = value;
  for (const step of path)
    at = at !== null && typeof at === 'object' ? ((at as Record<string, Json>)[step] ?? null) : null;
  return at;
}

/** The route's zod schema for one part of the request as JSON schema (input side), if it has one. */
function jsonSchemaOf(schema: unknown): JsonSchema | undefined {
  if (!(schema instanceof z.ZodType)) return undefined;
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

/** Every UTF-8 byte as %XX (encodeURIComponent throws on a lone surrogate). */
function percentEncoded(value: string): string {
  return [...Buffer.from(value, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
}

/** A path parameter: the user's own ids, ids that cannot be, and strings that are no id at all. */
const paramArb = (ownIds: string[]) =>
  fc.oneof(
    { arbitrary: fc.constantFrom(...ownIds), weight: 3 },
    {
      arbitrary: fc.constantFrom('0', '-1', '2147483647', '2147483648', '9007199254740993', '1e3', '1.5', 'NaN', 'abc'),
      weight: 2,
    },
    {
      arbitrary: fc
        .constantFrom(...nastyStrings, 'ok')
        .filter((value) => value !== '')
        .map(percentEncoded),
      weight: 1,
    },
  );

/** A query string from values shaped by the query schema (arrays repeat their key), plus stray keys. */
function queryStringOf(value: Json): string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return '';
  const search = new URLSearchParams();
  for (const [key, item] of Object.entries(value)) {
    for (const one of Array.isArray(item) ? item : [item])
      search.append(key, typeof one === 'string' ? one : JSON.stringify(one));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

type FuzzRequest = { url: string; payload?: string; contentType?: string };

function requestArb(route: RouteRow, ownIds: string[]): fc.Arbitrary<FuzzRequest> {
  const names = [...route.url.matchAll(/:(\w+)/g)].map((match) => match[1] ?? '');
  const params = fc.tuple(...names.map(() => paramArb(ownIds)));
  const query = bentValue(jsonSchemaOf(route.schema?.querystring) ?? { type: 'object', properties: {} }, ownIds);
  const hasBody = route.method !== 'GET' && route.method !== 'HEAD';
  const handlerBody = BODIES_PARSED_BY_HANDLER[`${route.method} ${route.url}`];
  const body: fc.Arbitrary<Pick<FuzzRequest, 'payload' | 'contentType'>> = hasBody
    ? fc.oneof(
        {
          arbitrary: bentValue(jsonSchemaOf(route.schema?.body ?? handlerBody), ownIds).map((value) => ({
            payload: JSON.stringify(value),
          })),
          weight: 8,
        },
        {
          arbitrary: fc.constantFrom('{', '{"a":}', 'null', '"text"', '[]').map((payload) => ({ payload })),
          weight: 1,
        },
        {
          arbitrary: fc.string({ maxLength: 30 }).map((payload) => ({ payload, contentType: 'text/plain' })),
          weight: 1,
        },
      )
    : fc.constant({});
  return fc.record({ params, query, body }).map(({ params: values, query: queryValue, body: sent }) => {
    let index = 0;
    const path = route.url.replace(/:(\w+)/g, () => values[index++] ?? '');
    return { url: `${path}${queryStringOf(queryValue)}`, ...sent };
  });
}

/** What a failed check says, shortened: the request that failed and the answer it got. */
function failureSummary<Values>(result: fc.RunDetails<Values>): string {
  const request = JSON.stringify(result.counterexample)?.slice(0, 600);
  const answer = result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance);
  return `${request} → ${answer}`;
}

describe('no route answers 5xx to bad input (security finding 6)', () => {
  // Nothing answers DNS: domain checks fail fast instead of asking the network.
  const t = useTestApp({ DNS_SERVERS: '127.0.0.1:9' });

  it('fuzzes every route with its own schema bent out of shape, signed in', { timeout: 240_000 }, async () => {
    const { client } = await signUpUser(t());
    const cookie = client.cookie() ?? '';
    // One of each row a route can name, so some requests reach the code behind the id checks.
    const list = (await client.post('/api/contact-lists', { name: 'Fuzz' })).json() as { id: number };
    const contact = (await client.post('/api/contacts', { email: 'fuzz@x.io', firstName: 'F', lastName: 'Z' })).json();
    const campaign = (
      await client.post('/api/campaigns', {
        name: 'F',
        subject: 'S',
        fromEmail: 'news@acme.example',
        content: { html: 'x' },
      })
    ).json();
    const segment = (
      await client.post('/api/contact-segments', {
        name: 'F',
        conditions: { operator: 'AND', rules: [{ field: 'firstName', operator: 'contains', value: 'f' }] },
      })
    ).json();
    const sequence = (await client.post('/api/email-sequences', { name: 'F' })).json();
    const ownIds = [list.id, contact.id, campaign.id, segment.id, sequence.id].map(String);

    // Deletions last, so the rows above stay there for the other routes to reach.
    const table = routes(t().app).sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
    expect(table.length).toBeGreaterThan(50);
    const failures: string[] = [];
    for (const route of table) {
      const name = `${route.method} ${route.url}`;
      const result = await fc.check(
        fc.asyncProperty(requestArb(route, ownIds), async (request) => {
          const response = await t().app.inject({
            method: route.method as 'GET',
            url: request.url,
            remoteAddress: '10.9.9.9',
            headers: {
              ...(WITHOUT_SESSION.has(name) ? {} : { cookie }),
              ...(request.payload === undefined ? {} : { 'content-type': request.contentType ?? 'application/json' }),
            },
            ...(request.payload === undefined ? {} : { payload: request.payload }),
          });
          const allowed = response.statusCode < 500 || (response.statusCode === 503 && NOT_CONFIGURED.has(name));
          if (!allowed) throw new Error(`${response.statusCode} ${response.body.slice(0, 200)}`);
        }),
        { numRuns: RUNS_PER_ROUTE, seed: SEED, endOnFailure: true },
      );
      if (result.failed) {
        failures.push(`${name}: ${failureSummary(result)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('feeds the inbound webhook bounce and complaint reports bent out of shape, with a token', async () => {
    const { client } = await signUpUser(t());
    const sent = (await sentCampaign(t(), client, 'Reports')).sends;
    const { token } = (await client.get('/api/webhook/email-address')).json() as { token: string };

    const messageId = fc.oneof(
      fc.constantFrom(...sent.map((row) => row.messageId ?? '')),
      fc.constantFrom(...sent.map((row) => row.messageId ?? '')).map((id) => id.replace('>', '\u0000>')),
      fc.constantFrom('<unknown@x>', '', '<>', '<a\u0000b@x>', `<${'x'.repeat(5000)}@x>`),
    );
    const text = fc.oneof(
      fc.constantFrom(...sent.map((row) => row.email), ...nastyStrings),
      fc.string({ maxLength: 20 }),
    );
    const report = fc.oneof(
      fc.tuple(messageId, text).map(([id, recipient]) => arf(id, recipient)),
      fc
        .tuple(messageId, text, fc.oneof(fc.constantFrom('5.1.1', '4.2.2'), text), fc.constantFrom('failed', 'delayed'))
        .map(([id, recipient, status, action]) => dsn(id, recipient, status, action)),
    );
    /** A report cut short, a line broken, or bytes that are no text, now and then. */
    const raw = fc.oneof(
      { arbitrary: report, weight: 6 },
      {
        arbitrary: fc
          .tuple(
            report,
            fc.nat(),
            fc.constantFrom('\u0000', '\r', '--b1--', '\r\n\r\n', 'Content-Type: multipart/mixed; boundary='),
          )
          .map(
            ([message, at, insert]) =>
              message.slice(0, at % message.length) + insert + message.slice(at % message.length),
          ),
        weight: 3,
      },
      { arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 200 }), weight: 1 },
    );
    const result = await fc.check(
      fc.asyncProperty(raw, async (payload) => {
        const response = await t().app.inject({
          method: 'POST',
          url: '/api/webhook/email',
          headers: { 'content-type': 'message/rfc822', 'x-sendwell-token': token },
          payload: Buffer.from(payload),
        });
        if (response.statusCode >= 500) throw new Error(`${response.statusCode} ${response.body.slice(0, 200)}`);
      }),
      { numRuns: 60, seed: SEED, endOnFailure: true },
    );
    expect(result.failed ? failureSummary(result) : '').toBe('');
  });
});
