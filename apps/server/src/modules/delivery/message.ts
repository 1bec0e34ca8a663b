import { dkimSign } from 'mailauth/lib/dkim/sign.js';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import { randomBytes } from 'node:crypto';

/** A Message-ID on the sending domain. */
export function newMessageId(fromEmail: string): string {
  const domain = fromEmail.split('@')[1] ?? 'sendwell.local';
  return `<${randomBytes(12).toString('hex')}@${domain}>`;
}

/**
 * The raw message with the headers bulk mail needs: Message-ID on the sending domain,
 * List-Unsubscribe (https and mailto) and List-Unsubscribe-Post for one-click (RFC 8058).
 */
export async function buildRawMessage(input: {
  from: { name: string | null; address: string };
  to: string;
  replyTo: string | null;
  subject: string;
  html: string;
  text: string;
  messageId: string;
  unsubscribeUrl: string | null;
  isTest: boolean;
}): Promise<Buffer> {
  const domain = input.from.address.split('@')[1] ?? 'sendwell.local';
  const headers: Record<string, string> = {};
  if (input.unsubscribeUrl) {
    headers['List-Unsubscribe'] = `<${input.unsubscribeUrl}>, <mailto:unsubscribe@${domain}?subject=unsubscribe>`;
    headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click';
  }
  if (input.isTest) headers['X-Sendwell-Test'] = 'yes';
  const composer = new MailComposer({
    from: input.from.name ? { name: input.from.name, address: input.from.address } : input.from.address,
    to: input.to,
    replyTo: input.replyTo ?? undefined,
    subject: input.isTest ? `[Test] ${input.subject}` : input.subject,
    html: input.html,
    text: input.text,
    messageId: input.messageId,
    headers,
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  return composer.compile().build();
}

/** Headers the DKIM signature covers, the unsubscribe ones included so they cannot be stripped or forged. */
const SIGNED_HEADERS = ['From', 'To', 'Subject', 'Date', 'Message-ID', 'Reply-To', 'MIME-Version', 'Content-Type', 'List-Unsubscribe', 'List-Unsubscribe-Post'];

/** Prepends a DKIM-Signature made with the sending domain's key (relaxed/relaxed, rsa-sha256). */
export async function signDkim(raw: Buffer, key: { domainName: string; keySelector: string; privateKey: string }): Promise<Buffer> {
  const signature = { signingDomain: key.domainName, selector: key.keySelector, privateKey: key.privateKey, canonicalization: 'relaxed/relaxed' };
  const result = await dkimSign(raw, {
    ...signature,
    signatureData: [signature],
    // mailauth reads the list as a colon-separated string (its .d.ts says string[]).
    headerList: SIGNED_HEADERS.join(':') as unknown as string[],
  });
  if (result.errors.length > 0 || !result.signatures) throw new Error(`DKIM signing failed: ${result.errors.map((e) => e.message).join('; ')}`);
  return Buffer.concat([Buffer.from(result.signatures), raw]);
}
