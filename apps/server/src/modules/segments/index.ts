// The segments module's public face: what other modules, app.ts, jobs.ts, main.ts, app-context.ts and cli/ use
// of it. Code outside the module imports only from here (eslint-rules/server-boundaries.js).
export { requestSegmentRefresh, segmentJobs } from './segments.jobs.ts';
export { segmentRoutes } from './segments.routes.ts';
export { refreshAutoSegmentsIn } from './segments.service.ts';
