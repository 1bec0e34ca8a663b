// The rate-limits module's public face: what other modules, app.ts, jobs.ts, main.ts, app-context.ts and cli/ use
// of it. Code outside the module imports only from here (eslint-rules/server-boundaries.js).
export { registerRateLimits } from './rate-limit-store.ts';
export { rateLimitJobs } from './rate-limits.jobs.ts';
export { countHit, countHitWithReset, withinLimit } from './rate-limits.service.ts';
