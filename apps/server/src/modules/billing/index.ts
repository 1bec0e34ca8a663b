// The billing module's public face: what other modules, app.ts, jobs.ts, main.ts, app-context.ts and cli/ use
// of it. Code outside the module imports only from here (eslint-rules/server-boundaries.js).
export { billingJobs } from './billing.jobs.ts';
export { paymentRoutes } from './billing.routes.ts';
export { assertCanSend, planLimitsOf, planOf, subscriberLimitError } from './billing.service.ts';
export { planCatalogue } from './plan-catalogue.ts';
export { pricingRoutes } from './pricing.routes.ts';
export { warnEmailUsageOnce, warnUsageOnce } from './usage-warnings.ts';
export { claimAllowance, domainCountOf, emailsSentThisMonth, subscriberCountOf } from './usage.service.ts';
