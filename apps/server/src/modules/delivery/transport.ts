import { Readable } from 'node:stream';
import type { Db, DbOrTx } from '../../db/client.ts';
import { outboxMessages } from '../../db/schema/index.ts';
import { SmtpPool, smtpOptionsFromUrl, type DotControl } from './smtp-pool.ts';

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
 * A send recorded in an open transaction: `commit` writes its COMMIT at once (synchronously, before
 * returning its promise) and `rollback` abandons it.
 */
export type SendRecord = {
  /**
   * Called just before the final dot (awaited): readies the record so `commit` can be written at
   * once (records with nothing to ready have none).
   */
  prepareCommit?(): Promise<void>;
  /**
   * Keeps what `commit` writes in this process until the answered function is called, so the
   * transport can send it as the step right before the dot's system call (records with no
   * connection of their own have none).
   */
  holdWrites?(): () => void;
  commit(): Promise<void>;
  rollback(): Promise<void>;
};

/**
 * Called once the message is in the server's hands except for its final dot: the caller marks it
 * sent in an open transaction and answers null if it no longer owns the message (then it is not
 * completed). The transport commits that record in the same synchronous step that writes the dot,
 * so a process killed leaves both done or neither: an uncommitted transaction rolls back when its
 * connection drops, and a server discards a message whose dot never came. What remains is the few
 * microseconds between the two socket writes (both are buffered first and sent back to back,
 * smtp-pool.ts; send-record.ts keeps the OS from pausing the process there); the COMMIT goes
 * first, so a kill that lands exactly there costs that recipient the message rather than sending
 * it twice. `within`, when given, is a transaction the record joins
 * (the built-in catcher stores a message and its record in one transaction).
 */
export type CommitHook = (within?: DbOrTx) => Promise<SendRecord | null>;

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

const nothingToRecord: SendRecord = { commit: async () => undefined, rollback: async () => undefined };
const alwaysCommit: CommitHook = async () => nothingToRecord;

/** No SMTP_URL: messages are stored in the database and shown on the Outbox page, never lost. */
export function catcherTransport(db: Db): Transport {
  return {
    name: 'catcher',
    async send(message, commit = alwaysCommit) {
      // The stored message and its record commit together: a process killed in between leaves
      // neither, and a declined record takes the message back with it.
      await db.transaction(async (tx) => {
        await tx.insert(outboxMessages).values({
          userId: message.userId,
          campaignId: message.campaignId,
          messageId: message.messageId,
          fromAddress: message.from,
          toAddress: message.to,
          subject: message.subject,
          raw: message.raw.toString('utf8'),
          isTest: message.isTest ? 1 : 0,
        });
        const record = await commit(tx);
        if (!record) throw new TransportError('superseded', 'another worker owns this message');
        await record.commit();
      });
    },
    async close() {},
  };
}

class CommitDeclined extends Error {}
const HOLD_LIMIT_BYTES = 12 * 1024;
const CONNECTION_ERRORS = new Set(['ECONNECTION', 'ESOCKET', 'ETIMEDOUT', 'ECONNRESET', 'EPIPE']);

/** SMTP through a pool of connections (SMTP_URL; size SMTP_MAX_CONNECTIONS). */
export function smtpTransport(url: string, options: { maxConnections: number }): Transport {
  const pool = new SmtpPool(smtpOptionsFromUrl(url), options.maxConnections);
  return {
    name: 'smtp',
    async send(message, commit = alwaysCommit) {
      let committed = false;
      let recorded: Promise<void> | null = null;
      type Attempt = { failed: boolean; record: Promise<SendRecord | null> | null };
      const body = (attempt: Attempt, { atFinalDot, holdUntilDot }: DotControl) => {
        // The record is taken once a connection is ours, as the envelope goes out, so its round trip
        // overlaps theirs; taken earlier, it would wait with the message for a free connection while
        // holding a database client.
        attempt.record = commit();
        attempt.record.catch(() => undefined);
        let handedOver = false;
        return new Readable({
          async read() {
            if (!handedOver) {
              handedOver = true;
              // Held bytes count against the socket's 16 KB buffer; a larger message would stall
              // the pipe waiting for a drain that never comes, so it goes in two writes.
              if (message.raw.length < HOLD_LIMIT_BYTES) holdUntilDot();
              this.push(message.raw);
              return;
            }
            let record: SendRecord | null = null;
            try {
              record = await attempt.record;
              await record?.prepareCommit?.();
            } catch (error) {
              this.destroy(error as Error);
              return;
            }
            if (!record) {
              this.destroy(new CommitDeclined('declined'));
              return;
            }
            if (this.destroyed || attempt.failed) return; // the caller rolls the record back
            // The COMMIT is written right before the dot, in one synchronous step: buffered with
            // the dot, then sent just before it.
            committed = true;
            atFinalDot(() => {
              const send = record.holdWrites?.();
              recorded = record.commit();
              return send;
            });
            this.push(null);
          },
        });
      };
      const envelope = { from: message.from, to: [message.to] };
      for (let attempt = 1; ; attempt += 1) {
        const state: Attempt = { failed: false, record: null };
        try {
          // The record's commit is the caller's to wait for (it holds no SMTP connection).
          await pool.send(envelope, (control) => body(state, control));
          return;
        } catch (error) {
          state.failed = true;
          // Not sent: a record still open holds the row's lock, so it is given back first.
          if (!committed) await (await state.record?.catch(() => null))?.rollback();
          if (error instanceof CommitDeclined || (error as Error).message === 'declined') throw new TransportError('superseded', 'another worker owns this message');
          // The server's answer to the dot came after the record was committed; the caller corrects it.
          if (recorded) await (recorded as Promise<void>).catch(() => undefined);
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
