// Child process of send-record.int.test.ts: takes the record of one ledger row, lets the given
// time pass as the message body would, commits it as the transport does at the final dot, and
// is killed with SIGKILL in the same step, as a worker killed right after writing the dot.
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../src/db/client.ts';
import { graceEstimate, recordSend } from '../src/modules/delivery/send-record.ts';

// As in a worker whose recent marks all reached their dot within GRACE_TRAINED_MS: the sleep is short.
if (process.env.GRACE_TRAINED_MS) for (let i = 0; i < 64; i += 1) graceEstimate.observe(Number(process.env.GRACE_TRAINED_MS));
const database = await openDatabase({ url: process.env.DATABASE_URL ?? '', poolSize: 2 });
const record = await recordSend(database, { id: Number(process.env.ROW_ID), claimToken: process.env.CLAIM_TOKEN ?? '', messageId: '<kill-test@acme.example>' });
if (!record) process.exit(3);
if (process.env.DOT_WAIT === 'idle') {
  // Idle meanwhile: the answer to the record's sleep is read as it comes.
  await new Promise((resolve) => setTimeout(resolve, Number(process.env.DOT_AFTER_MS)));
} else {
  // Busy, as a worker rendering and writing: the clock, not a timer, decides when the dot comes.
  const dotAt = performance.now() + Number(process.env.DOT_AFTER_MS);
  while (performance.now() < dotAt);
}
if (process.env.PREPARE !== 'no') await record.prepareCommit?.();
void record.commit();
process.kill(process.pid, 'SIGKILL');
