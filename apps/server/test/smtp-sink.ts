import type { Socket } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';

/** `receivedAt` is when the message's final dot arrived (tests of timing compare it with a schedule). */
export type ReceivedMessage = { from: string; to: string[]; raw: string; parsed: ParsedMail; receivedAt: Date };

/**
 * A real SMTP server for tests: accepts everything except recipients the test marks as rejected
 * (answered 550 "mailbox unavailable") or deferred (451); `answerRcptAfterMs` holds back the answer
 * to a recipient, as a slow server does.
 */
export async function startSmtpSink(
  options: {
    reject?: (address: string) => boolean;
    /** Recipients refused for the message, not the mailbox (554 5.7.1 policy): a failure, not a bounce. */
    refuse?: (address: string) => boolean;
    defer?: (address: string) => boolean;
    answerRcptAfterMs?: (address: string) => number;
    /** Closes a connection idle this long ("421 Timeout - closing connection"), as relays do. */
    closeIdleAfterMs?: number;
  } = {},
) {
  const received: ReceivedMessage[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    ...(options.closeIdleAfterMs ? { socketTimeout: options.closeIdleAfterMs } : {}),
    onRcptTo(address, _session, callback) {
      if (options.reject?.(address.address)) {
        const error = new Error('5.1.1 Mailbox unavailable: no such user') as Error & { responseCode: number };
        error.responseCode = 550;
        return callback(error);
      }
      if (options.refuse?.(address.address)) {
        const error = new Error('5.7.1 Message refused by local policy') as Error & { responseCode: number };
        error.responseCode = 554;
        return callback(error);
      }
      if (options.defer?.(address.address)) {
        const error = new Error('4.2.0 Try again later') as Error & { responseCode: number };
        error.responseCode = 451;
        return callback(error);
      }
      const delay = options.answerRcptAfterMs?.(address.address) ?? 0;
      if (delay > 0) setTimeout(() => callback(), delay);
      else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const receivedAt = new Date();
        const raw = Buffer.concat(chunks).toString('utf8');
        simpleParser(raw).then((parsed) => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
            parsed,
            receivedAt,
          });
          callback();
        }, callback);
      });
    },
  });
  // A client killed mid-session resets its connection; the server reports that here, not as a crash.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const sockets = new Set<Socket>();
  server.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** Client connections open now. */
    connectionCount: () => sockets.size,
    /** Closes every client connection, as a relay does to connections idle too long. */
    dropConnections: () => {
      for (const socket of sockets) socket.end();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
