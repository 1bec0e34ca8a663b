import type { AddressInfo } from 'node:net';
import type { SMTPServerSession } from 'smtp-server';
import { INBOUND_MAX_BYTES } from '@sendwell/contract/aliases';
import { INBOUND_MAX_RECIPIENTS } from '@sendwell/contract/inbound';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import { servesMailHost } from '../domains/index.ts';
import { receiveInbound, recipientKind, SRS_ONLY_REPORTS, type RecipientKind } from './pipeline.ts';

/**
 * The inbound SMTP server (smtp-server), for domains whose MX points at Sendwell. It answers:
 * - RCPT: 550 5.1.1 unless the address is an active alias on a DKIM-verified domain, or a bounce or
 *   SRS address of ours (recipientKind decides; the bounce side teaches it VERP addresses), or a
 *   mailed-unsubscribe address carrying our token; a `bounces…@` or `unsubscribe+…@` address only at a host we serve (a verified domain, its bounces. host, or the
 *   installation's own); an SRS address only from the null sender (550 5.7.1 otherwise);
 *   452 4.5.3 past INBOUND_MAX_RECIPIENTS recipients (as Postfix's smtpd_recipient_limit);
 * - MAIL with SIZE over 25 MB, and DATA that turns out larger: 552;
 * - too many connections from one address at once, or messages from it in a minute: 421 / 450;
 * - the content of a message is never a reason to retry: a message we cannot take for what it
 *   holds (a NUL in its header, not MIME, not a delivery report to an SRS address) is 554 / 550;
 * - 250 only once the pipeline stored the message; 451 when our own side fails (database down),
 *   so the sender retries, never a 5xx for a fault of ours.
 */

type SmtpError = Error & { responseCode: number };
const smtpError = (code: number, message: string): SmtpError =>
  Object.assign(new Error(message), { responseCode: code });

export type InboundSmtpServer = { port: number; close(): Promise<void> };

/** Starts the server on `port` (0: any free port); answers its port and how to close it. */
export async function startInboundSmtpServer(
  ctx: AppContext,
  options: { port: number; host?: string; log?: (message: string) => void } = {
    port: ctx.config.inboundSmtp.port ?? 0,
  },
): Promise<InboundSmtpServer> {
  const limits = ctx.config.inboundSmtp;
  const log = options.log ?? ((message: string) => console.warn(message));
  const connections = new Map<string, number>();
  const recentMessages = new Map<string, number[]>();
  /** What RCPT found each recipient to be, per session, so DATA does not ask again. */
  const kindsBySession = new Map<string, Map<string, RecipientKind>>();

  // Loaded only where an inbound SMTP port is set.
  const { SMTPServer } = await import('smtp-server');
  const server = new SMTPServer({
    name: limits.mxHost,
    banner: 'Sendwell inbound',
    size: INBOUND_MAX_BYTES,
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    maxClients: 1000,
    onConnect(session, callback) {
      const ip = session.remoteAddress;
      const open = (connections.get(ip) ?? 0) + 1;
      if (open > limits.connectionsPerIp)
        return callback(smtpError(421, '4.7.0 Too many connections from your address, try again later'));
      connections.set(ip, open);
      callback();
    },
    onClose(session) {
      kindsBySession.delete(session.id);
      const ip = session.remoteAddress;
      const open = (connections.get(ip) ?? 1) - 1;
      if (open <= 0) connections.delete(ip);
      else connections.set(ip, open);
    },
    onMailFrom(address, session, callback) {
      const args = address.args as Record<string, string> | false;
      const declared = Number((args && args.SIZE) ?? 0);
      if (declared > INBOUND_MAX_BYTES) return callback(smtpError(552, '5.3.4 Message too big: the limit is 25 MB'));
      const now = Date.now();
      const times = (recentMessages.get(session.remoteAddress) ?? []).filter((t) => t > now - 60_000);
      if (times.length >= limits.messagesPerIpPerMinute)
        return callback(smtpError(450, '4.7.1 Too many messages from your address, try again in a minute'));
      times.push(now);
      recentMessages.set(session.remoteAddress, times);
      callback();
    },
    onRcptTo(address, session, callback) {
      const recipient = address.address.toLowerCase();
      if (session.envelope.rcptTo.length >= INBOUND_MAX_RECIPIENTS)
        return callback(smtpError(452, `4.5.3 Too many recipients: at most ${INBOUND_MAX_RECIPIENTS} a message`));
      const nullSender = !session.envelope.mailFrom || session.envelope.mailFrom.address === '';
      const host = recipient.slice(recipient.lastIndexOf('@') + 1);
      recipientKind(ctx, recipient, null)
        .then(async (kind) => {
          const refused = () => callback(smtpError(550, `5.1.1 <${address.address}>: no such mailbox here`));
          if (kind.kind === 'unknown') return refused();
          // Bounces and mailed unsubscribes come to return-path hosts: only those we serve.
          if (
            (kind.kind === 'bounce' || kind.kind === 'unsubscribe') &&
            !(await servesMailHost(ctx.db, ctx.config, host))
          )
            return refused();
          if (kind.kind === 'srs' && !nullSender) return callback(smtpError(550, `5.7.1 ${SRS_ONLY_REPORTS}`));
          let kinds = kindsBySession.get(session.id);
          if (!kinds) kindsBySession.set(session.id, (kinds = new Map()));
          kinds.set(recipient, kind);
          callback();
        })
        .catch((error: Error) => {
          log(`inbound SMTP: recipient check failed: ${error.message}`);
          callback(smtpError(451, '4.3.0 Temporary failure, try again later'));
        });
    },
    onData(stream, session: SMTPServerSession, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', (error: Error) => callback(smtpError(451, `4.3.0 ${error.message}`)));
      stream.on('end', () => {
        if ((stream as unknown as { sizeExceeded?: boolean }).sizeExceeded)
          return callback(smtpError(552, '5.3.4 Message too big: the limit is 25 MB'));
        const raw = Buffer.concat(chunks);
        const mailFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        receiveInbound(ctx, {
          raw,
          envelope: { mailFrom, rcptTo: session.envelope.rcptTo.map((r) => r.address) },
          via: 'smtp',
          userId: null,
          knownKinds: kindsBySession.get(session.id),
          smtp: { ip: session.remoteAddress, helo: session.hostNameAppearsAs ?? '' },
        }).then(
          () => {
            kindsBySession.delete(session.id);
            callback();
          },
          (error: Error) => {
            if (error instanceof AppError && error.code === 'too_large')
              return callback(smtpError(552, `5.3.4 ${error.message}`));
            if (error instanceof AppError && error.code === 'bad_request')
              return callback(smtpError(554, `5.6.0 ${error.message}`));
            if (error instanceof AppError && error.code === 'unprocessable')
              return callback(smtpError(550, `5.7.1 ${error.message}`));
            log(`inbound SMTP: could not store a message: ${error.message}`);
            callback(smtpError(451, '4.3.0 Temporary failure, try again later'));
          },
        );
      });
    },
  });
  server.on('error', (error) => log(`inbound SMTP: ${error.message}`));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? limits.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
