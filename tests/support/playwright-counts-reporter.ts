import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { writeCounts } from './counts.ts';

export default class CountsReporter implements Reporter {
  private outcome = new Map<TestCase, string>();
  private errors = 0;
  onTestEnd(test: TestCase, _result: TestResult): void {
    this.outcome.set(test, test.outcome());
  }
  onError(): void {
    this.errors++;
  }
  onEnd(result: FullResult): void {
    const counts = { passed: 0, failed: this.errors, skipped: 0 };
    for (const o of this.outcome.values()) {
      if (o === 'expected' || o === 'flaky') counts.passed++;
      else if (o === 'skipped') counts.skipped++;
      else counts.failed++;
    }
    if (result.status !== 'passed' && counts.failed === 0) counts.failed = 1;
    writeCounts(counts);
  }
  printsToStdio(): boolean {
    return false;
  }
}
