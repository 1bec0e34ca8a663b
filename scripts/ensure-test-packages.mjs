// Everything the tests need from Debian, installed in one step before any test runs (CI starts
// without them): Chromium's headless shell for the browser tests, dovecot-imapd for the bounce mailbox test's real
// IMAP server. No test installs anything itself.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const PACKAGES = [
  {
    name: 'chromium-headless-shell',
    binary: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell',
    purpose: 'browser tests',
  },
  {
    name: 'dovecot-imapd',
    binary: process.env.DOVECOT_PATH ?? '/usr/sbin/dovecot',
    purpose: 'the bounce mailbox test',
  },
];

const missing = PACKAGES.filter((pkg) => !existsSync(pkg.binary));
if (missing.length > 0) {
  const names = missing.map((pkg) => pkg.name);
  console.log(`Installing Debian's ${names.join(', ')} for the tests…`);
  const asRoot = process.getuid?.() === 0 ? [] : ['sudo'];
  const run = (args) =>
    spawnSync(asRoot[0] ?? args[0], asRoot.length ? args : args.slice(1), {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  const install = ['apt-get', 'install', '-y', '--no-install-recommends', ...names];
  let result = run(install);
  if (result.status !== 0) {
    run(['apt-get', 'update']);
    result = run(install);
  }
  const still = missing.filter((pkg) => !existsSync(pkg.binary));
  if (result.status !== 0 || still.length > 0) {
    for (const pkg of still) console.error(`Could not install ${pkg.name}: ${pkg.purpose} cannot run.`);
    process.exit(1);
  }
}
