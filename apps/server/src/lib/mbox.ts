const MBOX_SEPARATOR = Buffer.from('From ');

/**
 * A message as a Unix mailbox (mbox) stores it, or as some mail systems and tools hand one over,
 * begins with a `From sender date` separator line before its header fields, and quotes body lines
 * that begin with `From ` as `>From ` (mboxrd: any line of `>`s before `From ` gains one). Such a
 * message answers with the separator dropped and one `>` taken off each quoted line; any other is
 * answered as it is. `From:` (the header field, with its colon) is not a separator.
 */
export function withoutMboxSeparator(raw: Buffer): Buffer {
  if (!raw.subarray(0, MBOX_SEPARATOR.length).equals(MBOX_SEPARATOR)) return raw;
  const lineEnd = raw.indexOf(0x0a);
  if (lineEnd === -1) return raw;
  const message = raw.subarray(lineEnd + 1);
  if (!message.includes('>From ')) return message;
  // latin1 maps each byte to one character and back, so the bytes of every other line stay as they are.
  return Buffer.from(message.toString('latin1').replace(/^>(>*From )/gm, '$1'), 'latin1');
}
