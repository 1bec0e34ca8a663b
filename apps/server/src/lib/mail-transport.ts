/**
 * What the rest of the app knows of sending mail: a finished message, where it goes, and the one
 * call for single messages. The delivery engine implements these; the composition root wires them.
 */

/** A finished message: envelope plus the raw RFC 5322 bytes. */
export type OutgoingMessage = {
  userId: string;
  /** The campaign it belongs to, for the Outbox; null for a single (transactional) message. */
  campaignId: number | null;
  /** The sequence and email step that sent it, for the Outbox (as campaignId is a campaign's). */
  sequence?: { id: number; step: string } | null;
  messageId: string;
  /** Envelope sender (MAIL FROM): where bounces return. */
  returnPath: string;
  /** The From header's address. */
  from: string;
  to: string;
  subject: string;
  raw: Buffer;
  isTest: boolean;
};

/** A message's final dot, held back by the transport for a recorder that commits right before it. */
export type HeldDot = {
  /** Writes the dot (with the rest of the message held for it): one system call. False when the connection was already gone. */
  write(): boolean;
  /** Closes the connection without the dot, so the server discards the message. */
  drop(): void;
};

/** Hooks a transport calls while it sends, for a recorder that needs them (SEND_GUARANTEE=exactly-once). */
export type DotHooks = {
  /** Called at the final dot in place of writing it: the hook writes it (or drops it) when it chooses. */
  atFinalDot(dot: HeldDot): void;
};

/**
 * Why a message was not accepted: 'retry' (4xx, network) or 'reject' (5xx). `dotWritten` says
 * whether the final dot had gone out, so that the server may have the message after all.
 */
export class TransportError extends Error {
  constructor(
    readonly kind: 'retry' | 'reject',
    message: string,
    readonly responseCode?: number,
    readonly dotWritten = false,
  ) {
    super(message);
  }
}

/** Where mail goes: an SMTP relay, or the built-in catcher. */
export interface Transport {
  readonly name: 'smtp' | 'catcher';
  /** Whether `send` honours DotHooks (the SMTP pool with its socket adapter working). */
  readonly holdsDots: boolean;
  send(message: OutgoingMessage, hooks?: DotHooks): Promise<void>;
  close(): Promise<void>;
}

/** One message on its own: a test mail, a confirmation link, a notification. */
export type TransactionalMessage = {
  userId: string;
  from: { name: string | null; address: string };
  to: string;
  replyTo?: string | null;
  subject: string;
  html: string;
  text: string;
  /** Marked as a test ("[Test]" in the Outbox, an X-Sendwell-Test header). */
  isTest?: boolean;
  campaignId?: number | null;
  /** RFC 8058 one-click unsubscribe URL, when the message has one. */
  unsubscribeUrl?: string | null;
};

export type TransactionalResult = { status: 'sent'; messageId: string } | { status: 'suppressed' };

/** Sends single messages with the same DKIM signing, suppression list and Outbox as campaigns. */
export interface Mailer {
  sendTransactional(message: TransactionalMessage): Promise<TransactionalResult>;
}

/** A claimed ledger row's message: its row id, the claim that owns the row, and its Message-ID. */
export type SentMessage = { id: number; claimToken: string; messageId: string };

/**
 * How a feature's ledger marks messages sent, a group at a time: each row only while its claim still
 * owns it; answers the ids it marked.
 */
export type MarkSent = (messages: readonly SentMessage[]) => Promise<ReadonlySet<number>>;

/** What became of a message the server accepted. */
export type AcceptedOutcome = 'recorded' | 'superseded' | 'unrecorded';
/** What became of a message whose send failed: counted as sent after all, owned by another claim, or not sent. */
export type FailedOutcome = 'sent' | 'superseded' | 'not-sent';

/** The record of one message's sending (see modules/delivery/DESIGN.md). */
export interface MessageRecord {
  /** Hooks for the transport; only a recorder that commits at the final dot has them. */
  readonly hooks?: DotHooks;
  /** The server accepted the message: answers once its record is written. Never rejects. */
  accepted(): Promise<AcceptedOutcome>;
  /** The send failed: answers what that means for the row. Never rejects. */
  failed(): Promise<FailedOutcome>;
}

/** How sent messages are recorded: SEND_GUARANTEE picks the implementation. */
export interface SendRecorder {
  readonly guarantee: SendGuarantee;
  track(message: SentMessage): MessageRecord;
  close(): Promise<void>;
}

export type SendGuarantee = 'after-accept' | 'exactly-once';

/** A feature's send ledger, as the recorders need it: how to mark rows sent (and, for exactly-once, its raw statements). */
export type SendLedger = {
  /** A short name, unique per ledger: it names the prepared statements. */
  name: string;
  markSent: MarkSent;
  /** $1 ids, $2 claim tokens, $3 Message-IDs; RETURNING id of the rows marked. */
  markSql: string;
  /** $1 ids, $2 claim tokens: undoes the mark of rows whose message did not go. */
  unmarkSql: string;
};

/** The recorder of each ledger, under the configured guarantee (one per ledger per process). */
export interface SendRecorders {
  readonly guarantee: SendGuarantee;
  for(ledger: SendLedger): SendRecorder;
  close(): Promise<void>;
}
