import { describe, expect, it } from 'vitest';
import type { Domain } from '@sendwell/contract/domains';
import {
  complaintStanding,
  formatDomainAge,
  formatRate,
  formatTimeAgo,
  primaryDomainOf,
  relativeHost,
  thresholdText,
  verifiedCount,
  WIZARD_START,
  wizardReducer,
} from './domain-display';

const domain = (overrides: Partial<Domain>): Domain =>
  ({ id: 1, domain: 'example.com', isPrimary: false, isVerified: false, records: [], ...overrides }) as Domain;

describe('domain display rules', () => {
  it('picks the primary domain, else the first', () => {
    expect(primaryDomainOf(undefined)).toBeUndefined();
    expect(primaryDomainOf([domain({ id: 1 }), domain({ id: 2, isPrimary: true })])?.id).toBe(2);
    expect(primaryDomainOf([domain({ id: 1 }), domain({ id: 2 })])?.id).toBe(1);
  });

  it('shows hosts relative to the domain', () => {
    expect(relativeHost({ host: 'example.com' }, 'example.com')).toBe('@');
    expect(relativeHost({ host: '_dmarc.example.com' }, 'example.com')).toBe('_dmarc');
    expect(relativeHost({ host: 'sw202606._domainkey.example.com' }, 'example.com')).toBe('sw202606._domainkey');
  });

  it('counts verified records', () => {
    const records = [{ status: 'verified' }, { status: 'missing' }, { status: 'verified' }] as Domain['records'];
    expect(verifiedCount({ records })).toBe(2);
  });

  it('formats rates, thresholds, ages and check times', () => {
    expect(formatRate(null)).toBe('No sending yet');
    expect(formatRate(1.2)).toBe('1.2%');
    expect(formatRate(0)).toBe('0%');
    expect(thresholdText(1.2, 2)).toBe('Well below 2% threshold');
    expect(thresholdText(2.5, 2)).toBe('Above the 2% threshold');
    expect(formatDomainAge(0)).toBe('Added today');
    expect(formatDomainAge(1)).toBe('1 day');
    expect(formatDomainAge(800)).toBe('2+ years');
    const now = new Date('2026-06-01T12:00:00Z');
    expect(formatTimeAgo(null, now)).toBe('never');
    expect(formatTimeAgo('2026-06-01T11:59:30Z', now)).toBe('just now');
    expect(formatTimeAgo('2026-06-01T11:55:00Z', now)).toBe('5 minutes ago');
    expect(formatTimeAgo('2026-05-30T12:00:00Z', now)).toBe('2 days ago');
  });
});

describe('add-domain wizard (spec §4)', () => {
  it('goes input → verified when the answer says isVerified, else → dns', () => {
    expect(wizardReducer(WIZARD_START, { type: 'added', domain: domain({ isVerified: true }) }).step).toBe('verified');
    const dns = wizardReducer(WIZARD_START, { type: 'added', domain: domain({}) });
    expect(dns.step).toBe('dns');
    expect(wizardReducer(dns, { type: 'checked', domain: domain({}) }).step).toBe('dns');
    expect(wizardReducer(dns, { type: 'checked', domain: domain({ isVerified: true }) }).step).toBe('verified');
    expect(wizardReducer(dns, { type: 'back' })).toEqual({ step: 'input', domain: dns.domain });
    expect(wizardReducer(dns, { type: 'reset' })).toBe(WIZARD_START);
  });
});

describe("the 7-day spam rate against Google's lines", () => {
  it('says where a rate stands: no sending, under 0.1%, past 0.1%, at or past 0.3%', () => {
    expect(complaintStanding(null)).toEqual({ tone: 'none', text: 'No mail sent from this domain in the last 7 days' });
    expect(complaintStanding(0)).toEqual({ tone: 'good', text: 'Under Google’s 0.1% line' });
    expect(complaintStanding(0.099).tone).toBe('good');
    expect(complaintStanding(0.1)).toEqual({
      tone: 'warn',
      text: 'Above Google’s 0.1% line: bring it down before it reaches 0.3%',
    });
    expect(complaintStanding(0.3).tone).toBe('bad');
    expect(complaintStanding(2).text).toBe('At or above Google’s 0.3% line: Gmail may reject or spam-folder this mail');
  });
});
