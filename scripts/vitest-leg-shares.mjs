// A vitest reporter for npm test (scripts/test.mjs): the unit project and the two integration legs run
// side by side in one vitest run, so its wall time does not say what each leg took. This records,
// per project, from its first file's start to its last file's end, the files' summed time and the
// test counts, into node_modules/.cache/sendwell/vitest-legs.json for test.mjs to print with the other steps.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export default class LegShares {
  constructor() {
    this.legs = new Map();
    // Where scripts/test.mjs reads it (not test-results, which Playwright empties when it starts).
    this.outputFile = path.resolve('node_modules', '.cache', 'sendwell', 'vitest-legs.json');
  }

  leg(testModule) {
    const name = testModule.project.name;
    if (!this.legs.has(name)) {
      this.legs.set(name, {
        project: name,
        firstStart: Infinity,
        lastEnd: 0,
        fileMs: 0,
        files: 0,
        passed: 0,
        skipped: 0,
        failed: 0,
      });
    }
    return this.legs.get(name);
  }

  onTestModuleStart(testModule) {
    const leg = this.leg(testModule);
    leg.firstStart = Math.min(leg.firstStart, Date.now());
  }

  onTestModuleEnd(testModule) {
    const leg = this.leg(testModule);
    leg.lastEnd = Math.max(leg.lastEnd, Date.now());
    leg.fileMs += testModule.diagnostic().duration;
    leg.files += 1;
    for (const test of testModule.children.allTests()) {
      const state = test.result().state;
      if (state === 'passed') leg.passed += 1;
      else if (state === 'skipped') leg.skipped += 1;
      else if (state === 'failed') leg.failed += 1;
    }
  }

  onTestRunEnd() {
    const legs = [...this.legs.values()].map(({ firstStart, lastEnd, ...leg }) => ({
      ...leg,
      spanMs: Number.isFinite(firstStart) ? lastEnd - firstStart : 0,
    }));
    mkdirSync(path.dirname(this.outputFile), { recursive: true });
    writeFileSync(this.outputFile, JSON.stringify(legs, null, 2));
  }
}
