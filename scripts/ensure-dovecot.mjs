// The bounce mailbox test polls a real IMAP server: Debian's dovecot-imapd, installed with apt when it
// is missing (CI starts without it), like ensure-chromium.mjs does for the browser tests.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const DOVECOT = process.env.DOVECOT_PATH ?? '/usr/sbin/dovecot';
if (!existsSync(DOVECOT)) {
  console.log(`${DOVECOT} is missing: installing Debian's dovecot-imapd package…`);
  const asRoot = process.getuid?.() === 0 ? [] : ['sudo'];
  const run = (args) =>
    spawnSync(asRoot[0] ?? args[0], asRoot.length ? args : args.slice(1), {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  let result = run(['apt-get', 'install', '-y', '--no-install-recommends', 'dovecot-imapd']);
  if (result.status !== 0) {
    run(['apt-get', 'update']);
    result = run(['apt-get', 'install', '-y', '--no-install-recommends', 'dovecot-imapd']);
  }
  if (result.status !== 0 || !existsSync(DOVECOT)) {
    console.error('Could not install dovecot-imapd; the bounce mailbox test cannot run.');
    process.exit(1);
  }
}
