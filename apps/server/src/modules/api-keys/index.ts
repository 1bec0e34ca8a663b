// The api-keys module's public face: what other modules, app.ts, jobs.ts, main.ts, app-context.ts and cli/ use
// of it. Code outside the module imports only from here (eslint-rules/server-boundaries.js).
export { requireUserOrKey } from './api-key-guard.ts';
export { apiKeyJobs } from './api-keys.jobs.ts';
export { apiKeyRoutes } from './api-keys.routes.ts';
export { assertMaySendFrom, type ApiKeyGrant } from './api-keys.service.ts';
export { registerIdempotency } from './idempotency.ts';
