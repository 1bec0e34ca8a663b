import { describe, expect, it } from 'vitest';
import { editImpactText, enrolResultText } from './sequence-labels';

describe('edit-impact text', () => {
  it('says how many enrolments move on and how many finish on the current flow', () => {
    expect(editImpactText({ active: 3, moving: 2, finishingOnOld: 1, publishesVersion: true })).toBe(
      '3 enrolments are in this sequence now. 2 will move on in the updated flow; 1 will finish on the current one.',
    );
  });
  it('says when the flow is unchanged for them', () => {
    expect(editImpactText({ active: 1, moving: 1, finishingOnOld: 0, publishesVersion: false })).toBe(
      '1 enrolment is in this sequence now. The flow is unchanged for them.',
    );
  });
});

describe('enrol result text', () => {
  it('counts contacts, and explains nobody enrolled', () => {
    expect(enrolResultText(1)).toBe('Enrolled 1 contact.');
    expect(enrolResultText(1200)).toBe('Enrolled 1,200 contacts.');
    expect(enrolResultText(0)).toMatch(/^No one was enrolled/);
  });
});
