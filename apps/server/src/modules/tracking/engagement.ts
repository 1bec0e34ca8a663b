/**
 * A contact's engagement score, 0–100: 4 points per email opened, 8 per email clicked, plus
 * recency (20 if active in the last 30 days, 10 in the last 90). Opens and clicks count unique
 * campaigns; the score is recomputed whenever an open or click is recorded.
 */
export function engagementScore(
  opened: number,
  clicked: number,
  lastActivityAt: Date | null,
  now = new Date(),
): number {
  const days = lastActivityAt ? (now.getTime() - lastActivityAt.getTime()) / 86_400_000 : Infinity;
  const recency = days <= 30 ? 20 : days <= 90 ? 10 : 0;
  return Math.min(100, 4 * opened + 8 * clicked + recency);
}

/** The same formula in SQL, for updates in place (kept next to the TypeScript one on purpose). */
export const ENGAGEMENT_SQL = `LEAST(100, 4 * total_emails_opened + 8 * total_emails_clicked
  + CASE WHEN last_activity_at > now() - interval '30 days' THEN 20 WHEN last_activity_at > now() - interval '90 days' THEN 10 ELSE 0 END)`;
