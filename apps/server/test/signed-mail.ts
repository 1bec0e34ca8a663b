import { generateKeyPairSync } from 'node:crypto';
import { dkimSignatureField } from '../src/modules/delivery/dkim.ts';
import type { TestDnsServer } from './dns-server.ts';

/**
 * A sending domain out there, for inbound tests: its DKIM key published in the local DNS server
 * (and, when asked, an SPF record naming 127.0.0.1), and a signer for messages from it. Auto-replies
 * go only to senders a message authenticates (inbound/sender-auth.ts); this is how a test proves one.
 */
export type SenderDomain = {
  domain: string;
  /** The message with a DKIM-Signature of this domain prepended (relaxed/relaxed, rsa-sha256). */
  sign(raw: string | Buffer): string;
};

const SIGNED_HEADERS = ['From', 'To', 'Subject', 'Date', 'Message-ID', 'MIME-Version', 'Content-Type'];

export function senderDomain(dns: TestDnsServer, domain: string, options: { spf?: boolean } = {}): SenderDomain {
  const keys = generateKeyPairSync('rsa', { modulusLength: 1024 });
  const selector = 'sel1';
  const publicKey = keys.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  dns.setTxt(`${selector}._domainkey.${domain}`, [[`v=DKIM1; k=rsa; p=${publicKey}`]]);
  if (options.spf) dns.setTxt(domain, ['v=spf1 ip4:127.0.0.1 -all']);
  const privateKey = keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  return {
    domain,
    sign(raw) {
      const buffer = Buffer.isBuffer(raw) ? raw : Buffer.from(raw, 'utf8');
      const field = dkimSignatureField(buffer, {
        domainName: domain,
        keySelector: selector,
        privateKey,
        headerNames: SIGNED_HEADERS,
        signTime: new Date(),
      });
      return Buffer.concat([Buffer.from(field, 'latin1'), buffer]).toString('utf8');
    },
  };
}
