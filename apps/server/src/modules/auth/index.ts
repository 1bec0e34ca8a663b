// The auth module's public face: what other modules, app.ts, jobs.ts, main.ts, app-context.ts and cli/ use
// of it. Code outside the module imports only from here (eslint-rules/server-boundaries.js).
export { authJobs } from './auth.jobs.ts';
export { authRoutes } from './auth.routes.ts';
export {
  accountUnconfirmedMessage,
  grantUnlimited,
  issueTemporaryPassword,
  requireConfirmedAccount,
  resolveSession,
  userById,
  type UserRow,
} from './auth.service.ts';
export type { SessionCompanion } from './session-companion.ts';
export { requireUser, sessionToken, type RequestCompanion } from './session-guard.ts';
