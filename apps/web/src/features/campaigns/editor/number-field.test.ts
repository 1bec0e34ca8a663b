import { describe, expect, it } from 'vitest';

import { numberFieldProblem } from './number-field';

const FONT = { label: 'Font size', min: 8, max: 72, applied: 32 };

describe('numberFieldProblem', () => {
  it('accepts an empty box (the default) and whole numbers in range', () => {
    expect(numberFieldProblem('', FONT)).toBeNull();
    expect(numberFieldProblem('  ', FONT)).toBeNull();
    expect(numberFieldProblem('8', FONT)).toBeNull();
    expect(numberFieldProblem('72', FONT)).toBeNull();
  });

  it('names the range and the size still used for a value out of range or not whole', () => {
    const message = 'Font size must be a whole number from 8 to 72; still using 32.';
    expect(numberFieldProblem('500', FONT)).toBe(message);
    expect(numberFieldProblem('7', FONT)).toBe(message);
    expect(numberFieldProblem('12.5', FONT)).toBe(message);
    expect(numberFieldProblem('-3', FONT)).toBe(message);
  });
});
