import type { CampaignListItem, CampaignStatus } from '@sendwell/contract/campaigns';

/** Industry benchmarks (spec §9): an open rate above 25% and a click rate above 3% are 'above'. */
export const OPEN_RATE_BENCHMARK = 25;
export const CLICK_RATE_BENCHMARK = 3;

type Counted = Pick<CampaignListItem, 'status' | 'totalSent' | 'totalOpens' | 'totalClicks'> &
  Partial<Pick<CampaignListItem, 'machineOpens'>>;

/** A percentage of a whole, 0 when the whole is 0. */
export function percentOf(part: number, whole: number): number {
  return whole > 0 ? (part / whole) * 100 : 0;
}

/**
 * Average open and click rates (spec §9): total opens (clicks) over total sent, of the sent
 * campaigns only, times 100. Not the mean of per-campaign rates, so big sends weigh more.
 */
export function averageRates(campaigns: readonly Counted[]): {
  openRate: number;
  /** Machine opens (Apple Mail Privacy Protection, pre-fetchers) over sent: shown beside openRate, not in it. */
  machineOpenRate: number;
  clickRate: number;
  sentCampaigns: number;
} {
  let sent = 0;
  let opens = 0;
  let machineOpens = 0;
  let clicks = 0;
  let sentCampaigns = 0;
  for (const campaign of campaigns) {
    if (campaign.status !== 'sent') continue;
    sentCampaigns += 1;
    sent += campaign.totalSent;
    opens += campaign.totalOpens;
    machineOpens += campaign.machineOpens ?? 0;
    clicks += campaign.totalClicks;
  }
  return {
    openRate: percentOf(opens, sent),
    machineOpenRate: percentOf(machineOpens, sent),
    clickRate: percentOf(clicks, sent),
    sentCampaigns,
  };
}

/** 'Above industry avg' for an open rate above 25% (spec §9), else null. */
export function openRateLabel(rate: number): string | null {
  return rate > OPEN_RATE_BENCHMARK ? 'Above industry avg' : null;
}

/** 'Above' for a click rate above 3% (spec §9), else null. */
export function clickRateLabel(rate: number): string | null {
  return rate > CLICK_RATE_BENCHMARK ? 'Above' : null;
}

export interface CampaignTotals {
  total: number;
  sent: number;
  draft: number;
  scheduled: number;
  sending: number;
  /** Emails delivered to the mail servers across all campaigns. */
  reach: number;
}

/** The counts behind the Campaigns page's first two stat cards. */
export function campaignTotals(campaigns: readonly Counted[]): CampaignTotals {
  const totals: CampaignTotals = { total: campaigns.length, sent: 0, draft: 0, scheduled: 0, sending: 0, reach: 0 };
  for (const campaign of campaigns) {
    if (campaign.status === 'sent') totals.sent += 1;
    else if (campaign.status === 'draft') totals.draft += 1;
    else if (campaign.status === 'scheduled') totals.scheduled += 1;
    else if (campaign.status === 'sending') totals.sending += 1;
    totals.reach += campaign.totalSent;
  }
  return totals;
}

/** The status filter's choices (spec §2 Campaigns). */
export const STATUS_FILTERS = ['all', 'draft', 'scheduled', 'sending', 'sent'] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

/** Campaigns whose name or subject contains the search (case-insensitive) and whose status matches. */
export function filterCampaigns<T extends Pick<CampaignListItem, 'name' | 'subject' | 'status'>>(
  campaigns: readonly T[],
  search: string,
  status: StatusFilter,
): T[] {
  const needle = search.trim().toLowerCase();
  return campaigns.filter(
    (campaign) =>
      (status === 'all' || campaign.status === status) &&
      (needle === '' ||
        campaign.name.toLowerCase().includes(needle) ||
        campaign.subject.toLowerCase().includes(needle)),
  );
}

/** How often figures refresh while a campaign is going out: its progress moves every few seconds. */
export const SENDING_POLL_MS = 3000;
/** How often figures refresh while opens and clicks are still arriving, or a schedule is about to fire. */
export const ACTIVITY_POLL_MS = 10_000;
/** Opens and clicks come mostly in the first two days after a send. */
const ACTIVITY_WINDOW_MS = 48 * 3600 * 1000;
/** A scheduled campaign starts sending on its own: watch it from an hour before. */
const SCHEDULE_WINDOW_MS = 3600 * 1000;

type Live = { status: CampaignStatus; sentAt?: string | null; scheduledAt?: string | null };

/**
 * How often the screens showing these campaigns re-read their figures (first-hour finding 2: the
 * list showed 0.0% opens until a reload): every 3 s while one is sending, every 10 s while one was
 * sent in the last 48 hours or is due within the hour, otherwise not at all (false).
 */
export function livePollInterval(campaigns: readonly Live[] | undefined, now = Date.now()): number | false {
  const list = campaigns ?? [];
  if (list.some((campaign) => campaign.status === 'sending')) return SENDING_POLL_MS;
  const recent = list.some((campaign) => {
    if (campaign.status === 'sent' && campaign.sentAt) return now - Date.parse(campaign.sentAt) < ACTIVITY_WINDOW_MS;
    if (campaign.status === 'scheduled' && campaign.scheduledAt)
      return Date.parse(campaign.scheduledAt) - now < SCHEDULE_WINDOW_MS;
    return false;
  });
  return recent ? ACTIVITY_POLL_MS : false;
}

/** True while any campaign is going out: the list then polls so its status stays live. */
export function isAnySending(campaigns: readonly { status: CampaignStatus }[] | undefined): boolean {
  return (campaigns ?? []).some((campaign) => campaign.status === 'sending');
}

/**
 * Which actions a row offers (spec §2/§4): only drafts are edited or deleted; drafts and scheduled
 * ones can be sent; a sending one paused, a paused one resumed, and any that has not finished
 * going out (scheduled, sending, paused) canceled.
 */
export function campaignActions(status: CampaignStatus): {
  edit: boolean;
  remove: boolean;
  send: boolean;
  report: boolean;
  unschedule: boolean;
  pause: boolean;
  resume: boolean;
  cancel: boolean;
} {
  return {
    unschedule: status === 'scheduled',
    edit: status === 'draft',
    remove: status === 'draft',
    send: status === 'draft' || status === 'scheduled',
    report: status !== 'draft',
    pause: status === 'sending',
    resume: status === 'paused',
    cancel: status === 'scheduled' || status === 'sending' || status === 'paused',
  };
}
