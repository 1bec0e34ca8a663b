/**
 * A contact's engagement score, 0–100: 4 points per email opened, 8 per email clicked, plus
 * recency (20 if active in the last 30 days, 10 in the last 90). Opens and clicks count unique
 * campaigns; the score is recomputed in place, in SQL, whenever an open or click is recorded.
 */
export const ENGAGEMENT_SQL = `LEAST(100, 4 * total_emails_opened + 8 * total_emails_clicked
  + CASE WHEN last_activity_at > now() - interval '30 days' THEN 20 WHEN last_activity_at > now() - interval '90 days' THEN 10 ELSE 0 END)`;
