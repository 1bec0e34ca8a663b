import { Readable } from 'node:stream';
import { TransportError, type DotHooks, type OutgoingMessage, type Transport } from '../../lib/mail-transport.ts';
import { SmtpPool, smtpOptionsFromUrl } from './smtp-pool.ts';

/** No SMTP_URL: messages are handed to `store` (the Outbox) and shown in the app, never lost. */
export function catcherTransport(store: (message: OutgoingMessage) => Promise<void>): Transport {
  return {
    name: 'catcher',
    holdsDots: false,
    async send(message, hooks) {
      await store(message);
      // Stored: there is no dot to hold back, but a recorder waiting for one is told it went.
      hooks?.atFinalDot({ write: () => true, drop: () => undefined });
    },
    async close() {},
  };
}

/** Held bytes count against the socket's 16 KB buffer; a larger message goes in two writes. */
const HOLD_LIMIT_BYTES = 12 * 1024;
const CONNECTION_ERRORS = new Set(['ECONNECTION', 'ESOCKET', 'ETIMEDOUT', 'ECONNRESET', 'EPIPE']);

/**
 * SMTP through a pool of connections (SMTP_URL; size SMTP_MAX_CONNECTIONS). With `holdDots` the
 * final dot of a message sent with DotHooks is handed to them (SEND_GUARANTEE=exactly-once).
 */
export function smtpTransport(url: string, options: { maxConnections: number; holdDots?: boolean }): Transport {
  const holdDots = options.holdDots ?? false;
  const pool = new SmtpPool(smtpOptionsFromUrl(url), options.maxConnections, holdDots);
  return {
    name: 'smtp',
    holdsDots: holdDots,
    async send(message, hooks?: DotHooks) {
      const envelope = { from: message.returnPath, to: [message.to] };
      for (let attempt = 1; ; attempt += 1) {
        let dotWritten = false;
        let dropped = false;
        let handedToHooks = false;
        try {
          await pool.send(
            envelope,
            ({ atFinalDot, holdUntilDot }) => {
              if (!hooks) return Readable.from([message.raw]);
              // Read only once the server has answered DATA: bytes held before would hold the envelope too.
              let pushed = false;
              return new Readable({
                read() {
                  if (!pushed) {
                    pushed = true;
                    if (message.raw.length < HOLD_LIMIT_BYTES) holdUntilDot();
                    this.push(message.raw);
                    return;
                  }
                  atFinalDot((dot) => {
                    handedToHooks = true;
                    hooks.atFinalDot({
                      write: () => (dotWritten = dot.write()),
                      drop: () => {
                        dropped = true;
                        dot.drop();
                      },
                    });
                  });
                  this.push(null);
                },
              });
            },
            // The retry goes on a newly opened connection, never on another that sat idle.
            { fresh: attempt > 1 },
          );
          return;
        } catch (error) {
          const code = dropped ? undefined : (error as { responseCode?: number }).responseCode;
          const reason = dropped ? 'the message was dropped before its final dot' : (error as Error).message;
          const connectionLost = !code && CONNECTION_ERRORS.has(String((error as { code?: string }).code));
          // A pooled connection the relay closed (seen only now): one try on a fresh connection before giving up.
          if (connectionLost && !dotWritten && !dropped && attempt === 1 && !handedToHooks) continue;
          throw new TransportError(code !== undefined && code >= 500 ? 'reject' : 'retry', reason, code, dotWritten);
        }
      }
    },
    async close() {
      pool.close();
    },
  };
}
