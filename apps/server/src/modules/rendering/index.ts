// The rendering module's public face: an email compiled once per content and filled per recipient,
// with its tracked links. Other modules import only from here (eslint-rules/server-boundaries.js).
export {
  compileEmail,
  escapeHtml,
  renderForRecipient,
  untrackedLinks,
  type CompiledEmail,
  type Recipient,
} from './email-renderer.ts';
export { trackedLinks } from './tracked-links.ts';
