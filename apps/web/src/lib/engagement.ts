// The engagement score's reading (no React), shared by every screen that shows a contact's score.

export type EngagementBand = 'new' | 'high' | 'medium' | 'low';

/**
 * Engagement colour band (spec §9): 70 or more green, 40 or more yellow, below 40 red. A contact
 * with no activity yet has no score to judge: 'new', shown as a neutral "New" rather than a red 0.
 */
export function engagementBand(score: number, lastActivityAt: string | null = null): EngagementBand {
  if (score === 0 && lastActivityAt === null) return 'new';
  if (score >= 70) return 'high';
  if (score >= 40) return 'medium';
  return 'low';
}
