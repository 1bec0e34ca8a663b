import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect, type AddressInfo } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';

export type TestImapServer = { port: number; user: string; password: string; close(): Promise<void> };

const DOVECOT = process.env.DOVECOT_PATH ?? '/usr/sbin/dovecot';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function waitForPort(port: number, child: ChildProcess, log: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`dovecot exited (${child.exitCode}); see ${log}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`dovecot did not listen on ${port}; see ${log}`);
}

/**
 * A real IMAP server for tests: Debian's dovecot (scripts/ensure-test-packages.mjs installs it), started
 * in the foreground with a temporary configuration: plaintext login on a free high port, one user in
 * a passwd-file, maildir storage in a temporary directory. Run as root, mail belongs to the dovecot
 * user (dovecot refuses mail access as uid 0); otherwise to the current user.
 */
export async function startTestImapServer(): Promise<TestImapServer> {
  if (!existsSync(DOVECOT)) {
    throw new Error(
      `${DOVECOT} is missing: run node scripts/ensure-test-packages.mjs (npm test does) to install dovecot-imapd`,
    );
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'sendwell-imap-'));
  // Dovecot's auth and mail processes run as their own users: they must reach the passwd file and the maildir.
  chmodSync(dir, 0o755);
  const user = 'bounces';
  const password = 'bounce-mailbox-password';
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot
    ? {
        uid: Number(spawnSync('id', ['-u', 'dovecot']).stdout.toString().trim()),
        gid: Number(spawnSync('id', ['-g', 'dovecot']).stdout.toString().trim()),
      }
    : { uid: userInfo().uid, gid: userInfo().gid };
  const mail = path.join(dir, 'mail');
  mkdirSync(mail);
  if (asRoot) chownSync(mail, owner.uid, owner.gid);
  writeFileSync(path.join(dir, 'passwd'), `${user}:{PLAIN}${password}\n`);
  const log = path.join(dir, 'dovecot.log');
  const account = asRoot
    ? []
    : [`default_login_user = ${userInfo().username}`, `default_internal_user = ${userInfo().username}`];
  writeFileSync(
    path.join(dir, 'dovecot.conf'),
    [
      `base_dir = ${dir}/run`,
      `state_dir = ${dir}/state`,
      `log_path = ${log}`,
      'protocols = imap',
      'listen = 127.0.0.1',
      'ssl = no',
      'disable_plaintext_auth = no',
      'auth_mechanisms = plain login',
      `mail_location = maildir:${mail}/%u`,
      'first_valid_uid = 1',
      ...account,
      'service imap-login {',
      `  inet_listener imap {\n    port = ${port}\n  }`,
      '  inet_listener imaps {\n    port = 0\n  }',
      '}',
      'passdb {',
      '  driver = passwd-file',
      `  args = scheme=PLAIN username_format=%u ${dir}/passwd`,
      '}',
      'userdb {',
      '  driver = static',
      `  args = uid=${owner.uid} gid=${owner.gid} home=${mail}/%u`,
      '}',
      '',
    ].join('\n'),
  );
  const child = spawn(DOVECOT, ['-F', '-c', path.join(dir, 'dovecot.conf')], { stdio: 'ignore' });
  await waitForPort(port, child, log);
  return {
    port,
    user,
    password,
    close: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
