/**
 * The providers a lead source searches with the account's own key. Each adapter asks one documented
 * endpoint and answers businesses (never invented people) or published addresses, or says why not:
 * a refused key, a rate limit, or another failure. Base URLs come from config so tests point them at
 * local servers that answer in each provider's documented shape.
 *
 *   Google Places Text Search (New): POST {base}/v1/places:searchText, X-Goog-Api-Key, X-Goog-FieldMask
 *   Yelp Fusion business search:     GET  {base}/v3/businesses/search?term&location&limit, Bearer key
 *   Hunter domain search / account:  GET  {base}/v2/domain-search?domain&api_key, GET {base}/v2/account?api_key
 */

/** A business as a search found it. */
export type FoundBusiness = {
  provider: 'google' | 'yelp';
  providerId: string;
  name: string;
  website: string | null;
  phone: string | null;
  address: string | null;
  categories: string[];
  /** The provider's own page of the business (Yelp), kept for attribution. */
  providerUrl: string | null;
};

/** An address Hunter found published for a domain. */
export type FoundAddress = {
  email: string;
  firstName: string;
  lastName: string;
  position: string | null;
  /** Hunter's 'personal' or 'generic'. */
  type: string | null;
  confidence: number | null;
};

export type ProviderResult<T> =
  | { kind: 'ok'; items: T }
  | { kind: 'bad-key'; message: string }
  | { kind: 'rate-limited'; message: string; retryAfterSeconds: number | null }
  | { kind: 'failed'; message: string };

const TIMEOUT_MS = 15_000;

async function call(
  url: string,
  init: RequestInit,
): Promise<{ status: number; body: unknown; headers: Headers } | null> {
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
    const text = await response.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = null;
    }
    return { status: response.status, body, headers: response.headers };
  } catch {
    return null;
  }
}

const retryAfter = (headers: Headers) => {
  const value = Number(headers.get('retry-after'));
  return Number.isFinite(value) && value > 0 ? value : null;
};

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value && typeof value === 'object' ? (value as Json) : {});
const str = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);
const arr = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** The common failures of a provider answer, by status; null when the answer is a success. */
function failureOf(
  name: string,
  answer: { status: number; body: unknown; headers: Headers } | null,
  providerMessage: string | null,
): ProviderResult<never> | null {
  if (!answer) return { kind: 'failed', message: `${name} did not answer. Try again later.` };
  if (answer.status === 429) {
    return {
      kind: 'rate-limited',
      message: `${name} says the key's rate limit or quota is reached${providerMessage ? `: ${providerMessage}` : ''}.`,
      retryAfterSeconds: retryAfter(answer.headers),
    };
  }
  if (answer.status === 401 || answer.status === 403) {
    return { kind: 'bad-key', message: `${name} refused the API key${providerMessage ? `: ${providerMessage}` : ''}.` };
  }
  if (answer.status >= 400) {
    return {
      kind: 'failed',
      message: `${name} answered ${answer.status}${providerMessage ? `: ${providerMessage}` : ''}.`,
    };
  }
  return null;
}

const GOOGLE_FIELDS = [
  'places.id',
  'places.displayName',
  'places.formattedAddress',
  'places.websiteUri',
  'places.internationalPhoneNumber',
  'places.types',
  'places.primaryTypeDisplayName',
].join(',');

/** Google Places Text Search (New): businesses matching "<profession> in <location>". */
export async function searchGooglePlaces(
  base: string,
  apiKey: string,
  query: string,
  limit: number,
): Promise<ProviderResult<FoundBusiness[]>> {
  const answer = await call(`${base}/v1/places:searchText`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-goog-api-key': apiKey, 'x-goog-fieldmask': GOOGLE_FIELDS },
    body: JSON.stringify({ textQuery: query, pageSize: Math.min(limit, 20) }),
  });
  const error = obj(obj(answer?.body).error);
  // Google answers a malformed or unknown key with 400 INVALID_ARGUMENT "API key not valid".
  if (answer?.status === 400 && /api key/i.test(String(error.message ?? ''))) {
    return { kind: 'bad-key', message: `Google Places refused the API key: ${String(error.message)}.` };
  }
  const failure = failureOf('Google Places', answer, str(error.message));
  if (failure) return failure;
  const places = arr(obj(answer?.body).places).map(obj);
  return {
    kind: 'ok',
    items: places.flatMap((place) => {
      const name = str(obj(place.displayName).text);
      const id = str(place.id);
      if (!name || !id) return [];
      const primary = str(obj(place.primaryTypeDisplayName).text);
      const types = arr(place.types).filter((type): type is string => typeof type === 'string');
      return [
        {
          provider: 'google' as const,
          providerId: id,
          name,
          website: str(place.websiteUri),
          phone: str(place.internationalPhoneNumber),
          address: str(place.formattedAddress),
          categories: [...(primary ? [primary] : []), ...types.map((type) => type.replaceAll('_', ' '))],
          providerUrl: null,
        },
      ];
    }),
  };
}

/** Yelp Fusion business search: businesses for a term near a location. */
export async function searchYelp(
  base: string,
  apiKey: string,
  term: string,
  location: string,
  limit: number,
): Promise<ProviderResult<FoundBusiness[]>> {
  const params = new URLSearchParams({ term, location, limit: String(Math.min(limit, 50)) });
  const answer = await call(`${base}/v3/businesses/search?${params}`, {
    headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json' },
  });
  const error = obj(obj(answer?.body).error);
  const failure = failureOf('Yelp', answer, str(error.description) ?? str(error.code));
  if (failure) return failure;
  const businesses = arr(obj(answer?.body).businesses).map(obj);
  return {
    kind: 'ok',
    items: businesses.flatMap((business) => {
      const name = str(business.name);
      const id = str(business.id);
      if (!name || !id) return [];
      const address = arr(obj(business.location).display_address).filter((line) => typeof line === 'string');
      return [
        {
          provider: 'yelp' as const,
          providerId: id,
          name,
          // Yelp gives its own page of the business, not the business's website.
          website: null,
          phone: str(business.display_phone) ?? str(business.phone),
          address: address.length > 0 ? address.join(', ') : null,
          categories: arr(business.categories)
            .map((category) => str(obj(category).title))
            .filter((title): title is string => title !== null),
          providerUrl: str(business.url),
        },
      ];
    }),
  };
}

const hunterMessage = (body: unknown) => str(obj(arr(obj(body).errors)[0]).details);

/** Hunter's account: how many searches the key has left this period (shown before spending one). */
export async function hunterCredits(
  base: string,
  apiKey: string,
): Promise<ProviderResult<{ used: number; available: number }>> {
  const answer = await call(`${base}/v2/account?${new URLSearchParams({ api_key: apiKey })}`, {
    headers: { accept: 'application/json' },
  });
  const failure = failureOf('Hunter', answer, hunterMessage(answer?.body));
  if (failure) return failure;
  const searches = obj(obj(obj(obj(answer?.body).data).requests).searches);
  return { kind: 'ok', items: { used: Number(searches.used ?? 0), available: Number(searches.available ?? 0) } };
}

/** Hunter domain search: the addresses published for a business's domain. */
export async function hunterDomainSearch(
  base: string,
  apiKey: string,
  domain: string,
  limit: number,
): Promise<ProviderResult<FoundAddress[]>> {
  const params = new URLSearchParams({ domain, limit: String(Math.min(limit, 100)), api_key: apiKey });
  const answer = await call(`${base}/v2/domain-search?${params}`, { headers: { accept: 'application/json' } });
  const failure = failureOf('Hunter', answer, hunterMessage(answer?.body));
  if (failure) return failure;
  const emails = arr(obj(obj(answer?.body).data).emails).map(obj);
  return {
    kind: 'ok',
    items: emails.flatMap((entry) => {
      const email = str(entry.value);
      if (!email) return [];
      return [
        {
          email: email.toLowerCase(),
          firstName: str(entry.first_name) ?? '',
          lastName: str(entry.last_name) ?? '',
          position: str(entry.position),
          type: str(entry.type),
          confidence: typeof entry.confidence === 'number' ? entry.confidence : null,
        },
      ];
    }),
  };
}
