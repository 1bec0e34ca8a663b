import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const script = path.resolve(import.meta.dirname, '../../../scripts/module-graph.mjs');

/**
 * modules/README.md's table of which module uses which is drawn from the imports: it must be the
 * one they draw now, non-test code must import other modules only through their faces, and the
 * server's files must not import each other in a ring (the script's --check exits 1 otherwise).
 */
describe('the module picture', () => {
  it('matches the imports, with no import past a face and no file cycle', () => {
    const output = execFileSync(process.execPath, [script, '--check'], { encoding: 'utf8' });
    expect(output).toContain('deep imports from non-test code: 0');
    expect(output).toContain("file cycles among the server's non-test files: 0");
  });
});
