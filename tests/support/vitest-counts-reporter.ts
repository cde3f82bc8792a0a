import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import { failureLine, writeCounts } from './counts.ts';

/**
 * Vitest's own summary is not one plain line; this writes the totals for scripts/test.ts. A hook
 * that failed (its suite's tests are then reported skipped) and an error no test caught each
 * count as a failure.
 */
export default class CountsReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, errors: ReadonlyArray<unknown>): void {
    const failures: string[] = errors.map((e) => failureLine('unhandled error', e));
    let passed = 0;
    let skipped = 0;
    for (const m of modules) {
      const file = relative(process.cwd(), m.moduleId);
      for (const e of m.errors()) failures.push(failureLine(file, e));
      for (const s of m.children.allSuites())
        for (const e of s.errors()) failures.push(failureLine(`${file} › ${s.fullName}`, e));
      if (m.state() === 'failed' && m.errors().length === 0 && [...m.children.allTests()].length === 0)
        failures.push(failureLine(file, 'failed'));
      for (const t of m.children.allTests()) {
        const result = t.result();
        if (result.state === 'passed') passed++;
        else if (result.state === 'failed') {
          failures.push(failureLine(`${file} › ${t.fullName}`, result.errors?.[0]));
        } else skipped++;
      }
    }
    // every failing test, hook and stray error has its line
    writeCounts({ passed, failed: failures.length, skipped, failures });
  }
}
