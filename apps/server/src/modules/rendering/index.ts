// The rendering module's public face: what other modules, app.ts, jobs.ts, main.ts, app-context.ts and cli/ use
// of it. Code outside the module imports only from here (eslint-rules/server-boundaries.js).
export {
  compileEmail,
  escapeHtml,
  RAW_HTML_PLACEHOLDERS,
  renderForRecipient,
  untrackedLinks,
  type CompiledEmail,
} from './email-renderer.ts';
export { trackedLinks } from './tracked-links.ts';
