import { createRequire } from 'node:module';
import net from 'node:net';
import { Readable } from 'node:stream';
import SMTPConnection from 'nodemailer/lib/smtp-connection/index.js';

/**
 * The one place that reaches into nodemailer's private parts, for SEND_GUARANTEE=exactly-once:
 * SMTPConnection keeps its socket in `_socket` and writes a message's final dot as a chunk of its
 * own. Wrapping that socket's `write` lets the caller hold the dot and write it right after its
 * record's COMMIT. Checked against nodemailer 10.6; `checkNodemailerSocket` runs one message through
 * a throw-away local server at start and says what is missing if a newer version changed either.
 */
const NODEMAILER_VERSION_RELIED_ON = '10.6';

type WritableSocket = {
  write: (chunk: unknown, ...rest: unknown[]) => boolean;
  cork: () => void;
  uncork: () => void;
  destroy: () => void;
  destroyed: boolean;
};
export type FinalDot = { write(): boolean; drop(): void };
/** Per connection: what runs at the next final dot, and whether bytes are held for it. */
export type DotGate = {
  atDot: ((dot: FinalDot) => void) | null;
  held: boolean;
  /** Keeps what is written from now on in the socket's buffer until the dot: body and dot leave in one system call. */
  hold(): void;
  /** Lets held bytes go. */
  release(): void;
};

const FINAL_DOTS = ['.\r\n', '\r\n.\r\n', '\n.\r\n'].map((dot) => Buffer.from(dot));
const isFinalDot = (chunk: unknown) => Buffer.isBuffer(chunk) && FINAL_DOTS.some((dot) => dot.equals(chunk));

function socketOf(connection: SMTPConnection): WritableSocket | null {
  const socket = (connection as unknown as { _socket?: unknown })._socket;
  if (!socket || typeof socket !== 'object') return null;
  const candidate = socket as Partial<WritableSocket>;
  return typeof candidate.write === 'function' && typeof candidate.cork === 'function'
    ? (socket as WritableSocket)
    : null;
}

/** Installs the dot gate on a connected SMTPConnection; null when its socket is not where we expect it. */
export function installDotGate(connection: SMTPConnection): DotGate | null {
  const socket = socketOf(connection);
  if (!socket) return null;
  const write = socket.write.bind(socket);
  const gate: DotGate = {
    atDot: null,
    held: false,
    hold() {
      if (gate.held) return;
      gate.held = true;
      socket.cork();
    },
    release() {
      if (!gate.held) return;
      gate.held = false;
      socket.uncork();
    },
  };
  socket.write = (chunk, ...rest) => {
    if (!isFinalDot(chunk)) return write(chunk, ...rest);
    const run = gate.atDot;
    gate.atDot = null;
    const writeDot = () => {
      if (socket.destroyed) return false;
      write(chunk, ...rest);
      gate.release();
      return true;
    };
    if (!run) return writeDot();
    // The connection only waits for the server's answer meanwhile, so the write is reported done.
    // Dropped: closed with the body incomplete, which the server discards.
    run({ write: writeDot, drop: () => socket.destroy() });
    return true;
  };
  return gate;
}

/** A minimal SMTP peer on loopback that accepts one message; enough to watch the client's writes. */
async function throwAwayServer(): Promise<{ port: number; close(): void }> {
  const server = net.createServer((socket) => {
    let inData = false;
    let buffered = '';
    socket.write('220 check ESMTP\r\n');
    socket.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('latin1');
      if (inData) {
        if (!buffered.includes('\r\n.\r\n')) return;
        inData = false;
        buffered = '';
        socket.write('250 queued\r\n');
        return;
      }
      let end: number;
      while ((end = buffered.indexOf('\r\n')) >= 0) {
        const line = buffered.slice(0, end).toUpperCase();
        buffered = buffered.slice(end + 2);
        if (line.startsWith('EHLO')) socket.write('250-check\r\n250 PIPELINING\r\n');
        else if (line === 'DATA') {
          inData = true;
          socket.write('354 go ahead\r\n');
          return;
        } else if (line === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as net.AddressInfo;
  return { port: address.port, close: () => server.close() };
}

/**
 * Sends one message through a gated connection to a local server: answers null when the gate saw the
 * final dot and the server got the message, else what went wrong (the caller falls back, loudly).
 */
export async function checkNodemailerSocket(): Promise<string | null> {
  const installed = (createRequire(import.meta.url)('nodemailer/package.json') as { version: string }).version;
  const server = await throwAwayServer();
  const connection = new SMTPConnection({ host: '127.0.0.1', port: server.port, connectionTimeout: 2000 });
  try {
    await new Promise<void>((resolve, reject) => {
      connection.once('error', reject);
      connection.connect(() => resolve());
    });
    const gate = installDotGate(connection);
    if (!gate)
      return `nodemailer ${installed}: SMTPConnection has no _socket with write and cork (relied on ${NODEMAILER_VERSION_RELIED_ON})`;
    let sawDot = false;
    gate.atDot = (dot) => {
      sawDot = true;
      dot.write();
    };
    await new Promise<void>((resolve, reject) =>
      connection.send(
        { from: 'check@localhost', to: ['check@localhost'] },
        Readable.from([Buffer.from('Subject: check\r\n\r\nbody\r\n')]) as never,
        (error) => (error ? reject(error) : resolve()),
      ),
    );
    if (!sawDot)
      return `nodemailer ${installed}: the final dot was not written as a chunk of its own (relied on ${NODEMAILER_VERSION_RELIED_ON})`;
    return null;
  } catch (error) {
    return `nodemailer ${installed}: the socket check failed: ${(error as Error).message}`;
  } finally {
    connection.close();
    server.close();
  }
}
