import type { FullResult, Reporter, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import { failureLine, writeCounts } from './counts.ts';

export default class CountsReporter implements Reporter {
  private outcome = new Map<TestCase, { outcome: string; error?: TestError }>();
  private errors: string[] = [];
  onTestEnd(test: TestCase, result: TestResult): void {
    this.outcome.set(test, { outcome: test.outcome(), error: result.error });
  }
  onError(error: TestError): void {
    this.errors.push(failureLine('error outside a test', error));
  }
  onEnd(result: FullResult): void {
    const failures = [...this.errors];
    const counts = { passed: 0, failed: 0, skipped: 0, failures };
    for (const [test, { outcome, error }] of this.outcome) {
      if (outcome === 'expected' || outcome === 'flaky') counts.passed++;
      else if (outcome === 'skipped') counts.skipped++;
      else
        failures.push(
          failureLine(
            `${test.location.file.replace(`${process.cwd()}/`, '')} › ${test.titlePath().slice(2).join(' › ')}`,
            error,
          ),
        );
    }
    if (result.status !== 'passed' && failures.length === 0)
      failures.push(failureLine('playwright', `run ${result.status}`));
    counts.failed = failures.length;
    writeCounts(counts);
  }
  printsToStdio(): boolean {
    return false;
  }
}
