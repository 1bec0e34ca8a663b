// Child process of send-record.int.test.ts: marks one ledger row sent as a send group does, lets the
// given time pass as a worker held up by other work would, commits it as the group does at the
// final dots, and is killed with SIGKILL in the same step, as a worker killed right after writing them.
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../src/db/client.ts';
import { graceEstimate, markGroupSent } from '../src/modules/delivery/send-record.ts';

// As in a worker whose recent groups all reached their COMMIT within GRACE_TRAINED_MS: the sleep is short.
if (process.env.GRACE_TRAINED_MS)
  for (let i = 0; i < 64; i += 1) graceEstimate.observe(Number(process.env.GRACE_TRAINED_MS));
const database = await openDatabase({ url: process.env.DATABASE_URL ?? '', poolSize: 2 });
// LATE_ROW_ID: a second row in the group whose dot is late, so its mark is taken back before the COMMIT.
const rows = [process.env.ROW_ID, process.env.LATE_ROW_ID].filter(Boolean).map((id) => ({
  id: Number(id),
  claimToken: process.env.CLAIM_TOKEN ?? '',
  messageId: `<kill-test-${id}@acme.example>`,
}));
const group = await markGroupSent(database, rows);
if (rows.some((row) => !group.owned.has(row.id))) process.exit(3);
if (process.env.LATE_ROW_ID) await group.release([Number(process.env.LATE_ROW_ID)]);
if (process.env.DOT_WAIT === 'idle') {
  // Idle meanwhile: the answer to the record's sleep is read as it comes.
  await new Promise((resolve) => setTimeout(resolve, Number(process.env.DOT_AFTER_MS)));
} else {
  // Busy, as a worker rendering and writing: the clock, not a timer, decides when the dot comes.
  const dotAt = performance.now() + Number(process.env.DOT_AFTER_MS);
  while (performance.now() < dotAt);
}
void group.commitWith(() => process.kill(process.pid, 'SIGKILL'));
