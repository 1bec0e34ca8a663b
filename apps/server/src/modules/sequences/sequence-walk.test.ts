import { describe, expect, it } from 'vitest';
import { SEQUENCE_TEMPLATES } from '@sendwell/contract/sequence-templates';
import type { FlowData } from '@sendwell/contract/sequences';
import { arrivalWaitMs, conditionHolds, walk, type WalkInput } from './sequence-walk.ts';

const NOW = new Date('2026-06-01T12:00:00Z');
const template = (id: string) => SEQUENCE_TEMPLATES.find((t) => t.id === id)?.flowData as FlowData;
const fresh = (nodeId = 'start'): WalkInput => ({
  currentNodeId: nodeId,
  stepCount: 0,
  enteredAt: NOW,
  lastEmail: null,
  lastPurchaseAt: null,
});

describe('walk', () => {
  it('runs the start and the first email at once, then waits at the Wait step', () => {
    const result = walk(template('welcome-series'), fresh(), NOW);
    expect(result.sends).toEqual([{ step: 1, nodeId: 'email-1' }]);
    expect(result).toMatchObject({ nodeId: 'delay-1', state: 'active', stepCount: 2 });
    expect(result.nextRunAt?.toISOString()).toBe('2026-06-03T12:00:00.000Z');
  });

  it('completes after the last node', () => {
    const result = walk(template('welcome-series'), { ...fresh('delay-2'), stepCount: 4 }, NOW);
    expect(result.sends).toEqual([{ step: 5, nodeId: 'email-3' }]);
    expect(result).toMatchObject({ state: 'completed', nextRunAt: null, nodeId: 'email-3' });
  });

  it('takes the normal branch when the previous email was opened, the else branch when not', () => {
    const flow = template('feedback-loop');
    const opened = walk(
      flow,
      { ...fresh('condition-1'), lastEmail: { createdAt: NOW, openedAt: NOW, clickedAt: null } },
      NOW,
    );
    expect(opened.sends.map((s) => s.nodeId)).toEqual(['email-2']);
    expect(opened.ran[0]).toEqual({ nodeId: 'condition-1', branch: 'normal' });
    const unopened = walk(
      flow,
      { ...fresh('condition-1'), lastEmail: { createdAt: NOW, openedAt: null, clickedAt: null } },
      NOW,
    );
    expect(unopened.sends.map((s) => s.nodeId)).toEqual(['email-3']);
    expect(unopened.ran[0]).toEqual({ nodeId: 'condition-1', branch: 'else' });
    expect(unopened.nodeId).toBe('delay-1');
  });

  it('a condition reached straight after an email waits its own wait first', () => {
    const result = walk(template('feedback-loop'), fresh(), NOW);
    expect(result.sends.map((s) => s.nodeId)).toEqual(['email-1']);
    expect(result.nodeId).toBe('condition-1');
    expect(result.nextRunAt?.toISOString()).toBe('2026-06-08T12:00:00.000Z');
  });

  it('ends when a condition takes an else output marked to end', () => {
    const flow: FlowData = {
      nodes: [
        { id: 'start', type: 'input', position: { x: 0, y: 0 }, data: {} },
        { id: 'c', type: 'condition', position: { x: 0, y: 0 }, data: { condition: 'Email clicked', elseEnds: true } },
        { id: 'e', type: 'email', position: { x: 0, y: 0 }, data: { subject: 's', content: 'c' } },
      ],
      edges: [
        { id: '1', source: 'start', target: 'c' },
        { id: '2', source: 'c', target: 'e' },
      ],
    };
    expect(walk(flow, fresh(), NOW)).toMatchObject({ state: 'completed', sends: [] });
  });

  it('exits when its node is gone from its version', () => {
    expect(walk(template('welcome-series'), fresh('nowhere'), NOW)).toMatchObject({
      state: 'exited',
      exitReason: 'removed',
    });
  });
});

describe('conditions and waits', () => {
  const node = (condition: string) =>
    ({ id: 'c', type: 'condition', position: { x: 0, y: 0 }, data: { condition } }) as const;
  const sent = { createdAt: NOW, openedAt: null, clickedAt: null };

  it('tests the previous email and purchases since it', () => {
    const input = { enteredAt: NOW, lastPurchaseAt: null };
    expect(conditionHolds(node('Email opened'), { ...input, lastEmail: { ...sent, clickedAt: NOW } })).toBe(true);
    expect(conditionHolds(node('Email clicked'), { ...input, lastEmail: { ...sent, openedAt: NOW } })).toBe(false);
    expect(conditionHolds(node('No response'), { ...input, lastEmail: sent })).toBe(true);
    expect(conditionHolds(node('No response'), { ...input, lastEmail: { ...sent, openedAt: NOW } })).toBe(false);
    const later = new Date(NOW.getTime() + 1000);
    const earlier = new Date(NOW.getTime() - 1000);
    expect(conditionHolds(node('Purchased'), { ...input, lastEmail: sent, lastPurchaseAt: later })).toBe(true);
    expect(conditionHolds(node('Purchased'), { ...input, lastEmail: sent, lastPurchaseAt: earlier })).toBe(false);
  });

  it('waits minutes, hours, days and weeks', () => {
    const delay = (duration: string, unit: string) =>
      arrivalWaitMs({ id: 'd', type: 'delay', position: { x: 0, y: 0 }, data: { duration, unit } });
    expect(delay('1', 'minutes')).toBe(60_000);
    expect(delay('3', 'hours')).toBe(10_800_000);
    expect(delay('2', 'days')).toBe(172_800_000);
    expect(delay('1', 'weeks')).toBe(604_800_000);
  });
});
