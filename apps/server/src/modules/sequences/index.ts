// The sequences module's public face: what other modules, app.ts, jobs.ts, main.ts, app-context.ts and cli/ use
// of it. Code outside the module imports only from here (eslint-rules/server-boundaries.js).
export { recoverSequenceSends } from './sequence-batch.ts';
export { enrolContactsInSequence, requestTriggerCheck, sequenceJobs } from './sequences.jobs.ts';
export { sequenceRoutes } from './sequences.routes.ts';
export { endEnrolmentsOnReply, repliedMessageIds } from './sequences.service.ts';
