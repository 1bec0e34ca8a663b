// Start-up and sign-in figures: cold start of the server on a fresh embedded database (first run
// applies migrations), a restart on the same data, and sign-in latency for right and wrong passwords.
// The server runs as npm start runs it: `node apps/server/dist/main.mjs`, the bundle rebuilt first
// (untimed) when older than its sources.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { currentBundle } from '../scripts/build-server.mjs';

const port = 5190;
const bundle = await currentBundle('main');
const base = `http://127.0.0.1:${port}`;

async function startServer(dataDir: string): Promise<{ ms: number; stop: () => Promise<void> }> {
  const started = performance.now();
  const child = spawn(process.execPath, [bundle], {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT_PER_MINUTE: '100000',
    },
    stdio: 'inherit',
  });
  for (;;) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  const ms = performance.now() - started;
  return {
    ms,
    stop: () =>
      new Promise((resolve) => {
        child.on('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function timeLogins(email: string, password: string, n: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i += 1) {
    const t0 = performance.now();
    await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    times.push(performance.now() - t0);
  }
  return times;
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'sendwell-bench-'));
try {
  const cold = await startServer(dataDir);
  console.log(`cold start (fresh data dir, migrations): ${cold.ms.toFixed(0)} ms until /api/health answers`);
  const signup = await fetch(`${base}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email: 'bench@example.com',
      password: 'bench-pass',
      confirmPassword: 'bench-pass',
      firstName: 'B',
      lastName: 'M',
    }),
  });
  if (signup.status !== 201) throw new Error(`sign-up failed: ${signup.status}`);
  await cold.stop();

  const warm = await startServer(dataDir);
  console.log(`restart (existing data): ${warm.ms.toFixed(0)} ms until /api/health answers`);
  const right = await timeLogins('bench@example.com', 'bench-pass', 30);
  // Wrong passwords are spread over several emails so the sign-in pacing (5 attempts per email and
  // address before the delays) does not kick in, and the 60 logins stay within the per-address minute limit.
  const wrong: number[] = [];
  const unknown: number[] = [];
  for (let i = 0; i < 5; i += 1) {
    wrong.push(...(await timeLogins('bench@example.com', `nope-${i}`, 1)));
    unknown.push(...(await timeLogins(`ghost-${i}@example.com`, 'nope', 5)));
  }
  console.log(
    `sign-in, right password: p50 ${percentile(right, 50).toFixed(1)} ms, p95 ${percentile(right, 95).toFixed(1)} ms (n=${right.length})`,
  );
  console.log(`sign-in, wrong password: p50 ${percentile(wrong, 50).toFixed(1)} ms (n=${wrong.length})`);
  console.log(`sign-in, unknown email:  p50 ${percentile(unknown, 50).toFixed(1)} ms (n=${unknown.length})`);
  await warm.stop();
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
