// The inbound module's public face: what other modules, app.ts, jobs.ts, main.ts, app-context.ts and cli/ use
// of it. Code outside the module imports only from here (eslint-rules/server-boundaries.js).
export { bounceProviderRoutes } from './bounce-providers.routes.ts';
export { FORWARD_SWEEP_MS, inboundJobs, recoverForwards } from './forwarding.jobs.ts';
export { inboundRoutes } from './inbound.routes.ts';
export { startInboundSmtpServer } from './smtp-server.ts';
