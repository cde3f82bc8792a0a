/** Each test runner writes its totals here; scripts/test.ts sums them into the closing line. */
import { writeFileSync } from 'node:fs';

export interface Counts {
  passed: number;
  failed: number;
  skipped: number;
  /**
   * What failed, one line each ("file › test: the error's first line"): printed again just above
   * the closing line, where a CI log that keeps only its tail still shows it.
   */
  failures?: string[];
}

/** One line of a failure: where, and the first line of what was thrown. */
export function failureLine(where: string, error?: unknown): string {
  const e = error as { message?: unknown } | undefined;
  const message = e && typeof e.message === 'string' ? e.message : error === undefined ? '' : String(error);
  const first = message.split('\n').find((l) => l.trim()) ?? '';
  return `${where}${first ? `: ${first.trim().slice(0, 300)}` : ''}`;
}

export function writeCounts(counts: Counts): void {
  const file = process.env.EXP_COUNTS_FILE;
  if (file) writeFileSync(file, JSON.stringify(counts));
}
