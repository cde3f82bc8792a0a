import type { Reporter, TestModule } from 'vitest/node';
import { writeCounts } from './counts.ts';

/** Vitest's own summary is not one plain line; this writes the totals for scripts/test.ts. */
export default class CountsReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, errors: ReadonlyArray<unknown>): void {
    const counts = { passed: 0, failed: errors.length, skipped: 0 };
    for (const m of modules) {
      if (m.state() === 'failed' && [...m.children.allTests()].length === 0) counts.failed++;
      for (const t of m.children.allTests()) {
        const state = t.result().state;
        if (state === 'passed') counts.passed++;
        else if (state === 'failed') counts.failed++;
        else counts.skipped++;
      }
    }
    writeCounts(counts);
  }
}
