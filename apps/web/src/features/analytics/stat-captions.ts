import type { StatsTrends } from '@sendwell/contract/analytics';

/** Which way a caption's figure moved; 'none' when there is nothing to compare with. */
export type CaptionDirection = 'up' | 'down' | 'flat' | 'none';
export interface StatCaption {
  text: string;
  direction: CaptionDirection;
}

export const NO_PREVIOUS_DATA = 'No data from the previous 30 days';
export const NO_CAMPAIGNS_SENT = 'No campaigns sent yet';
export const NO_RECENT_CAMPAIGNS = 'No campaigns sent in the last 30 days';

const oneDecimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
const oneDecimalFixed = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

const directionOf = (change: number): CaptionDirection => (change > 0 ? 'up' : change < 0 ? 'down' : 'flat');
/** +12%, −3.5% (a true minus sign), 0%. */
const signedPercent = (change: number) =>
  `${change > 0 ? '+' : change < 0 ? '−' : ''}${oneDecimal.format(Math.abs(change))}%`;
/** Percentage points: +1.2 pts, −0.4 pts. */
const signedPoints = (change: number) =>
  `${change > 0 ? '+' : change < 0 ? '−' : ''}${oneDecimalFixed.format(Math.abs(change))} pts`;

/** Total Subscribers: active contacts now against 30 days ago. */
export function subscribersCaption(trend: StatsTrends['subscribers']): StatCaption {
  if (trend.changePercent === null) return { text: NO_PREVIOUS_DATA, direction: 'none' };
  return { text: `${signedPercent(trend.changePercent)} vs 30 days ago`, direction: directionOf(trend.changePercent) };
}

/** Open Rate: the average open rate against the industry average of spec §9 (the spec's caption). */
export function openRateCaption(vsIndustry: StatsTrends['openRateVsIndustry']): StatCaption {
  if (vsIndustry === null) return { text: NO_CAMPAIGNS_SENT, direction: 'none' };
  const { differencePoints: difference, industryAverage } = vsIndustry;
  const average = `industry avg (${oneDecimal.format(industryAverage)}%)`;
  if (difference === 0) return { text: `At the ${average}`, direction: 'flat' };
  return {
    text: `${oneDecimalFixed.format(Math.abs(difference))} pts ${difference > 0 ? 'above' : 'below'} ${average}`,
    direction: directionOf(difference),
  };
}

/**
 * Click Rate: campaigns sent in the last 30 days against those of the 30 days before. An account that
 * never sent one reads as the Open Rate card beside it does.
 */
export function clickRateCaption(trend: StatsTrends['clickRate'], anyCampaignSent: boolean): StatCaption {
  if (!anyCampaignSent) return { text: NO_CAMPAIGNS_SENT, direction: 'none' };
  if (trend.current === null) return { text: NO_RECENT_CAMPAIGNS, direction: 'none' };
  if (trend.changePoints === null) return { text: NO_PREVIOUS_DATA, direction: 'none' };
  return {
    text: `${signedPoints(trend.changePoints)} vs previous 30 days`,
    direction: directionOf(trend.changePoints),
  };
}

/** Revenue: purchases of the last 30 days against the 30 days before. */
export function revenueCaption(trend: StatsTrends['revenue']): StatCaption {
  if (trend.changePercent === null) return { text: NO_PREVIOUS_DATA, direction: 'none' };
  return {
    text: `${signedPercent(trend.changePercent)} vs previous 30 days`,
    direction: directionOf(trend.changePercent),
  };
}
