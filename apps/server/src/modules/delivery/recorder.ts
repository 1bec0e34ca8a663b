import { reconnectDelayMs, rootMessage } from '../../lib/db-errors.ts';
import type { AcceptedOutcome, MarkSent, MessageRecord, SendRecorder, SentMessage } from '../../lib/mail-transport.ts';

export type { AcceptedOutcome, MarkSent, MessageRecord, SendRecorder, SentMessage } from '../../lib/mail-transport.ts';

/** Rows one mark takes at most; more wait for the next group. */
const MAX_GROUP = 500;
/** While a mark keeps failing, it is reported at its first failure and then every this many attempts (about a minute). */
const REPORT_EVERY_ATTEMPTS = 30;

/**
 * Marks messages the server accepted as sent, trying again for as long as it fails (after 50 ms,
 * doubling to at most 2 s between tries) while the process lives. Until it succeeds they are
 * "delivered but not recorded": giving up would leave their rows claimed, to be sent a second time
 * once the claim went stale. The batch waits for its records; a SIGKILL meanwhile is the in-flight
 * bound of DESIGN.md. Answers the ids marked (see MarkSent).
 */
export async function markUntilRecorded(
  markSent: MarkSent,
  messages: readonly SentMessage[],
  onError: (error: Error, attempt: number) => void,
): Promise<ReadonlySet<number>> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await markSent(messages);
    } catch (error) {
      if (attempt % REPORT_EVERY_ATTEMPTS === 0) onError(error as Error, attempt);
      await new Promise((resolve) => setTimeout(resolve, reconnectDelayMs(attempt)));
    }
  }
}

/** How the recorders report a mark that keeps failing. */
export const warnUnrecorded = (error: Error, attempt: number) =>
  console.warn(
    `send record failed (attempt ${attempt + 1}, retrying until the database answers): ${rootMessage(error)}`,
  );

/**
 * The default: a message is recorded once the server has answered 250, in groups: every message
 * accepted while the previous group's UPDATE was on its way goes in the next one. A failed mark is
 * retried until the database answers (markUntilRecorded). A worker killed between a 250 and its
 * group's commit leaves those rows claimed; they are sent again once their claim goes stale, so
 * duplicates are bounded by the messages in flight. Nothing is lost.
 */
export class AfterAcceptRecorder implements SendRecorder {
  readonly guarantee = 'after-accept' as const;
  private waiting: { message: SentMessage; settle: (outcome: AcceptedOutcome) => void }[] = [];
  private marking: Promise<void> | null = null;

  constructor(
    private readonly markSent: MarkSent,
    private readonly onError: (error: Error, attempt: number) => void = warnUnrecorded,
  ) {}

  track(message: SentMessage): MessageRecord {
    return {
      accepted: () =>
        new Promise<AcceptedOutcome>((settle) => {
          this.waiting.push({ message, settle });
          this.schedule();
        }),
      failed: async () => 'not-sent',
    };
  }

  private schedule(): void {
    if (this.marking || this.waiting.length === 0) return;
    this.marking = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.markNext())
      .finally(() => {
        this.marking = null;
        this.schedule();
      });
  }

  private async markNext(): Promise<void> {
    const group = this.waiting.splice(0, MAX_GROUP);
    const sorted = [...group].sort((a, b) => a.message.id - b.message.id);
    const owned = await markUntilRecorded(
      this.markSent,
      sorted.map((m) => m.message),
      this.onError,
    );
    for (const member of group) member.settle(owned.has(Number(member.message.id)) ? 'recorded' : 'superseded');
  }

  async close(): Promise<void> {
    while (this.marking) await this.marking;
  }
}
