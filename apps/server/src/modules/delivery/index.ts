// The delivery module's public face: what other modules, app.ts, jobs.ts, main.ts, app-context.ts and cli/ use
// of it. Code outside the module imports only from here (eslint-rules/server-boundaries.js).
export { claimsStaleAfterMs, sendBatch, type Allowance, type BatchResult, type BatchStore } from './engine.ts';
export { withArcSeal } from './arc.ts';
export { rewriteHeaders, sendRawMessage, splitMessage } from './forward.ts';
export { buildRawMessage, listIdOf, newMessageId, signDkim } from './message.ts';
export { createSendRecorders } from './recorders.ts';
export { returnPathFor } from './return-path.ts';
export {
  endSequenceEnrolmentsOf,
  isSuppressed,
  listSuppressions,
  removeSuppression,
  suppress,
  suppressedAmong,
  suppressionsCsv,
} from './suppressions.ts';
export { mailer } from './transactional.ts';
export { catcherTransport, smtpTransport } from './transport.ts';
