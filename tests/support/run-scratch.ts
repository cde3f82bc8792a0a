/**
 * One folder for a test run's temporary files (scripts/test.ts): every process the run starts
 * inherits it as TMPDIR, so what a test, a server, PostgreSQL, Chromium or WordPress Playground
 * leaves in the temporary directory (a test's outbox, a deploy's bundle, a cluster's socket
 * folder) lands there, and the run removes it when it ends. Before, each full run left some
 * seventeen folders in /tmp that no one removed.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RunScratch {
  /** the run's own folder (the counts files beside the temporary one) */
  dir: string;
  /**
   * what the run's processes get: TMPDIR (and TMP, TEMP) inside `dir`, and the system's own as
   * EXP_SYSTEM_TMPDIR, where what outlives a run is kept (the test Chromium, tests/support/chromium.mjs)
   */
  env: Record<'TMPDIR' | 'TMP' | 'TEMP' | 'EXP_SYSTEM_TMPDIR', string>;
  /** removes the folder and everything in it */
  remove(): void;
}

export function runScratch(prefix = 'exp-test-'): RunScratch {
  const dir = mkdtempSync(join(process.env.EXP_SYSTEM_TMPDIR || tmpdir(), prefix));
  const tmp = join(dir, 'tmp');
  mkdirSync(tmp);
  // as the system's temporary directory is: open to every user, each keeping their own (sticky),
  // since PostgreSQL runs as a user of its own when the run is root's
  chmodSync(dir, 0o755);
  chmodSync(tmp, 0o1777);
  return {
    dir,
    env: { TMPDIR: tmp, TMP: tmp, TEMP: tmp, EXP_SYSTEM_TMPDIR: process.env.EXP_SYSTEM_TMPDIR || tmpdir() },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
