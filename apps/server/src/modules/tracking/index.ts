// The tracking module's public face: what other modules, app.ts, jobs.ts, main.ts, app-context.ts and cli/ use
// of it. Code outside the module imports only from here (eslint-rules/server-boundaries.js).
export { trackingRoutes } from './tracking.routes.ts';
export { unsubscribe as unsubscribeRecipient, withoutTracking, type MailRef } from './tracking.service.ts';
