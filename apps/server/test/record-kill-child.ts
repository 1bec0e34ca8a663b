// Child process of exactly-once-recorder.int.test.ts: marks one ledger row sent as a send group does,
// lets the given time pass as a worker held up by other work would, commits it as the group does at
// the final dots, and is killed with SIGKILL in the same step, as a worker killed right after writing them.
import { performance } from 'node:perf_hooks';
import { ledgerStatementsOf } from '../src/db/send-ledger.ts';
import { pgSocketOf } from '../src/modules/delivery/adapters/pg-socket.ts';
import { GraceEstimate, markGroupSent, recordPool } from '../src/modules/delivery/exactly-once-recorder.ts';

const grace = new GraceEstimate();
// As in a worker whose recent groups all reached their COMMIT within GRACE_TRAINED_MS: the sleep is short.
if (process.env.GRACE_TRAINED_MS) for (let i = 0; i < 64; i += 1) grace.observe(Number(process.env.GRACE_TRAINED_MS));
const pool = recordPool(process.env.DATABASE_URL ?? '', 1);
const client = await pool.connect();
const socket = pgSocketOf(client);
if (!socket) process.exit(4);
const rows = [
  { id: Number(process.env.ROW_ID), claimToken: process.env.CLAIM_TOKEN ?? '', messageId: '<kill@acme.example>' },
];
const ledger = {
  name: 'campaign_sends',
  markSent: async () => new Set<number>(),
  ...ledgerStatementsOf('campaign_sends'),
};
const group = await markGroupSent(client, socket, ledger, rows, grace);
if (rows.some((row) => !group.owned.has(row.id))) process.exit(3);
if (process.env.DOT_WAIT === 'idle') {
  // Idle meanwhile: the answer to the record's sleep is read as it comes.
  await new Promise((resolve) => setTimeout(resolve, Number(process.env.DOT_AFTER_MS)));
} else {
  // Busy, as a worker rendering and writing: the clock, not a timer, decides when the dot comes.
  const dotAt = performance.now() + Number(process.env.DOT_AFTER_MS);
  while (performance.now() < dotAt);
}
void group.commitWith(() => process.kill(process.pid, 'SIGKILL'));
