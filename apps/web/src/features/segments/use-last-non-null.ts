import { useState } from 'react';

/** The value, or while it is null the last value it had (a closing dialog keeps showing its content). */
export function useLastNonNull<T>(value: T | null): T | null {
  const [last, setLast] = useState<T | null>(value);
  if (value !== null && value !== last) setLast(value);
  return value ?? last;
}
