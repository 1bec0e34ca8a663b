import { dkimSignatureField } from './dkim.ts';
import { randomUUID } from 'node:crypto';

/**
 * 122 random bits as 32 hex digits, for Message-IDs and MIME boundaries. randomUUID draws from a
 * cached block of the CSPRNG's output; randomBytes asked it afresh for each of a message's two
 * values, 3.7% of a sending worker's CPU samples.
 */
const randomHex = () => randomUUID().replaceAll('-', '');

/** A Message-ID on the sending domain. */
export function newMessageId(fromEmail: string): string {
  const domain = fromEmail.split('@')[1] ?? 'sendwell.local';
  return `<${randomHex()}@${domain}>`;
}

/** Anything a header value must not carry: line breaks (refused at save time too) and other controls. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const stripControls = (value: string) => value.replace(/[\u0000-\u001f\u007f]+/g, ' ');
const isPlainAscii = (value: string) => /^[\u0020-\u007e]*$/.test(value);

/** RFC 2047 encoded words (base64), each at most 75 characters, never splitting a character. */
function encodedWords(value: string): string {
  const words: string[] = [];
  let chunk = '';
  for (const char of value) {
    if (Buffer.byteLength(chunk + char) > 45) {
      words.push(chunk);
      chunk = '';
    }
    chunk += char;
  }
  if (chunk) words.push(chunk);
  return words.map((word) => `=?UTF-8?B?${Buffer.from(word).toString('base64')}?=`).join('\r\n ');
}

/** An unstructured header value (Subject): as is when plain ASCII, folded at spaces past 78 columns; else encoded words. */
function unstructured(value: string, headerLength: number): string {
  const clean = stripControls(value);
  if (!isPlainAscii(clean)) return encodedWords(clean);
  if (clean.length + headerLength <= 78) return clean;
  const lines: string[] = [];
  let line = '';
  for (const word of clean.split(' ')) {
    if (line && line.length + word.length + 1 + (lines.length === 0 ? headerLength : 1) > 78) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  lines.push(line);
  return lines.join('\r\n ');
}

/** A mailbox: `"Display Name" <address>` (the name quoted, or encoded when not ASCII). */
function mailbox(name: string | null, address: string): string {
  const cleanAddress = stripControls(address).replace(/[<>\s]/g, '');
  const cleanName = name ? stripControls(name).trim() : '';
  if (!cleanName) return cleanAddress;
  const display = isPlainAscii(cleanName) ? `"${cleanName.replace(/["\\]/g, '\\$&')}"` : encodedWords(cleanName);
  return `${display} <${cleanAddress}>`;
}

const HEX = '0123456789ABCDEF';
const escaped = (byte: number) => `=${HEX[byte >> 4]}${HEX[byte & 15]}`;

/** The =XX escapes of one code point's UTF-8 bytes (a lone surrogate becomes U+FFFD). */
function escapedCodePoint(codePoint: number): string {
  if (codePoint < 0x80) return escaped(codePoint);
  if (codePoint < 0x800) return escaped(0xc0 | (codePoint >> 6)) + escaped(0x80 | (codePoint & 63));
  if (codePoint >= 0xd800 && codePoint <= 0xdfff) return '=EF=BF=BD';
  if (codePoint < 0x10000)
    return (
      escaped(0xe0 | (codePoint >> 12)) + escaped(0x80 | ((codePoint >> 6) & 63)) + escaped(0x80 | (codePoint & 63))
    );
  return (
    escaped(0xf0 | (codePoint >> 18)) +
    escaped(0x80 | ((codePoint >> 12) & 63)) +
    escaped(0x80 | ((codePoint >> 6) & 63)) +
    escaped(0x80 | (codePoint & 63))
  );
}

/**
 * A run that goes out as it is: printable ASCII but '=', and spaces or tabs that do not end a line
 * (or the text). A sticky regular expression finds it in compiled code rather than a loop per character.
 */
const PLAIN_RUN = /(?:[!-<>-~]|[ \t](?=[^\n]))+/y;

/**
 * Quoted-printable (RFC 2045) of text as UTF-8: line breaks become CRLF, lines are soft-wrapped at
 * 76 characters, '=' and everything outside printable ASCII are escaped, and so is white space at
 * a line's end. Runs of plain characters are copied as slices: this runs for every recipient.
 */
export function quotedPrintable(text: string): string {
  const source = text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
  const out: string[] = [];
  let column = 0;
  const emit = (token: string) => {
    if (column + token.length > 75) {
      out.push('=\r\n');
      column = 0;
    }
    out.push(token);
    column += token.length;
  };
  const length = source.length;
  let i = 0;
  while (i < length) {
    const code = source.charCodeAt(i);
    PLAIN_RUN.lastIndex = i;
    if (code === 10) {
      out.push('\r\n');
      column = 0;
      i += 1;
    } else if (PLAIN_RUN.test(source)) {
      const end = PLAIN_RUN.lastIndex;
      while (i < end) {
        if (column >= 75) {
          out.push('=\r\n');
          column = 0;
        }
        const take = Math.min(75 - column, end - i);
        out.push(source.slice(i, i + take));
        column += take;
        i += take;
      }
    } else if (code === 32 || code === 9) {
      emit(escaped(code));
      i += 1;
    } else {
      const codePoint = source.codePointAt(i) as number;
      emit(escapedCodePoint(codePoint));
      i += codePoint > 0xffff ? 2 : 1;
    }
  }
  return out.join('');
}

/**
 * The List-Id of a campaign's or a sequence's mail (RFC 2919): `campaign-12.<account>.<installation
 * host>`, the same for every message it sends, and no other sender's on this installation.
 */
export function listIdOf(kind: 'campaign' | 'sequence', id: number, accountId: string, publicUrl: string): string {
  return `${kind}-${id}.${accountId.replaceAll('-', '')}.${new URL(publicUrl).hostname}`;
}

/** An RFC 5322 date in UTC. */
const mailDate = (date: Date) => date.toUTCString().replace(/GMT$/, '+0000');

/**
 * The raw message with the headers bulk mail needs: Message-ID on the sending domain,
 * List-Unsubscribe (https and mailto) and List-Unsubscribe-Post for one-click (RFC 8058); a
 * multipart/alternative of the plain text and the HTML, both quoted-printable. Written directly
 * rather than through a MIME library's stream machinery: it runs once per recipient.
 */
export function buildRawMessage(input: {
  from: { name: string | null; address: string };
  to: string;
  replyTo: string | null;
  subject: string;
  html: string;
  text: string;
  messageId: string;
  unsubscribeUrl: string | null;
  /**
   * The address a mailed unsubscribe goes to (List-Unsubscribe's mailto): one we receive, tokenised
   * per message (modules/sending puts it at the return-path host). Without one the header carries
   * the https link alone: a mailto nobody reads would lose the unsubscribes sent to it.
   */
  unsubscribeMailto?: string | null;
  isTest: boolean;
  /** Whole header lines to add (an auto-reply's Auto-Submitted, In-Reply-To, References). */
  extraHeaders?: string[];
  /** List mail's RFC 2919 List-Id (see listIdOf), by which mailbox providers group and rate it. */
  listId?: { name: string; id: string } | null;
}): Buffer {
  const boundary = `----sendwell-${randomHex()}`;
  const subject = input.isTest ? `[Test] ${input.subject}` : input.subject;
  const headers = [
    `From: ${mailbox(input.from.name, input.from.address)}`,
    `To: ${mailbox(null, input.to)}`,
    ...(input.replyTo ? [`Reply-To: ${mailbox(null, input.replyTo)}`] : []),
    `Subject: ${unstructured(subject, 'Subject: '.length)}`,
    `Message-ID: ${stripControls(input.messageId)}`,
    `Date: ${mailDate(new Date())}`,
    'MIME-Version: 1.0',
    ...(input.unsubscribeUrl
      ? [
          input.unsubscribeMailto
            ? `List-Unsubscribe: <${stripControls(input.unsubscribeUrl)}>,\r\n <mailto:${stripControls(input.unsubscribeMailto)}?subject=unsubscribe>`
            : `List-Unsubscribe: <${stripControls(input.unsubscribeUrl)}>`,
          'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
        ]
      : []),
    ...(input.listId ? [`List-Id: ${mailbox(input.listId.name, input.listId.id)}`] : []),
    ...(input.isTest ? ['X-Sendwell-Test: yes'] : []),
    ...(input.extraHeaders ?? []).map(stripControls),
    `Content-Type: multipart/alternative;\r\n boundary="${boundary}"`,
  ];
  const part = (type: string, body: string) =>
    `--${boundary}\r\nContent-Type: ${type}; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n${quotedPrintable(body)}\r\n`;
  return Buffer.from(
    `${headers.join('\r\n')}\r\n\r\n${part('text/plain', input.text)}${part('text/html', input.html)}--${boundary}--\r\n`,
    'utf8',
  );
}

/** Headers the DKIM signature covers, the unsubscribe ones included so they cannot be stripped or forged. */
const SIGNED_HEADERS = [
  'From',
  'To',
  'Subject',
  'Date',
  'Message-ID',
  'Reply-To',
  'MIME-Version',
  'Content-Type',
  'List-Unsubscribe',
  'List-Unsubscribe-Post',
  'List-Id',
];

/** Prepends a DKIM-Signature made with the sending domain's key (relaxed/relaxed, rsa-sha256). */
export async function signDkim(
  raw: Buffer,
  key: { domainName: string; keySelector: string; privateKey: string },
): Promise<Buffer> {
  const field = dkimSignatureField(raw, { ...key, headerNames: SIGNED_HEADERS, signTime: new Date() });
  return Buffer.concat([Buffer.from(field, 'latin1'), raw]);
}
