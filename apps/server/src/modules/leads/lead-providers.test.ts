import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hunterCredits, hunterDomainSearch, searchGooglePlaces, searchYelp } from './lead-providers.ts';

/**
 * One local server playing Google Places, Yelp and Hunter, answering in each one's documented
 * shape. The key picks the case: 'good', 'bad' (refused key), 'busy' (rate limited).
 */
type Seen = { method: string; url: string; headers: IncomingMessage['headers']; body: string };
const seen: Seen[] = [];
let server: Server;
let base: string;

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      const url = new URL(request.url ?? '/', 'http://local');
      if (url.pathname === '/v1/places:searchText') {
        const key = request.headers['x-goog-api-key'];
        if (key === 'bad') {
          return send(response, 400, {
            error: {
              code: 400,
              message: 'API key not valid. Please pass a valid API key.',
              status: 'INVALID_ARGUMENT',
            },
          });
        }
        if (key === 'busy') {
          return send(response, 429, {
            error: { code: 429, message: 'Quota exceeded for quota metric', status: 'RESOURCE_EXHAUSTED' },
          });
        }
        return send(response, 200, {
          places: [
            {
              id: 'ChIJ1',
              displayName: { text: 'Smith Family Dentistry', languageCode: 'en' },
              formattedAddress: '100 Congress Ave, Austin, TX 78701, USA',
              websiteUri: 'https://smithdental.example/',
              internationalPhoneNumber: '+1 512-555-0100',
              types: ['dentist', 'health', 'point_of_interest'],
              primaryTypeDisplayName: { text: 'Dentist', languageCode: 'en-US' },
            },
            { id: 'ChIJ2', displayName: { text: 'Bare Place' } },
          ],
        });
      }
      if (url.pathname === '/v3/businesses/search') {
        const auth = request.headers.authorization;
        if (auth === 'Bearer bad') {
          return send(response, 401, {
            error: { code: 'TOKEN_INVALID', description: 'Invalid access token or authorization header.' },
          });
        }
        if (auth === 'Bearer busy') {
          return send(
            response,
            429,
            {
              error: {
                code: 'TOO_MANY_REQUESTS_PER_SECOND',
                description: 'You have exceeded the queries-per-second limit for this endpoint.',
              },
            },
            { 'retry-after': '2' },
          );
        }
        return send(response, 200, {
          businesses: [
            {
              id: 'yelp-1',
              alias: 'ace-plumbing-denver',
              name: 'Ace Plumbing',
              url: 'https://www.yelp.com/biz/ace-plumbing-denver',
              phone: '+13035550100',
              display_phone: '(303) 555-0100',
              categories: [{ alias: 'plumbing', title: 'Plumbing' }],
              location: { display_address: ['1 Main St', 'Denver, CO 80202'] },
            },
          ],
          total: 1,
        });
      }
      if (url.pathname === '/v2/account' || url.pathname === '/v2/domain-search') {
        const key = url.searchParams.get('api_key');
        if (key === 'bad') {
          return send(response, 401, {
            errors: [{ id: 'authentication_failed', code: 401, details: 'No user found for the API key supplied' }],
          });
        }
        if (key === 'busy') {
          return send(response, 429, {
            errors: [{ id: 'too_many_requests', code: 429, details: "You've reached your usage limit." }],
          });
        }
        if (url.pathname === '/v2/account') {
          return send(response, 200, {
            data: { email: 'me@x.example', requests: { searches: { used: 12, available: 25 } } },
          });
        }
        return send(response, 200, {
          data: {
            domain: url.searchParams.get('domain'),
            organization: 'Smith Dental',
            emails: [
              {
                value: 'Jane@SmithDental.example',
                type: 'personal',
                confidence: 94,
                first_name: 'Jane',
                last_name: 'Smith',
                position: 'Dentist',
              },
              {
                value: 'info@smithdental.example',
                type: 'generic',
                confidence: 88,
                first_name: null,
                last_name: null,
                position: null,
              },
            ],
          },
          meta: { results: 2 },
        });
      }
      send(response, 404, { error: 'not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('Google Places Text Search adapter', () => {
  it('answers businesses with name, website, phone, address and categories', async () => {
    const result = await searchGooglePlaces(base, 'good', 'Dentist in Austin, TX', 10);
    expect(result).toEqual({
      kind: 'ok',
      items: [
        {
          provider: 'google',
          providerId: 'ChIJ1',
          name: 'Smith Family Dentistry',
          website: 'https://smithdental.example/',
          phone: '+1 512-555-0100',
          address: '100 Congress Ave, Austin, TX 78701, USA',
          categories: ['Dentist', 'dentist', 'health', 'point of interest'],
          providerUrl: null,
        },
        expect.objectContaining({ providerId: 'ChIJ2', name: 'Bare Place', website: null, categories: [] }),
      ],
    });
    const request = seen.find((s) => s.url === '/v1/places:searchText');
    expect(request?.method).toBe('POST');
    expect(request?.headers['x-goog-fieldmask']).toContain('places.displayName');
    expect(JSON.parse(request?.body ?? '{}')).toEqual({ textQuery: 'Dentist in Austin, TX', pageSize: 10 });
  });

  it('says when the key is refused or rate limited', async () => {
    expect(await searchGooglePlaces(base, 'bad', 'x', 5)).toMatchObject({
      kind: 'bad-key',
      message: /API key not valid/,
    });
    expect(await searchGooglePlaces(base, 'busy', 'x', 5)).toMatchObject({
      kind: 'rate-limited',
      message: /Quota exceeded/,
    });
    expect(await searchGooglePlaces('http://127.0.0.1:1', 'good', 'x', 5)).toMatchObject({ kind: 'failed' });
  });
});

describe('Yelp business search adapter', () => {
  it('answers businesses, with Yelp’s page kept apart from a website', async () => {
    const result = await searchYelp(base, 'good', 'Plumber', 'Denver, CO', 20);
    expect(result).toEqual({
      kind: 'ok',
      items: [
        {
          provider: 'yelp',
          providerId: 'yelp-1',
          name: 'Ace Plumbing',
          website: null,
          phone: '(303) 555-0100',
          address: '1 Main St, Denver, CO 80202',
          categories: ['Plumbing'],
          providerUrl: 'https://www.yelp.com/biz/ace-plumbing-denver',
        },
      ],
    });
    const request = seen.find((s) => s.url.startsWith('/v3/businesses/search'));
    expect(request?.url).toBe('/v3/businesses/search?term=Plumber&location=Denver%2C+CO&limit=20');
    expect(request?.headers.authorization).toBe('Bearer good');
  });

  it('says when the key is refused or rate limited', async () => {
    expect(await searchYelp(base, 'bad', 'x', 'y', 5)).toMatchObject({
      kind: 'bad-key',
      message: /Invalid access token/,
    });
    expect(await searchYelp(base, 'busy', 'x', 'y', 5)).toEqual({
      kind: 'rate-limited',
      message: expect.stringMatching(/queries-per-second/),
      retryAfterSeconds: 2,
    });
  });
});

describe('Hunter adapters', () => {
  it('reads the credits left, then the published addresses of a domain', async () => {
    expect(await hunterCredits(base, 'good')).toEqual({ kind: 'ok', items: { used: 12, available: 25 } });
    const result = await hunterDomainSearch(base, 'good', 'smithdental.example', 10);
    expect(result).toEqual({
      kind: 'ok',
      items: [
        {
          email: 'jane@smithdental.example',
          firstName: 'Jane',
          lastName: 'Smith',
          position: 'Dentist',
          type: 'personal',
          confidence: 94,
        },
        {
          email: 'info@smithdental.example',
          firstName: '',
          lastName: '',
          position: null,
          type: 'generic',
          confidence: 88,
        },
      ],
    });
  });

  it('says when the key is refused or rate limited', async () => {
    expect(await hunterCredits(base, 'bad')).toMatchObject({ kind: 'bad-key', message: /No user found/ });
    expect(await hunterDomainSearch(base, 'busy', 'x.example', 5)).toMatchObject({
      kind: 'rate-limited',
      message: /usage limit/,
    });
  });
});
