import type { Readable } from 'node:stream';
import SMTPConnection from 'nodemailer/lib/smtp-connection/index.js';

type Envelope = { from: string; to: string[] };
/**
 * The message's end, under the caller's control: `atFinalDot` registers a function that is handed
 * the final dot in place of its write, to write it (or drop the message) when it chooses;
 * `holdUntilDot` keeps what is written from now on in the socket's buffer until that dot, so the
 * body and the dot leave in one system call; `atDataCommand` registers a function run as the DATA
 * command is written, a round trip before the body can go.
 */
export type FinalDot = { write(): boolean; drop(): void };
export type AtDot = (dot: FinalDot) => void;
export type DotControl = {
  atFinalDot: (run: AtDot) => void;
  holdUntilDot: () => void;
  atDataCommand: (run: () => void) => void;
};
type DotGate = { atDot: AtDot | null; atData: (() => void) | null; held: boolean };
type WritableSocket = {
  write: (chunk: unknown, ...rest: unknown[]) => boolean;
  cork: () => void;
  uncork: () => void;
  destroy: () => void;
  destroyed: boolean;
};

const FINAL_DOTS = ['.\r\n', '\r\n.\r\n', '\n.\r\n'].map((dot) => Buffer.from(dot));
const DATA_COMMAND = Buffer.from('DATA\r\n');
const isFinalDot = (chunk: unknown) => Buffer.isBuffer(chunk) && FINAL_DOTS.some((dot) => dot.equals(chunk));
/** Lets go of bytes held by `holdUntilDot`, if any. */
function releaseHold(gate: DotGate, socket: WritableSocket | undefined): void {
  if (!gate.held) return;
  gate.held = false;
  socket?.uncork();
}
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
 * A pool of SMTP connections built on nodemailer's SMTPConnection. Unlike nodemailer's own pool,
 * it reads the message stream only after the server has answered DATA with 354, which lets the
 * caller record a message as sent in the moment before its final dot (see transport.ts), and its
 * sockets set TCP_NODELAY (Nagle's algorithm otherwise stalls each SMTP command on loopback).
 */
export class SmtpPool {
  private readonly idle: SMTPConnection[] = [];
  private readonly waiting: ((connection: SMTPConnection | null) => void)[] = [];
  private open = 0;
  private closed = false;
  private readonly gates = new WeakMap<SMTPConnection, { gate: DotGate; socket: WritableSocket }>();

  constructor(
    private readonly options: ReturnType<typeof smtpOptionsFromUrl>,
    private readonly size: number,
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
    // SMTPConnection keeps its socket private. Its final dot is written as a chunk of its own, so a
    // wrapper can hand it to the caller, who writes it right after the COMMIT of the send's record.
    // The connection only waits for the server's answer meanwhile, so the write is reported done.
    const socket = (connection as unknown as { _socket?: WritableSocket })._socket;
    if (socket) {
      const gate: DotGate = { atDot: null, atData: null, held: false };
      const write = socket.write.bind(socket);
      socket.write = (chunk, ...rest) => {
        if (gate.atData && Buffer.isBuffer(chunk) && DATA_COMMAND.equals(chunk)) {
          const written = write(chunk, ...rest);
          const run = gate.atData;
          gate.atData = null;
          run();
          return written;
        }
        if (!isFinalDot(chunk)) return write(chunk, ...rest);
        const writeDot = () => {
          if (socket.destroyed) return false;
          write(chunk, ...rest);
          releaseHold(gate, socket);
          return true;
        };
        const run = gate.atDot;
        gate.atDot = null;
        if (!run) return writeDot();
        // Dropped: closed with the body unsent or incomplete, which the server discards.
        run({ write: writeDot, drop: () => socket.destroy() });
        return true;
      };
      this.gates.set(connection, { gate, socket });
    }
    if (this.options.auth) {
      const auth = this.options.auth;
      await new Promise<void>((resolve, reject) =>
        connection.login(auth, (error) => (error ? reject(error) : resolve())),
      );
    }
    return connection;
  }

  private async acquire(): Promise<SMTPConnection> {
    if (this.closed) throw new Error('SMTP pool is closed');
    const ready = this.idle.pop();
    if (ready) return ready;
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
    return connection ?? this.acquire();
  }

  private release(connection: SMTPConnection): void {
    const next = this.waiting.shift();
    if (next) next(connection);
    else this.idle.push(connection);
  }

  private discard(connection: SMTPConnection): void {
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
   * Sends one message; the stream is read only once the server accepts the data. `atFinalDot`
   * registers a step that is handed the final dot to write (or, should the dot not be seen, is run
   * once the server has answered, with the dot already gone). Answers the server's reply.
   */
  async send(envelope: Envelope, message: (control: DotControl) => Readable): Promise<string> {
    const connection = await this.acquire();
    const wrapped = this.gates.get(connection);
    const gate = wrapped?.gate ?? { atDot: null, atData: null, held: false };
    // A step registered after this send ended must never run at a later message's dot.
    let ended = false;
    const runPending = () => {
      gate.atData = null;
      const run = gate.atDot;
      gate.atDot = null;
      run?.({ write: () => true, drop: () => undefined });
      releaseHold(gate, wrapped?.socket);
    };
    const control: DotControl = {
      atFinalDot: (run) => {
        if (!ended) gate.atDot = run;
      },
      atDataCommand: (run) => {
        if (!ended) gate.atData = run;
      },
      holdUntilDot: () => {
        if (ended || !wrapped || gate.held) return;
        gate.held = true;
        wrapped.socket.cork();
      },
    };
    try {
      const info = await new Promise<{ response: string }>((resolve, reject) =>
        connection.send(envelope, message(control) as never, (error, result) => {
          ended = true;
          if (error) reject(error);
          else resolve(result);
        }),
      );
      runPending();
      this.release(connection);
      return info.response;
    } catch (error) {
      gate.atData = null;
      gate.atDot = null;
      releaseHold(gate, wrapped?.socket);
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
