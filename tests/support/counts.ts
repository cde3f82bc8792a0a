/** Each test runner writes its totals here; scripts/test.ts sums them into the closing line. */
import { writeFileSync } from 'node:fs';

export interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

export function writeCounts(counts: Counts): void {
  const file = process.env.EXP_COUNTS_FILE;
  if (file) writeFileSync(file, JSON.stringify(counts));
}
