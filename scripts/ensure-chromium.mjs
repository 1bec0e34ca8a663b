// Browser tests drive Debian's Chromium; install it with apt when it is missing (CI starts without it).
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(CHROMIUM)) {
  console.log(`${CHROMIUM} is missing: installing Debian's chromium package…`);
  const asRoot = process.getuid?.() === 0 ? [] : ['sudo'];
  const run = (args) =>
    spawnSync(asRoot[0] ?? args[0], asRoot.length ? args : args.slice(1), {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  let result = run(['apt-get', 'install', '-y', 'chromium']);
  if (result.status !== 0) {
    run(['apt-get', 'update']);
    result = run(['apt-get', 'install', '-y', 'chromium']);
  }
  if (result.status !== 0 || !existsSync(CHROMIUM)) {
    console.error('Could not install chromium; browser tests cannot run.');
    process.exit(1);
  }
}
