// The domains module's public face: what other modules, app.ts, jobs.ts, main.ts, app-context.ts and cli/ use
// of it. Code outside the module imports only from here (eslint-rules/server-boundaries.js).
export { domainJobs } from './domains.jobs.ts';
export { domainRoutes } from './domains.routes.ts';
export {
  bounceHostFor,
  dkimSigningKeyFor,
  domainStandingFor,
  releaseDailySends,
  reserveDailySends,
  sendingDomainFor,
  servesMailHost,
  signingKeyForMail,
  verifiedSendingDomains,
} from './domains.sending.ts';
