import { createServer, type Server, type ServerResponse } from 'node:http';

/** What the local Google Places finds for every search (Text Search (New)'s documented answer shape). */
export const FAKE_PLACES = [
  {
    id: 'ChIJ-e2e-ridge',
    displayName: { text: 'Ridgeway Plumbing', languageCode: 'en' },
    formattedAddress: '12 Ridge Rd, Austin, TX 78701, USA',
    websiteUri: 'https://ridgeway-plumbing.e2e.test/',
    internationalPhoneNumber: '+1 512-555-0142',
    types: ['plumber', 'point_of_interest'],
    primaryTypeDisplayName: { text: 'Plumber', languageCode: 'en-US' },
  },
  {
    id: 'ChIJ-e2e-pipe',
    displayName: { text: 'Pipe & Valve Co', languageCode: 'en' },
    formattedAddress: '400 Lamar Blvd, Austin, TX 78704, USA',
    types: ['plumber'],
  },
] as const;

/** The Hunter key the local Hunter takes; any other key is refused as Hunter refuses it. */
export const FAKE_HUNTER_KEY = 'e2e-hunter-key';

/** The searches the local Hunter's account reports for FAKE_HUNTER_KEY (its /v2/account answer). */
export const FAKE_HUNTER_SEARCHES = { used: 12, available: 50 } as const;

/**
 * What the local Hunter has published per website domain, in Domain Search's documented entry shape
 * (GET /v2/domain-search → data.emails[]): a named person and a generic address for Ridgeway
 * Plumbing's domain (FAKE_PLACES' only business with a website). Unknown domains answer no emails.
 */
export const FAKE_HUNTER_EMAILS: Record<string, readonly HunterEmail[]> = {
  'ridgeway-plumbing.e2e.test': [
    {
      value: 'rita.ridgeway@ridgeway-plumbing.e2e.test',
      type: 'personal',
      confidence: 94,
      sources: [
        {
          domain: 'ridgeway-plumbing.e2e.test',
          uri: 'https://ridgeway-plumbing.e2e.test/about',
          extracted_on: '2026-10-02',
          last_seen_on: '2026-11-20',
          still_on_page: true,
        },
      ],
      first_name: 'Rita',
      last_name: 'Ridgeway',
      position: 'Owner',
      seniority: 'executive',
      department: 'executive',
      linkedin: null,
      twitter: null,
      phone_number: null,
      verification: { date: '2026-11-20', status: 'valid' },
    },
    {
      value: 'info@ridgeway-plumbing.e2e.test',
      type: 'generic',
      confidence: 88,
      sources: [
        {
          domain: 'ridgeway-plumbing.e2e.test',
          uri: 'https://ridgeway-plumbing.e2e.test/contact',
          extracted_on: '2026-10-02',
          last_seen_on: '2026-11-20',
          still_on_page: true,
        },
      ],
      first_name: null,
      last_name: null,
      position: null,
      seniority: null,
      department: null,
      linkedin: null,
      twitter: null,
      phone_number: null,
      verification: { date: '2026-11-20', status: 'valid' },
    },
  ],
};

/** One address of Hunter's Domain Search answer (data.emails[]), as documented. */
type HunterEmail = {
  value: string;
  type: 'personal' | 'generic';
  confidence: number;
  sources: { domain: string; uri: string; extracted_on: string; last_seen_on: string; still_on_page: boolean }[];
  first_name: string | null;
  last_name: string | null;
  position: string | null;
  seniority: string | null;
  department: string | null;
  linkedin: string | null;
  twitter: string | null;
  phone_number: string | null;
  verification: { date: string | null; status: string | null };
};

/** Hunter's answer to a missing or unknown key (401, its documented errors[] shape). */
const HUNTER_BAD_KEY = {
  errors: [{ id: 'authentication_failed', code: 401, details: 'No user found for the API key supplied' }],
};

/** Hunter Domain Search (GET /v2/domain-search?domain&api_key): the addresses published for the domain. */
function hunterDomainSearch(url: URL): { status: number; body: unknown } {
  if (url.searchParams.get('api_key') !== FAKE_HUNTER_KEY) return { status: 401, body: HUNTER_BAD_KEY };
  const domain = (url.searchParams.get('domain') ?? '').toLowerCase();
  if (!domain) {
    return {
      status: 400,
      body: {
        errors: [{ id: 'wrong_params', code: 400, details: 'You are missing the domain or the company parameter' }],
      },
    };
  }
  const limit = Number(url.searchParams.get('limit') ?? 10);
  const emails = (FAKE_HUNTER_EMAILS[domain] ?? []).slice(0, Number.isFinite(limit) && limit > 0 ? limit : 10);
  return {
    status: 200,
    body: {
      data: {
        domain,
        disposable: false,
        webmail: false,
        accept_all: false,
        pattern: emails.length > 0 ? '{first}.{last}' : null,
        organization: null,
        description: null,
        emails,
        linked_domains: [],
      },
      meta: {
        results: FAKE_HUNTER_EMAILS[domain]?.length ?? 0,
        limit,
        offset: 0,
        params: { domain, company: null, type: null, seniority: null, department: null },
      },
    },
  };
}

/** Hunter Account information (GET /v2/account?api_key): the searches used and available this period. */
function hunterAccount(url: URL): { status: number; body: unknown } {
  if (url.searchParams.get('api_key') !== FAKE_HUNTER_KEY) return { status: 401, body: HUNTER_BAD_KEY };
  return {
    status: 200,
    body: {
      data: {
        first_name: 'Lena',
        last_name: 'Leadwell',
        email: 'lena@e2e.test',
        plan_name: 'Starter',
        plan_level: 1,
        reset_date: '2026-12-01',
        team_id: 4242,
        calls: {
          _deprecation_notice:
            'Sums the searches and the verifications, giving an unprecise look of the available requests',
          used: FAKE_HUNTER_SEARCHES.used,
          available: FAKE_HUNTER_SEARCHES.available,
        },
        requests: {
          searches: { ...FAKE_HUNTER_SEARCHES },
          verifications: { used: 0, available: 100 },
        },
      },
    },
  };
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/**
 * The lead providers the e2e app calls instead of the real ones (GOOGLE_PLACES_API_BASE, YELP_API_BASE
 * and HUNTER_API_BASE in playwright.config.ts): Google Places Text Search answers FAKE_PLACES for the
 * key 'e2e-good-key' and refuses any other key as Google does; Hunter's Domain Search and Account
 * endpoints answer FAKE_HUNTER_EMAILS and FAKE_HUNTER_SEARCHES for FAKE_HUNTER_KEY (401 for any other
 * key, as Hunter does); everything else is 404.
 */
export async function startFakeProviders(port: number): Promise<Server> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://local');
      if (request.method === 'POST' && url.pathname === '/v1/places:searchText') {
        if (request.headers['x-goog-api-key'] !== 'e2e-good-key') {
          return send(response, 400, {
            error: {
              code: 400,
              message: 'API key not valid. Please pass a valid API key.',
              status: 'INVALID_ARGUMENT',
            },
          });
        }
        return send(response, 200, { places: FAKE_PLACES });
      }
      if (request.method === 'GET' && url.pathname === '/v2/domain-search') {
        const answer = hunterDomainSearch(url);
        return send(response, answer.status, answer.body);
      }
      if (request.method === 'GET' && url.pathname === '/v2/account') {
        const answer = hunterAccount(url);
        return send(response, answer.status, answer.body);
      }
      return send(response, 404, { error: { code: 404, message: 'Not found', status: 'NOT_FOUND' } });
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}
