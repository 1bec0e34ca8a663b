import type { AcceptedOutcome, MarkSent, MessageRecord, SendRecorder, SentMessage } from '../../lib/mail-transport.ts';

export type {
  AcceptedOutcome,
  FailedOutcome,
  MarkSent,
  MessageRecord,
  SendRecorder,
  SentMessage,
} from '../../lib/mail-transport.ts';

/** Retries of a group's mark when the database fails (a dropped connection, a restart). */
const MARK_RETRY_DELAYS_MS = [50, 250, 1000, 3000];
/** Rows one mark takes at most; more wait for the next group. */
const MAX_GROUP = 500;

/**
 * The default: a message is recorded once the server has answered 250, in groups: every message
 * accepted while the previous group's UPDATE was on its way goes in the next one. A worker killed
 * between a 250 and its group's commit leaves those rows claimed; they are sent again once their
 * claim goes stale, so duplicates are bounded by the messages in flight. Nothing is lost.
 */
export class AfterAcceptRecorder implements SendRecorder {
  readonly guarantee = 'after-accept' as const;
  private waiting: { message: SentMessage; settle: (outcome: AcceptedOutcome) => void }[] = [];
  private marking: Promise<void> | null = null;

  constructor(
    private readonly markSent: MarkSent,
    private readonly onError: (error: Error) => void = (error) => console.warn(`send record failed: ${error.message}`),
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
    for (let attempt = 0; ; attempt += 1) {
      try {
        const owned = await this.markSent(sorted.map((m) => m.message));
        for (const member of group) member.settle(owned.has(Number(member.message.id)) ? 'recorded' : 'superseded');
        return;
      } catch (error) {
        const delay = MARK_RETRY_DELAYS_MS[attempt];
        if (delay === undefined) {
          this.onError(error as Error);
          for (const member of group) member.settle('unrecorded');
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  async close(): Promise<void> {
    while (this.marking) await this.marking;
  }
}
