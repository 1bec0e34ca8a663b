import { describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { GraceEstimate, SendGroups } from './send-record.ts';

describe('the grace sleep a mark takes', () => {
  it('starts at 12 ms and keeps it until 64 marks have reached their dot', () => {
    const estimate = new GraceEstimate();
    expect(estimate.ms).toBe(12);
    for (let i = 0; i < 63; i += 1) estimate.observe(1);
    expect(estimate.ms).toBe(12);
    estimate.observe(1);
    // The 90th percentile (1 ms) plus the 2 ms margin, raised to the 3 ms floor.
    expect(estimate.ms).toBe(3);
  });

  it('follows the 90th percentile of recent marks plus the margin, within 3 and 12 ms', () => {
    const estimate = new GraceEstimate();
    // 9 marks in 10 reach their dot in 1 to 3.67 ms, the tenth takes 30 ms: the sleep covers the nine.
    for (let i = 0; i < 256; i += 1) estimate.observe(i % 10 === 9 ? 30 : 1 + (i % 10) / 3);
    expect(estimate.ms).toBeCloseTo(1 + 8 / 3 + 2, 5);
    for (let i = 0; i < 256; i += 1) estimate.observe(25);
    expect(estimate.ms).toBe(12);
  });

  it('forgets marks older than the last 256', () => {
    const estimate = new GraceEstimate();
    for (let i = 0; i < 256; i += 1) estimate.observe(25);
    expect(estimate.ms).toBe(12);
    for (let i = 0; i < 256; i += 1) estimate.observe(2);
    expect(estimate.ms).toBe(4);
  });
});

describe('when messages join their send group', () => {
  it('joins at the DATA command while the server answers within 2 ms, and at the dot once it is slower', () => {
    // Deciding touches no database.
    const groups = new SendGroups({} as Database, 2);
    expect(groups.joinsEarly).toBe(true);
    for (let i = 0; i < 64; i += 1) groups.observeDueToDot(i % 10 === 9 ? 30 : 0.8);
    expect(groups.joinsEarly).toBe(true);
    // A server that holds its answers 9-14 ms for most recipients: groups would wait for them.
    for (let i = 0; i < 256; i += 1) groups.observeDueToDot(i % 4 === 0 ? 0.8 : 9 + (i % 6));
    expect(groups.joinsEarly).toBe(false);
    for (let i = 0; i < 256; i += 1) groups.observeDueToDot(1);
    expect(groups.joinsEarly).toBe(true);
  });

  it('never joins early when SEND_EARLY_JOIN_MAX_MS is 0', () => {
    const groups = new SendGroups({} as Database, 0);
    expect(groups.joinsEarly).toBe(false);
    for (let i = 0; i < 256; i += 1) groups.observeDueToDot(0.1);
    expect(groups.joinsEarly).toBe(false);
  });
});
