import { describe, expect, it } from 'vitest';
import type { CampaignStatus } from '@sendwell/contract/campaigns';

import {
  ACTIVITY_POLL_MS,
  averageRates,
  campaignActions,
  campaignTotals,
  clickRateLabel,
  filterCampaigns,
  isAnySending,
  livePollInterval,
  openRateLabel,
  percentOf,
  SENDING_POLL_MS,
} from './campaign-stats';

const campaign = (
  status: CampaignStatus,
  totalSent = 0,
  totalOpens = 0,
  totalClicks = 0,
  name = 'C',
  subject = 'S',
) => ({
  status,
  totalSent,
  totalOpens,
  totalClicks,
  name,
  subject,
});

describe('averageRates (spec §9)', () => {
  it('divides total opens and clicks by total sent over sent campaigns only', () => {
    const rates = averageRates([
      campaign('sent', 100, 30, 5),
      campaign('sent', 300, 60, 3),
      campaign('sending', 1000, 1000, 1000),
      campaign('draft'),
    ]);
    expect(rates.openRate).toBeCloseTo(22.5); // 90 / 400
    expect(rates.clickRate).toBeCloseTo(2); // 8 / 400
    expect(rates.sentCampaigns).toBe(2);
  });

  it('weighs by volume, not the mean of the per-campaign rates', () => {
    const rates = averageRates([campaign('sent', 10, 10, 0), campaign('sent', 990, 0, 0)]);
    expect(rates.openRate).toBeCloseTo(1);
  });

  it('is 0 with nothing sent', () => {
    expect(averageRates([])).toEqual({ openRate: 0, clickRate: 0, machineOpenRate: 0, sentCampaigns: 0 });
    expect(averageRates([campaign('sent', 0, 0, 0)]).openRate).toBe(0);
    expect(percentOf(1, 0)).toBe(0);
  });
});

describe('benchmark labels (spec §9)', () => {
  it('labels an open rate above 25% and a click rate above 3%', () => {
    expect(openRateLabel(25.1)).toBe('Above industry avg');
    expect(openRateLabel(25)).toBeNull();
    expect(clickRateLabel(3.01)).toBe('Above');
    expect(clickRateLabel(3)).toBeNull();
  });
});

describe('campaignTotals', () => {
  it('counts by status and sums the reach', () => {
    expect(
      campaignTotals([
        campaign('sent', 50),
        campaign('sent', 25),
        campaign('draft'),
        campaign('scheduled'),
        campaign('sending', 10),
      ]),
    ).toEqual({ total: 5, sent: 2, draft: 1, scheduled: 1, sending: 1, reach: 85 });
  });
});

describe('filterCampaigns', () => {
  const list = [
    campaign('draft', 0, 0, 0, 'Spring Sale', 'Flowers'),
    campaign('sent', 0, 0, 0, 'Newsletter', 'Big SPRING news'),
    campaign('scheduled', 0, 0, 0, 'Autumn', 'Leaves'),
  ];
  it('matches the name or the subject, ignoring case', () => {
    expect(filterCampaigns(list, 'spring', 'all').map((c) => c.name)).toEqual(['Spring Sale', 'Newsletter']);
    expect(filterCampaigns(list, '  leaves ', 'all').map((c) => c.name)).toEqual(['Autumn']);
  });
  it('filters by status', () => {
    expect(filterCampaigns(list, '', 'sent').map((c) => c.name)).toEqual(['Newsletter']);
    expect(filterCampaigns(list, 'spring', 'draft').map((c) => c.name)).toEqual(['Spring Sale']);
    expect(filterCampaigns(list, '', 'sending')).toEqual([]);
  });
});

describe('row actions and polling', () => {
  it('offers edit and delete on drafts, send on drafts and scheduled, the report once it has one', () => {
    const none = { pause: false, resume: false, cancel: false };
    expect(campaignActions('draft')).toEqual({
      unschedule: false,
      edit: true,
      remove: true,
      send: true,
      report: false,
      ...none,
    });
    expect(campaignActions('scheduled')).toEqual({
      unschedule: true,
      edit: false,
      remove: false,
      send: true,
      report: true,
      ...none,
      cancel: true,
    });
    expect(campaignActions('sent')).toEqual({
      unschedule: false,
      edit: false,
      remove: false,
      send: false,
      report: true,
      ...none,
    });
  });
  it('pauses a sending campaign, resumes a paused one, and cancels any not finished', () => {
    expect(campaignActions('sending')).toMatchObject({ pause: true, resume: false, cancel: true });
    expect(campaignActions('paused')).toMatchObject({ pause: false, resume: true, cancel: true });
    expect(campaignActions('canceled')).toMatchObject({ pause: false, resume: false, cancel: false, report: true });
  });
  it('polls only while a campaign is sending', () => {
    expect(isAnySending([campaign('sent'), campaign('sending')])).toBe(true);
    expect(isAnySending([campaign('sent'), campaign('draft')])).toBe(false);
    expect(isAnySending(undefined)).toBe(false);
  });
});

describe('livePollInterval', () => {
  const now = Date.parse('2026-04-10T12:00:00Z');
  const hoursAgo = (h: number) => new Date(now - h * 3600 * 1000).toISOString();
  it('polls fast while sending, slower while opens still arrive or a schedule is due, else not', () => {
    expect(livePollInterval([{ status: 'sending' }], now)).toBe(SENDING_POLL_MS);
    expect(livePollInterval([{ status: 'sent', sentAt: hoursAgo(2) }], now)).toBe(ACTIVITY_POLL_MS);
    expect(livePollInterval([{ status: 'sent', sentAt: hoursAgo(72) }], now)).toBe(false);
    expect(livePollInterval([{ status: 'scheduled', scheduledAt: hoursAgo(-0.5) }], now)).toBe(ACTIVITY_POLL_MS);
    expect(livePollInterval([{ status: 'scheduled', scheduledAt: hoursAgo(-5) }], now)).toBe(false);
    expect(livePollInterval([{ status: 'draft' }], now)).toBe(false);
    expect(livePollInterval(undefined, now)).toBe(false);
  });
});
