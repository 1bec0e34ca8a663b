import { createHash, createPrivateKey, sign, type KeyObject } from 'node:crypto';

/**
 * DKIM signatures (RFC 6376): rsa-sha256 (ed25519-sha256, RFC 8463, for an Ed25519 key),
 * relaxed/relaxed, over the fields named by the caller.
 * Signing is on the path of every message we send (campaigns, forwards), so it works on the whole
 * message at once and keeps each parsed private key: reading a PEM key costs more than the RSA
 * signature itself (about 0.5 ms), and mailauth's signer reads it again for each message.
 */

export type DkimSigningInput = {
  domainName: string;
  keySelector: string;
  /** PEM: an RSA key (PKCS#8 or PKCS#1) or an Ed25519 one. */
  privateKey: string;
  /** Field names to sign (any case); every instance the message has is signed, absent ones are left out. */
  headerNames: readonly string[];
  signTime: Date;
};

const MAX_CACHED_KEYS = 1000;
const parsedKeys = new Map<string, KeyObject>();

/** The parsed key of this PEM, parsed once per process (a few domains' keys; cleared if many pile up). */
function keyObjectOf(pem: string): KeyObject {
  let key = parsedKeys.get(pem);
  if (!key) {
    key = createPrivateKey(pem);
    if (key.asymmetricKeyType !== 'rsa' && key.asymmetricKeyType !== 'ed25519')
      throw new Error(`DKIM signing needs an RSA or Ed25519 key, not ${key.asymmetricKeyType}`);
    if (parsedKeys.size >= MAX_CACHED_KEYS) parsedKeys.clear();
    parsedKeys.set(pem, key);
  }
  return key;
}

/**
 * Where the header block ends and the body starts. Line ends are counted as they go on the wire,
 * where the SMTP client turns a bare CR or LF into CRLF.
 */
function splitAtBody(raw: Buffer): { head: string; body: string } {
  const text = raw.toString('latin1');
  const match = /(?:\r\n|\r(?!\n)|\n)(?:\r\n|\r(?!\n)|\n)/.exec(text);
  if (!match) return { head: text, body: '' };
  return { head: text.slice(0, match.index), body: text.slice(match.index + match[0].length) };
}

/** The body in relaxed canonical form (RFC 6376 §3.4.4), each line ending as CRLF. */
export function relaxedBody(body: string): string {
  const lines = body
    .replace(/\r\n|\r|\n/g, '\n')
    // Only runs other than a single space: most of a body's whitespace is one already.
    .replace(/\t[ \t]*| [ \t]+/g, ' ')
    .replace(/ \n/g, '\n')
    .replace(/ $/, '')
    .replace(/\n+$/, '');
  return lines === '' ? '' : `${lines.replace(/\n/g, '\r\n')}\r\n`;
}

/** One header field in relaxed canonical form (RFC 6376 §3.4.2), without its line end. */
export function relaxedHeader(field: string): string {
  const colon = field.indexOf(':');
  const name = field.slice(0, colon).trim().toLowerCase();
  const value = field
    .slice(colon + 1)
    .replace(/\r\n|\r|\n/g, '')
    .replace(/[ \t]+/g, ' ')
    .trim();
  return `${name}:${value}`;
}

/** The message's header fields, each with its continuation lines. */
function headerFields(head: string): string[] {
  const fields: string[] = [];
  for (const line of head.split(/\r\n|\r|\n/)) {
    if (/^[ \t]/.test(line) && fields.length > 0) fields[fields.length - 1] += `\r\n${line}`;
    else if (line.includes(':')) fields.push(line);
  }
  return fields;
}

/**
 * The DKIM-Signature field (with its CRLF) for `raw`. Repeated fields are signed from the last up
 * (§5.4.2), as a verifier reads them.
 */
export function dkimSignatureField(raw: Buffer, input: DkimSigningInput): string {
  const key = keyObjectOf(input.privateKey);
  const { head, body } = splitAtBody(raw);
  const nameOf = (field: string) => field.slice(0, field.indexOf(':')).trim();
  const wanted = new Set(input.headerNames.map((name) => name.toLowerCase()));
  const signed = headerFields(head)
    .reverse()
    .filter((field) => wanted.has(nameOf(field).toLowerCase()));
  const bodyHash = createHash('sha256').update(relaxedBody(body), 'latin1').digest('base64');
  const algorithm = key.asymmetricKeyType === 'ed25519' ? 'ed25519-sha256' : 'rsa-sha256';
  // Folded between tags; the verifier's relaxed form of it is the one hashed here.
  const unsigned =
    `DKIM-Signature: v=1; a=${algorithm}; c=relaxed/relaxed; d=${input.domainName}; s=${input.keySelector};\r\n` +
    `\tt=${Math.floor(input.signTime.getTime() / 1000)}; h=${signed.map(nameOf).join(':')};\r\n` +
    `\tbh=${bodyHash};\r\n\tb=`;
  const data = Buffer.from(
    [...signed.map((field) => `${relaxedHeader(field)}\r\n`), relaxedHeader(unsigned)].join(''),
    'latin1',
  );
  const signature =
    algorithm === 'rsa-sha256'
      ? sign('sha256', data, key)
      : sign(null, createHash('sha256').update(data).digest(), key);
  // Folded inside b= too: whitespace there is ignored.
  return `${unsigned}${signature.toString('base64').replace(/(.{72})(?=.)/g, '$1\r\n\t')}\r\n`;
}
