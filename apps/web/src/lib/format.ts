const integerFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** 12345 → "12,345". */
export function formatNumber(value: number): string {
  return integerFormat.format(value);
}

/** 24.567 → "24.6%". */
export function formatPercent(value: number, fractionDigits = 1): string {
  return `${(Number.isFinite(value) ? value : 0).toFixed(fractionDigits)}%`;
}

/** 1234.5 → "$1,234.50"; whole dollars keep no decimals ("$49"). */
export function formatDollars(value: number): string {
  const whole = Number.isInteger(value);
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: 2,
  }).format(value);
}

/** A plan limit: null means unlimited. */
export function formatLimit(value: number | null, unlimitedLabel = 'Unlimited'): string {
  return value === null ? unlimitedLabel : formatNumber(value);
}

/** An ISO date as "March 4, 2026" (empty for an invalid date). */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
}
