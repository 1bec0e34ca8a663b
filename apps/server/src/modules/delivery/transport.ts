import { Readable } from 'node:stream';
import type { Db } from '../../db/client.ts';
import { outboxMessages } from '../../db/schema/index.ts';
import { SmtpPool, smtpOptionsFromUrl } from './smtp-pool.ts';

/** A finished message: envelope plus the raw RFC 5322 bytes. */
export type OutgoingMessage = {
  userId: string;
  campaignId: number | null;
  messageId: string;
  from: string;
  to: string;
  subject: string;
  raw: Buffer;
  isTest: boolean;
};

/**
 * Called once the message is fully in the server's hands except for its final dot: the caller
 * records it as sent there and answers false if it no longer owns the message (then it is not
 * completed). A crash before this point leaves nothing delivered; after it, only the dot is left.
 */
export type CommitHook = () => Promise<boolean>;

/**
 * Why a message was not accepted: 'retry' (4xx, network), 'reject' (5xx) or 'superseded' (the
 * commit hook declined). `afterCommit` says whether the commit hook had already recorded it.
 */
export class TransportError extends Error {
  constructor(
    readonly kind: 'retry' | 'reject' | 'superseded',
    message: string,
    readonly responseCode?: number,
    readonly afterCommit = false,
  ) {
    super(message);
  }
}

/** Where mail goes: an SMTP relay, or the built-in catcher. Sending goes through this interface only. */
export interface Transport {
  readonly name: 'smtp' | 'catcher';
  send(message: OutgoingMessage, commit?: CommitHook): Promise<void>;
  close(): Promise<void>;
}

const alwaysCommit: CommitHook = async () => true;

/** No SMTP_URL: messages are stored in the database and shown on the Outbox page, never lost. */
export function catcherTransport(db: Db): Transport {
  return {
    name: 'catcher',
    async send(message, commit = alwaysCommit) {
      if (!(await commit())) throw new TransportError('superseded', 'another worker owns this message');
      await db.insert(outboxMessages).values({
        userId: message.userId,
        campaignId: message.campaignId,
        messageId: message.messageId,
        fromAddress: message.from,
        toAddress: message.to,
        subject: message.subject,
        raw: message.raw.toString('utf8'),
        isTest: message.isTest ? 1 : 0,
      });
    },
    async close() {},
  };
}

class CommitDeclined extends Error {}
const CONNECTION_ERRORS = new Set(['ECONNECTION', 'ESOCKET', 'ETIMEDOUT', 'ECONNRESET', 'EPIPE']);

/** SMTP through a pool of connections (SMTP_URL; size SMTP_MAX_CONNECTIONS). */
export function smtpTransport(url: string, options: { maxConnections: number }): Transport {
  const pool = new SmtpPool(smtpOptionsFromUrl(url), options.maxConnections);
  return {
    name: 'smtp',
    async send(message, commit = alwaysCommit) {
      let committed = false;
      const body = () => {
        let handedOver = false;
        return new Readable({
          async read() {
            if (!handedOver) {
              handedOver = true;
              this.push(message.raw);
              return;
            }
            try {
              committed = await commit();
              if (committed) this.push(null);
              else this.destroy(new CommitDeclined('declined'));
            } catch (error) {
              this.destroy(error as Error);
            }
          },
        });
      };
      const envelope = { from: message.from, to: [message.to] };
      for (let attempt = 1; ; attempt += 1) {
        try {
          await pool.send(envelope, body);
          return;
        } catch (error) {
          if (error instanceof CommitDeclined || (error as Error).message === 'declined') throw new TransportError('superseded', 'another worker owns this message');
          const code = (error as { responseCode?: number }).responseCode;
          const connectionLost = !code && CONNECTION_ERRORS.has(String((error as { code?: string }).code));
          // A pooled connection the server closed while idle: one fresh try before giving up.
          if (connectionLost && !committed && attempt === 1) continue;
          throw new TransportError(code !== undefined && code >= 500 ? 'reject' : 'retry', (error as Error).message, code, committed);
        }
      }
    },
    async close() {
      pool.close();
    },
  };
}
