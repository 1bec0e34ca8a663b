import { describe, expect, it } from 'vitest';
import { computeReputation, senderScoreLabel } from './reputation.ts';

describe('sender reputation', () => {
  it('has no score and no rates before anything is sent', () => {
    expect(computeReputation({ sent: 0, bounces: 0, complaints: 0, domainAgeDays: 400 })).toEqual({
      senderScore: null,
      label: null,
      bounceRate: null,
      spamRate: null,
    });
  });

  it('gives an established, clean, high-volume domain 100', () => {
    expect(computeReputation({ sent: 50_000, bounces: 0, complaints: 0, domainAgeDays: 365 })).toMatchObject({
      senderScore: 100,
      label: 'Excellent',
      bounceRate: 0,
      spamRate: 0,
    });
  });

  it('takes points for bounces (8 per percent, at most 40) and complaints (100 per percent, at most 40)', () => {
    const base = { sent: 10_000, domainAgeDays: 365 };
    expect(computeReputation({ ...base, bounces: 200, complaints: 0 })).toMatchObject({
      senderScore: 84,
      bounceRate: 2,
    });
    expect(computeReputation({ ...base, bounces: 1_000, complaints: 0 }).senderScore).toBe(60);
    expect(computeReputation({ ...base, bounces: 0, complaints: 10 })).toMatchObject({
      senderScore: 90,
      spamRate: 0.1,
    });
    expect(computeReputation({ ...base, bounces: 10_000, complaints: 10_000 })).toMatchObject({
      senderScore: 20,
      label: 'Poor',
    });
  });

  it('takes up to 10 points each for a small sample and a young domain', () => {
    expect(computeReputation({ sent: 1, bounces: 0, complaints: 0, domainAgeDays: 365 }).senderScore).toBe(90);
    expect(computeReputation({ sent: 100, bounces: 0, complaints: 0, domainAgeDays: 365 }).senderScore).toBe(97);
    expect(computeReputation({ sent: 5_000, bounces: 0, complaints: 0, domainAgeDays: 0 }).senderScore).toBe(90);
    expect(computeReputation({ sent: 5_000, bounces: 0, complaints: 0, domainAgeDays: 45 }).senderScore).toBe(95);
    expect(computeReputation({ sent: 1, bounces: 0, complaints: 0, domainAgeDays: 0 }).senderScore).toBe(80);
  });

  it('rounds rates to two decimals and ignores impossible counts', () => {
    expect(computeReputation({ sent: 3, bounces: 1, complaints: 0, domainAgeDays: 90 }).bounceRate).toBe(33.33);
    expect(computeReputation({ sent: 10, bounces: 50, complaints: -1, domainAgeDays: 90 })).toMatchObject({
      bounceRate: 100,
      spamRate: 0,
    });
  });

  it('labels the bands the screen shows', () => {
    expect([100, 80, 79, 60, 59, 40, 39, 0].map(senderScoreLabel)).toEqual([
      'Excellent',
      'Excellent',
      'Good',
      'Good',
      'Fair',
      'Fair',
      'Poor',
      'Poor',
    ]);
  });
});
