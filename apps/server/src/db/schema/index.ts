// The one place drizzle-kit and the client learn every table from.
export * from './auth.ts';
export * from './contacts.ts';
export * from './campaigns.ts';
export * from './segments.ts';
export * from './domains.ts';
export * from './rate-limits.ts';
export * from './inbound.ts';
export * from './sender-addresses.ts';
export * from './aliases.ts';
export * from './sequences.ts';
export * from './billing.ts';

export * from './leads.ts';

export * from './bounces.ts';

export * from './webhooks.ts';
export * from './api-keys.ts';
export * from './sunset.ts';
export * from './analytics.ts';
