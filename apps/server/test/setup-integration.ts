import { expect } from 'vitest';
import { nameUnhandledPgErrors } from './pg-error-origins.ts';

// Each integration worker names where a pg client that fails with no listener was made.
nameUnhandledPgErrors(() => {
  try {
    const state = expect.getState();
    return `${state.testPath ?? 'no file'} › ${state.currentTestName ?? 'no test (a hook or between files)'}`;
  } catch {
    return 'no test';
  }
});
