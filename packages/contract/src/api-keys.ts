import { z } from 'zod';

/** What an API key may do: everything a program may call, or only sending (campaign sends, sequence enrolments, events). */
export const API_KEY_SCOPES = ['full', 'sending'] as const;
export const apiKeyScopeSchema = z.enum(API_KEY_SCOPES, { error: 'Choose full access or sending only' });
export type ApiKeyScope = z.infer<typeof apiKeyScopeSchema>;

/** The start of every secret, so a leaked one is recognisable (secret scanners, logs). */
export const API_KEY_PREFIX = 'sw_live_';

/** The longest `Idempotency-Key` header accepted. */
export const IDEMPOTENCY_KEY_MAX = 256;

export const API_KEY_NAME_REQUIRED = 'Give the key a name';
export const DOMAIN_ONLY_FOR_SENDING = 'Only a sending key can be limited to a domain';

/** POST /api/api-keys */
export const createApiKeyBodySchema = z
  .object(
    {
      name: z
        .string({ error: API_KEY_NAME_REQUIRED })
        .trim()
        .min(1, API_KEY_NAME_REQUIRED)
        .max(100, 'The name must be at most 100 characters'),
      scope: apiKeyScopeSchema,
      /** One of the account's verified domains; only for a sending key. Null or absent: any domain. */
      domain: z
        .string({ error: 'Choose one of your verified domains' })
        .trim()
        .toLowerCase()
        .max(253, 'Choose one of your verified domains')
        .nullish()
        .transform((domain) => (domain ? domain : null)),
    },
    { error: API_KEY_NAME_REQUIRED },
  )
  .superRefine((body, ctx) => {
    if (body.domain !== null && body.scope !== 'sending') {
      ctx.addIssue({ code: 'custom', path: ['domain'], message: DOMAIN_ONLY_FOR_SENDING });
    }
  });
export type CreateApiKeyBody = z.input<typeof createApiKeyBodySchema>;

/** An API key as the list shows it: never its secret. */
export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The secret's first characters, e.g. `sw_live_Ab3d`, to tell keys apart. */
  prefix: z.string(),
  scope: apiKeyScopeSchema,
  domain: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

export const apiKeyListSchema = z.object({ apiKeys: z.array(apiKeySchema) });
export type ApiKeyList = z.infer<typeof apiKeyListSchema>;

/** The answer to POST /api/api-keys: the key and, this once, its secret. */
export const createdApiKeySchema = z.object({ apiKey: apiKeySchema, secret: z.string() });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

/** `/:id` of an API key (a uuid); anything else answers as not found. */
export const apiKeyIdParamsSchema = z.object({ id: z.uuid({ error: 'Not found' }) });

const RATE_RANGE = 'Enter a whole number of requests per second from 1 to 100';

/** GET/PUT /api/api-settings: the account's settings for its API keys. */
export const apiSettingsSchema = z.object(
  {
    requestsPerSecond: z.number({ error: RATE_RANGE }).int(RATE_RANGE).min(1, RATE_RANGE).max(100, RATE_RANGE),
  },
  { error: RATE_RANGE },
);
export type ApiSettings = z.infer<typeof apiSettingsSchema>;
