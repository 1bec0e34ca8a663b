import { PassThrough } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorAnswer, logErrorAnswer } from '../plugins/error-handler.ts';

/** The lines of a progress stream (the contract's import progress line schemas describe them to the client). */
type ProgressLine<Result> =
  | { type: 'progress'; rows: number }
  | { type: 'result'; result: Result }
  | { type: 'error'; status: number; message: string };

/**
 * Answers with a long operation's progress as NDJSON (for clients that send Accept:
 * application/x-ndjson): `{"type":"progress","rows":n}` each time `run` reports rows, then
 * `{"type":"result","result":…}` or `{"type":"error","status":n,"message":…}`. The answer has started
 * (200) before an error can happen, so the error line carries the status and message the error
 * handler would have answered (errorAnswer); an unexpected error is logged and says `failureMessage`.
 */
export function sendProgressStream<Result>(
  request: FastifyRequest,
  reply: FastifyReply,
  run: (reportRows: (rows: number) => void) => Promise<Result>,
  failureMessage: string,
): FastifyReply {
  const out = new PassThrough();
  const write = (line: ProgressLine<Result>) => out.write(`${JSON.stringify(line)}\n`);
  void run((rows) => write({ type: 'progress', rows }))
    .then((result) => write({ type: 'result', result }))
    .catch((error: unknown) => {
      const answer = errorAnswer(error);
      logErrorAnswer(request, error, answer);
      // An unexpected failure says what failed rather than the handler's generic text.
      const message = 'error' in answer.body ? answer.body.error : answer.body.message;
      write({
        type: 'error',
        status: answer.status,
        message: answer.logged === 'unexpected' ? failureMessage : message,
      });
    })
    .finally(() => out.end());
  return reply.type('application/x-ndjson').send(out);
}
