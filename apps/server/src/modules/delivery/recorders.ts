import type pg from 'pg';
import type { SendGuarantee, SendLedger, SendRecorder, SendRecorders } from '../../lib/mail-transport.ts';
import { checkNodemailerSocket } from './adapters/nodemailer-socket.ts';
import { checkPgSocket } from './adapters/pg-socket.ts';
import { ExactlyOnceRecorder, recordPool } from './exactly-once-recorder.ts';
import { AfterAcceptRecorder } from './recorder.ts';

/**
 * The recorders under the configured guarantee. SEND_GUARANTEE=exactly-once needs a direct
 * Postgres connection and an SMTP relay, and both library adapters must pass their checks here at
 * start; otherwise this logs why and falls back to the default (never silently).
 */
export async function createSendRecorders(options: {
  wanted: SendGuarantee;
  connectionString: string | undefined;
  smtp: boolean;
  poolSize: number;
  log: (message: string) => void;
}): Promise<SendRecorders> {
  let guarantee: SendGuarantee = 'after-accept';
  let pool: pg.Pool | null = null;
  if (options.wanted === 'exactly-once') {
    const problems: string[] = [];
    if (!options.connectionString)
      problems.push('it needs DATABASE_URL (a Postgres server; the embedded database runs in this process)');
    if (!options.smtp)
      problems.push('it needs SMTP_URL (the built-in catcher stores messages, it has no final dot to hold)');
    if (problems.length === 0 && options.connectionString) {
      pool = recordPool(options.connectionString, options.poolSize);
      const pgProblem = await checkPgSocket(pool);
      if (pgProblem) problems.push(pgProblem);
      const mailProblem = await checkNodemailerSocket();
      if (mailProblem) problems.push(mailProblem);
    }
    if (problems.length === 0) guarantee = 'exactly-once';
    else {
      await pool?.end();
      pool = null;
      options.log(
        `SEND_GUARANTEE=exactly-once is not available, sending with after-accept records: ${problems.join('; ')}`,
      );
    }
  }
  const byLedger = new Map<string, SendRecorder>();
  return {
    guarantee,
    for(ledger: SendLedger): SendRecorder {
      let recorder = byLedger.get(ledger.name);
      if (!recorder) {
        recorder = pool ? new ExactlyOnceRecorder(pool, ledger) : new AfterAcceptRecorder(ledger.markSent);
        byLedger.set(ledger.name, recorder);
      }
      return recorder;
    },
    async close() {
      for (const recorder of byLedger.values()) await recorder.close();
      await pool?.end();
    },
  };
}
