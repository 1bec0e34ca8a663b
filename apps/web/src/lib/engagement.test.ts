import { describe, expect, it } from 'vitest';
import { engagementBand } from './engagement';

describe('engagementBand (spec §9)', () => {
  it('is green from 70, yellow from 40, red below', () => {
    expect(engagementBand(100)).toBe('high');
    expect(engagementBand(70)).toBe('high');
    expect(engagementBand(69)).toBe('medium');
    expect(engagementBand(40)).toBe('medium');
    expect(engagementBand(39)).toBe('low');
  });

  it('reads a contact with no activity yet as new, and a 0 after activity as low', () => {
    expect(engagementBand(0)).toBe('new');
    expect(engagementBand(0, null)).toBe('new');
    expect(engagementBand(0, '2026-11-01T00:00:00.000Z')).toBe('low');
  });
});
