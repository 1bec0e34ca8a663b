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

/** A message's final dot, held back by the transport until the record of its sending is written. */
export type HeldDot = {
  /** Writes the dot (with the rest of the message held for it): one system call. False when the connection was already gone. */
  write(): boolean;
  /** Closes the connection without the dot, so the server discards the message: another claim owns it ('superseded'), or its record could not be made ('failed'). */
  drop(reason: 'superseded' | 'failed'): void;
};

/** The record of one message's sending, taken as its envelope goes out. */
export type SendRecord = {
  /**
   * The message's DATA command has gone out: its dot is due in about a round trip, so a record that
   * is committed in groups can start marking it now (records made at once have none).
   */
  dotDue?(): void;
  /**
   * Called at the final dot in place of writing it: records the message as sent and writes the dot
   * in the same synchronous step as the record's COMMIT, right after it; or drops it. Answers once
   * the COMMIT has been answered; rejects when it failed after the dot went.
   */
  finish(dot: HeldDot): Promise<void>;
  /** Undoes the record of a message whose dot was not written. */
  rollback(): Promise<void>;
};

/**
 * Called as the message's envelope goes out: the caller answers the message's record, or null if it
 * already knows it no longer owns the message (then it is not completed). The record's COMMIT is
 * written in the same synchronous step as the dot, just before it, so a process killed leaves both
 * done or neither: an uncommitted transaction rolls back when its connection drops, and a server
 * discards a message whose dot never came. What remains is the few microseconds between the COMMIT's
 * system call and the dots' (send-record.ts commits several messages together, and their dots follow
 * back to back; the server sleeping at the COMMIT keeps the OS from pausing the process there); the
 * COMMIT goes first, so a kill that lands exactly there costs those recipients the message rather
 * than sending it twice. `within`, when given, is a transaction the record joins (the built-in catcher
 * stores a message and its record in one transaction).
 */
export type CommitHook = (within?: DbOrTx) => Promise<SendRecord | null>;

/**
 * Why a message was not accepted: 'retry' (4xx, network), 'reject' (5xx) or 'superseded' (the
 * record found another claim owns it). `afterCommit` says whether its dot had gone out after its record.
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

const nothingToRecord: SendRecord = { finish: async (dot) => void dot.write(), rollback: async () => undefined };
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
        // Stored in this transaction: there is no dot to hold back.
        await record.finish({ write: () => true, drop: () => undefined });
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
      type Attempt = {
        failed: boolean;
        record: Promise<SendRecord | null> | null;
        /** The record's finish: answered once its COMMIT is. */
        recorded: Promise<void> | null;
        dotWritten: boolean;
        dropped: 'superseded' | 'failed' | null;
      };
      const body = (attempt: Attempt, { atFinalDot, holdUntilDot, atDataCommand }: DotControl) => {
        // The record is taken once a connection is ours, as the envelope goes out, so a mark made at
        // once overlaps the envelope's round trips; taken earlier, it would wait with the message for
        // a free connection.
        const record = commit();
        attempt.record = record;
        record.catch(() => undefined);
        atDataCommand(
          () =>
            void record.then(
              (taken) => taken?.dotDue?.(),
              () => undefined,
            ),
        );
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
            let record: SendRecord | null;
            try {
              record = await attempt.record;
            } catch (error) {
              this.destroy(error as Error);
              return;
            }
            if (!record) {
              this.destroy(new CommitDeclined('declined'));
              return;
            }
            if (this.destroyed || attempt.failed) return; // the caller rolls the record back
            // The dot is handed to the record, which writes it right after its COMMIT.
            const finishing = record;
            atFinalDot((dot) => {
              attempt.recorded = finishing.finish({
                write: () => (attempt.dotWritten = dot.write()),
                drop: (reason) => {
                  attempt.dropped = reason;
                  dot.drop();
                },
              });
              attempt.recorded.catch(() => undefined); // the caller's to handle (send.service.ts)
            });
            this.push(null);
          },
        });
      };
      const envelope = { from: message.from, to: [message.to] };
      for (let attempt = 1; ; attempt += 1) {
        const state: Attempt = { failed: false, record: null, recorded: null, dotWritten: false, dropped: null };
        try {
          // The record's commit is the caller's to wait for (it holds no SMTP connection).
          await pool.send(envelope, (control) => body(state, control));
          return;
        } catch (error) {
          state.failed = true;
          // Not sent: a record still open holds the row's lock, so it is given back first.
          if (!state.dotWritten) await (await state.record?.catch(() => null))?.rollback();
          if (
            state.dropped === 'superseded' ||
            error instanceof CommitDeclined ||
            (error as Error).message === 'declined'
          )
            throw new TransportError('superseded', 'another worker owns this message');
          // The server's answer to the dot came after the record was committed; the caller corrects it.
          if (state.dotWritten) await state.recorded?.catch(() => undefined);
          const code = state.dropped ? undefined : (error as { responseCode?: number }).responseCode;
          const reason = state.dropped === 'failed' ? 'the send could not be recorded' : (error as Error).message;
          const connectionLost = !code && CONNECTION_ERRORS.has(String((error as { code?: string }).code));
          // A pooled connection the server closed while idle: one fresh try before giving up.
          if (connectionLost && !state.dotWritten && !state.dropped && attempt === 1) continue;
          throw new TransportError(
            code !== undefined && code >= 500 ? 'reject' : 'retry',
            reason,
            code,
            state.dotWritten,
          );
        }
      }
    },
    async close() {
      pool.close();
    },
  };
}
