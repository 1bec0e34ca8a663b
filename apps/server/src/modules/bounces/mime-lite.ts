/**
 * Just enough MIME to read bounce reports fast: header blocks, multipart splitting, base64 and
 * quoted-printable text. No attachment is decoded and nothing is written; the classifier needs the
 * report's fields and some text, not a faithful copy of the message (mailparser would spend most of
 * its time on what a classifier throws away).
 */

/** Only this much of a message is read: reports, notices and quoted headers sit in the first part. */
const MAX_READ_BYTES = 256 * 1024;
const MAX_PARTS = 64;
const MAX_DEPTH = 6;

export type Headers = Map<string, string>;

export interface MimePart {
  headers: Headers;
  /** lower-cased media type, e.g. 'message/delivery-status' */
  type: string;
  params: Record<string, string>;
  /** The body, transfer-decoded when the part is text-like. */
  body: string;
}

/** Splits a block at its first empty line. */
export function splitHead(text: string): { head: string; body: string } {
  const match = /\r?\n\r?\n/.exec(text);
  if (!match) return { head: text, body: '' };
  return { head: text.slice(0, match.index), body: text.slice(match.index + match[0].length) };
}

/** Header fields, names lower-cased, folded lines joined; the first occurrence of a name wins. */
export function parseHeaders(head: string): Headers {
  const headers: Headers = new Map();
  let name = '';
  let value = '';
  const flush = () => {
    if (name && !headers.has(name)) headers.set(name, value.trim());
  };
  for (const line of head.split(/\r?\n/)) {
    if ((line.startsWith(' ') || line.startsWith('\t')) && name) {
      value += ' ' + line.trim();
      continue;
    }
    flush();
    const colon = line.indexOf(':');
    if (colon <= 0) {
      name = '';
      continue;
    }
    name = line.slice(0, colon).trim().toLowerCase();
    value = line.slice(colon + 1);
  }
  flush();
  return headers;
}

/** `multipart/report; report-type=delivery-status; boundary="x"` → type and parameters. */
function parseContentType(value: string | undefined): { type: string; params: Record<string, string> } {
  if (!value) return { type: 'text/plain', params: {} };
  const [type = 'text/plain', ...rest] = value.split(';');
  const params: Record<string, string> = {};
  for (const param of rest) {
    const eq = param.indexOf('=');
    if (eq < 0) continue;
    const key = param.slice(0, eq).trim().toLowerCase();
    params[key] = param
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
  }
  return { type: type.trim().toLowerCase(), params };
}

function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

function decodeBody(body: string, encoding: string | undefined, type: string): string {
  const cte = encoding?.toLowerCase();
  const textLike = type.startsWith('text/') || type.startsWith('message/');
  if (!textLike) return '';
  if (cte === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (cte === 'quoted-printable') return decodeQuotedPrintable(body);
  return body;
}

/** RFC 2047 encoded words in a header (subjects of localized notices: =?UTF-8?B?…?=). */
export function decodeWords(value: string): string {
  if (!value.includes('=?')) return value;
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_m, _charset: string, enc: string, text: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    );
}

/** A message's headers and its leaf parts (message/* parts are leaves: their text is kept whole). */
export function readMessage(raw: Buffer | string): { headers: Headers; parts: MimePart[] } {
  const text =
    typeof raw === 'string'
      ? raw.slice(0, MAX_READ_BYTES)
      : raw.subarray(0, Math.min(raw.length, MAX_READ_BYTES)).toString('utf8');
  const { head, body } = splitHead(text);
  const headers = parseHeaders(head);
  const parts: MimePart[] = [];
  collect(headers, body, 0, parts);
  return { headers, parts };
}

function collect(headers: Headers, body: string, depth: number, out: MimePart[]): void {
  if (out.length >= MAX_PARTS) return;
  const { type, params } = parseContentType(headers.get('content-type'));
  const boundary = params.boundary;
  if (type.startsWith('multipart/') && boundary && depth < MAX_DEPTH) {
    const chunks = body.split(`--${boundary}`);
    // chunks[0] is the preamble; a chunk starting with '--' follows the closing delimiter.
    for (const chunk of chunks.slice(1)) {
      if (chunk.startsWith('--')) break;
      const { head, body: partBody } = splitHead(chunk.replace(/^[ \t]*\r?\n/, ''));
      collect(parseHeaders(head), partBody, depth + 1, out);
      if (out.length >= MAX_PARTS) return;
    }
    return;
  }
  out.push({ headers, type, params, body: decodeBody(body, headers.get('content-transfer-encoding'), type) });
}
