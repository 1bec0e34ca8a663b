// The bounces module's public face: what other modules, app.ts, jobs.ts, main.ts, app-context.ts and cli/ use
// of it. Code outside the module imports only from here (eslint-rules/server-boundaries.js).
export { bounceJobs } from './bounces.jobs.ts';
export { bounceRoutes } from './bounces.routes.ts';
export { handleBounceMessage, isBounceAddress, recordHardRejection } from './bounces.service.ts';
export { classify, classifySmtpResponse } from './classify.ts';
export {
  deleteProviderSecret,
  providerStatuses,
  receiveProviderPost,
  saveProviderSecret,
} from './providers.service.ts';
export { sendOfUnsubscribeAddress, unsubscribeLocalPart, verpLocalPart } from './verp.ts';
