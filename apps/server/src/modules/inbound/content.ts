import { AppError } from '../../lib/app-error.ts';

/**
 * Control characters in a message's header block. A content error is permanent: the webhook
 * answers 400 and the SMTP server `554 5.6.0`, never a 5xx / 4xx that makes the sender retry for
 * days (Postgres refuses a NUL in text, which used to fail the store as our own fault).
 *
 * - NUL anywhere in the header block, or any control character in a field name: refused
 *   (RFC 5322 §2.2: a field name is printable US-ASCII; NUL is never to be generated).
 * - Other C0 controls (and DEL) in a field's value, besides HTAB, CR and LF: removed. RFC 5322's
 *   obsolete syntax (obs-NO-WS-CTL in obs-utext, obs-qtext, obs-ctext) lets a receiver accept them
 *   there, and nothing of ours needs them.
 */

/** The error a message with a control character where none may be gets (400 / 554 5.6.0). */
const CONTROL_IN_HEADER = 'The message has a NUL or a control character in its header, where RFC 5322 allows none';

// eslint-disable-next-line no-control-regex
const STRIPPABLE = /[\u0001-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
// eslint-disable-next-line no-control-regex
const ANY_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** Removes C0 controls but HTAB, CR, LF (and DEL) from a decoded value before it is stored (an encoded word may carry one). */
export function withoutControls(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '');
}

/**
 * The message with the controls removed from its header values (the same buffer when it has
 * none); throws a 400 AppError (CONTROL_IN_HEADER) where one may not be removed.
 */
export function cleanHeaderControls(raw: Buffer): Buffer {
  let end = raw.indexOf('\r\n\r\n');
  const lfEnd = raw.indexOf('\n\n');
  if (end < 0 || (lfEnd >= 0 && lfEnd < end)) end = lfEnd;
  const headerEnd = end < 0 ? raw.length : end;
  const head = raw.subarray(0, headerEnd).toString('latin1');
  if (!ANY_CONTROL.test(head)) return raw;
  if (head.includes('\u0000')) throw new AppError('bad_request', CONTROL_IN_HEADER);
  const lines = head.split(/(\r?\n)/);
  for (let i = 0; i < lines.length; i += 2) {
    const line = lines[i] ?? '';
    if (line === '' || line.startsWith(' ') || line.startsWith('\t')) {
      lines[i] = line.replace(STRIPPABLE, '');
      continue;
    }
    const colon = line.indexOf(':');
    if (colon < 0) {
      lines[i] = line.replace(STRIPPABLE, '');
      continue;
    }
    if (ANY_CONTROL.test(line.slice(0, colon))) throw new AppError('bad_request', CONTROL_IN_HEADER);
    lines[i] = line.slice(0, colon + 1) + line.slice(colon + 1).replace(STRIPPABLE, '');
  }
  return Buffer.concat([Buffer.from(lines.join(''), 'latin1'), raw.subarray(headerEnd)]);
}

/** True when a database error (possibly wrapped) is a data exception (SQLSTATE class 22: a value it cannot store). */
export function isDataException(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code)) return true;
  }
  return false;
}
