import type { Readable } from 'node:stream';
import SMTPConnection from 'nodemailer/lib/smtp-connection/index.js';
import { installDotGate, type DotGate, type FinalDot } from './adapters/nodemailer-socket.ts';

type Envelope = { from: string; to: string[] };
/**
 * The message's end, under the caller's control (only where the pool holds dots): `atFinalDot`
 * registers a function that is handed the final dot in place of its write, to write it (or drop the
 * message) when it chooses; `holdUntilDot` keeps what is written from now on in the socket's buffer
 * until that dot, so the body and the dot leave in one system call.
 */
export type DotControl = { atFinalDot: (run: (dot: FinalDot) => void) => void; holdUntilDot: () => void };
type SmtpError = Error & { code?: string; responseCode?: number; response?: string };

/** Connection options from an SMTP_URL: smtp://user:pass@host:port (STARTTLS when offered) or smtps:// (TLS). */
export function smtpOptionsFromUrl(url: string) {
  const parsed = new URL(url);
  const secure = parsed.protocol === 'smtps:';
  return {
    host: parsed.hostname,
    port: Number(parsed.port || (secure ? 465 : 587)),
    secure,
    auth: parsed.username
      ? { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) }
      : undefined,
  };
}

/**
 * A pool of SMTP connections built on nodemailer's SMTPConnection. It reads the message stream only
 * after the server has answered DATA with 354. With `holdDots` (SEND_GUARANTEE=exactly-once, its
 * socket adapter checked at start) each connection's final dot can be handed to the caller, who
 * writes it right after the COMMIT of the send's record (exactly-once-recorder.ts).
 */
export class SmtpPool {
  private readonly idle: SMTPConnection[] = [];
  private readonly waiting: ((connection: SMTPConnection | null) => void)[] = [];
  private open = 0;
  private closed = false;
  private readonly gates = new WeakMap<SMTPConnection, DotGate>();
  /** Connections counted in `open`: one the relay closes leaves the pool at once, idle or not. */
  private readonly live = new Set<SMTPConnection>();

  constructor(
    private readonly options: ReturnType<typeof smtpOptionsFromUrl>,
    private readonly size: number,
    private readonly holdDots = false,
  ) {}

  private async connect(): Promise<SMTPConnection> {
    const connection = new SMTPConnection({
      host: this.options.host,
      port: this.options.port,
      secure: this.options.secure,
      connectionTimeout: 15_000,
      socketTimeout: 60_000,
    });
    await new Promise<void>((resolve, reject) => {
      connection.once('error', reject);
      connection.connect(() => {
        connection.removeListener('error', reject);
        resolve();
      });
    });
    connection.on('error', () => undefined);
    if (this.holdDots) {
      const gate = installDotGate(connection);
      if (gate) this.gates.set(connection, gate);
    }
    if (this.options.auth) {
      const auth = this.options.auth;
      await new Promise<void>((resolve, reject) =>
        connection.login(auth, (error) => (error ? reject(error) : resolve())),
      );
    }
    this.live.add(connection);
    // A relay closes connections that sit idle for a while; a closed one must never be handed out.
    connection.once('end', () => this.forget(connection));
    return connection;
  }

  /**
   * A connection for one message. `fresh` (the retry after a connection was found dead) never takes
   * one that sat idle, as the relay may have closed it too without our having seen it yet: an idle
   * one is closed to make room for a new connection. One handed straight over by a send that just
   * finished is taken, as it has just proved alive.
   */
  private async acquire(fresh = false): Promise<SMTPConnection> {
    if (this.closed) throw new Error('SMTP pool is closed');
    if (!fresh) {
      const ready = this.idle.pop();
      if (ready) return ready;
    } else if (this.open >= this.size) {
      const stale = this.idle.shift();
      if (stale) this.discard(stale);
    }
    if (this.open < this.size) {
      this.open += 1;
      try {
        return await this.connect();
      } catch (error) {
        this.open -= 1;
        this.wake();
        throw error;
      }
    }
    const connection = await new Promise<SMTPConnection | null>((resolve) => this.waiting.push(resolve));
    return connection ?? this.acquire(fresh);
  }

  private release(connection: SMTPConnection): void {
    const next = this.waiting.shift();
    if (next) next(connection);
    else this.idle.push(connection);
  }

  /** A connection that ended: out of the idle list and the count, so a fresh one takes its place. */
  private forget(connection: SMTPConnection): void {
    if (!this.live.delete(connection)) return;
    const idleAt = this.idle.indexOf(connection);
    if (idleAt >= 0) this.idle.splice(idleAt, 1);
    this.open -= 1;
    this.wake();
  }

  private discard(connection: SMTPConnection): void {
    const idleAt = this.idle.indexOf(connection);
    if (idleAt >= 0) this.idle.splice(idleAt, 1);
    if (!this.live.delete(connection)) return;
    this.open -= 1;
    try {
      connection.close();
    } catch {
      // already closed
    }
    this.wake();
  }

  /** Lets a waiter open a connection in place of one that went away. */
  private wake(): void {
    this.waiting.shift()?.(null);
  }

  /**
   * Sends one message; the stream is read only once the server accepts the data. A step registered
   * with `atFinalDot` is handed the final dot to write (or, should the dot not be seen, is run once
   * the server has answered, with the dot already gone). Answers the server's reply.
   */
  async send(
    envelope: Envelope,
    message: (control: DotControl) => Readable,
    options: { fresh?: boolean } = {},
  ): Promise<string> {
    const connection = await this.acquire(options.fresh ?? false);
    const gate = this.gates.get(connection);
    // A step registered after this send ended must never run at a later message's dot.
    let ended = false;
    let pendingWithoutGate: ((dot: FinalDot) => void) | null = null;
    const control: DotControl = {
      atFinalDot: (run) => {
        if (!ended && gate) gate.atDot = run;
        else if (!ended) pendingWithoutGate = run;
      },
      holdUntilDot: () => {
        if (!ended) gate?.hold();
      },
    };
    const clearGate = () => {
      const run = gate?.atDot ?? pendingWithoutGate;
      if (gate) gate.atDot = null;
      pendingWithoutGate = null;
      gate?.release();
      return run;
    };
    try {
      const info = await new Promise<{ response: string }>((resolve, reject) =>
        connection.send(envelope, message(control) as never, (error, result) => {
          ended = true;
          if (error) reject(error);
          else resolve(result);
        }),
      );
      clearGate()?.({ write: () => true, drop: () => undefined });
      this.release(connection);
      return info.response;
    } catch (error) {
      clearGate();
      const smtp = error as SmtpError;
      if (smtp.responseCode && smtp.code !== 'ECONNECTION' && smtp.code !== 'ETIMEDOUT' && smtp.code !== 'ESOCKET') {
        // The server refused this message but the session is fine: reset it and keep the connection.
        const reusable = await new Promise<boolean>((resolve) =>
          connection.reset((resetError) => resolve(!resetError)),
        );
        if (reusable) this.release(connection);
        else this.discard(connection);
      } else {
        this.discard(connection);
      }
      throw error;
    }
  }

  close(): void {
    this.closed = true;
    for (const connection of this.idle.splice(0)) connection.quit();
    for (const waiter of this.waiting.splice(0)) waiter(null);
  }
}
