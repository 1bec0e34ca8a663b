import { describe, expect, it } from 'vitest';
import { purchaseAmountSchema, recordPurchaseFormSchema } from './analytics.ts';

const amountError = (value: unknown) => {
  const result = purchaseAmountSchema.safeParse(value);
  return result.success ? null : result.error.issues[0]?.message;
};

describe('purchase amounts (dollars)', () => {
  it('accepts up to 2 decimals, more than 0, at most $1,000,000', () => {
    for (const ok of [0.01, 1, 19.99, 0.1 + 0.2, 1234.5, 1_000_000]) expect(amountError(ok), String(ok)).toBeNull();
    expect(amountError(0)).toBe('Amount must be more than 0');
    expect(amountError(-1)).toBe('Amount must be more than 0');
    expect(amountError(0.001)).toBe('Amount can have at most 2 decimals');
    expect(amountError(1_000_000.01)).toBe('Amount must be at most $1,000,000');
    expect(amountError(Number.NaN)).toBe('Amount must be a number');
    expect(amountError(Number.POSITIVE_INFINITY)).not.toBeNull();
  });
});

describe('the record-a-purchase form', () => {
  const parse = (values: { email: string; amount: string; campaignId: string }) => {
    const result = recordPurchaseFormSchema.safeParse(values);
    return result.success
      ? result.data
      : Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
  };

  it('turns the inputs into the request body', () => {
    expect(parse({ email: ' Ann@Example.com ', amount: ' 19.90 ', campaignId: '' })).toEqual({
      email: 'ann@example.com',
      amount: 19.9,
      campaignId: undefined,
    });
    expect(parse({ email: 'ann@example.com', amount: '5', campaignId: '12' })).toEqual({
      email: 'ann@example.com',
      amount: 5,
      campaignId: 12,
    });
  });

  it('explains what is wrong with each input', () => {
    expect(parse({ email: '', amount: '', campaignId: '' })).toEqual({
      email: 'Email is required',
      amount: 'Amount is required',
    });
    expect(parse({ email: 'ann', amount: '1,000', campaignId: '' })).toEqual({
      email: 'Invalid email format',
      amount: 'Amount must be a number',
    });
    expect(parse({ email: 'ann@example.com', amount: '1e3', campaignId: '' })).toEqual({
      amount: 'Amount must be a number',
    });
    expect(parse({ email: 'ann@example.com', amount: '-2', campaignId: '' })).toEqual({
      amount: 'Amount must be more than 0',
    });
    expect(parse({ email: 'ann@example.com', amount: '2.555', campaignId: '' })).toEqual({
      amount: 'Amount can have at most 2 decimals',
    });
  });
});
