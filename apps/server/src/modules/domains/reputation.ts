/**
 * Sender reputation of one domain over the last 30 days of its own sending.
 *
 * Sender score (0–100) starts at 100 and loses points for what mailbox providers punish:
 *   bounces     8 points per percent bounced, at most 40   (2% → 16, 5% or more → 40)
 *   complaints  100 points per percent reported as spam, at most 40   (0.1% → 10, 0.4% or more → 40)
 *   volume      up to 10 points while the sample is small: 10 × (1 − log10(sent) / 3)
 *               (1 message → 10, 10 → 6.7, 100 → 3.3, 1,000 or more → 0)
 *   age         up to 10 points for a young domain: 10 × (1 − ageDays / 90)   (new → 10, 90 days or more → 0)
 * then is rounded and kept within 0–100. The thresholds are the industry's usual ones: keep
 * bounces under 2% and complaints under 0.1% (providers start rejecting around 0.3%).
 *
 * Label bands the screen uses: Excellent ≥ 80, Good ≥ 60, Fair ≥ 40, Poor below.
 * With nothing sent there is no score and no rates: null, and the screen says so.
 */

export type ReputationInput = {
  /** Messages sent from the domain in the window. */
  sent: number;
  /** Of those, how many bounced. */
  bounces: number;
  /** Of those, how many were reported as spam. */
  complaints: number;
  /** Whole days since the domain was added. */
  domainAgeDays: number;
};

export type SenderScoreLabel = 'Excellent' | 'Good' | 'Fair' | 'Poor';

export type Reputation = {
  senderScore: number | null;
  label: SenderScoreLabel | null;
  /** Percent, two decimals. */
  bounceRate: number | null;
  /** Percent, two decimals. */
  spamRate: number | null;
};

/** The window reputation looks back over. */
export const REPUTATION_WINDOW_DAYS = 30;

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));
const twoDecimals = (value: number) => Math.round(value * 100) / 100;

/** The label band of a sender score. */
export function senderScoreLabel(score: number): SenderScoreLabel {
  if (score >= 80) return 'Excellent';
  if (score >= 60) return 'Good';
  if (score >= 40) return 'Fair';
  return 'Poor';
}

/** Score, label and rates from the window's counts (formula above). */
export function computeReputation(input: ReputationInput): Reputation {
  const sent = Math.max(0, input.sent);
  if (sent === 0) return { senderScore: null, label: null, bounceRate: null, spamRate: null };
  const bounceRate = (100 * clamp(input.bounces, 0, sent)) / sent;
  const spamRate = (100 * clamp(input.complaints, 0, sent)) / sent;
  const bouncePenalty = Math.min(40, 8 * bounceRate);
  const complaintPenalty = Math.min(40, 100 * spamRate);
  const volumePenalty = 10 * (1 - Math.min(1, Math.log10(sent) / 3));
  const agePenalty = 10 * (1 - Math.min(1, Math.max(0, input.domainAgeDays) / 90));
  const senderScore = Math.round(clamp(100 - bouncePenalty - complaintPenalty - volumePenalty - agePenalty, 0, 100));
  return {
    senderScore,
    label: senderScoreLabel(senderScore),
    bounceRate: twoDecimals(bounceRate),
    spamRate: twoDecimals(spamRate),
  };
}
