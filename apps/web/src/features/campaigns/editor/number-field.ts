/**
 * What is wrong with the text typed in a number field, or null when it is empty (the default) or a
 * whole number in range. The message says which value still applies.
 */
export function numberFieldProblem(
  text: string,
  { label, min, max, applied }: { label: string; min: number; max: number; applied: number },
): string | null {
  if (text.trim() === '') return null;
  const number = Number(text);
  if (Number.isInteger(number) && number >= min && number <= max) return null;
  return `${label} must be a whole number from ${min} to ${max}; still using ${applied}.`;
}
