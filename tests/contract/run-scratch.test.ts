/**
 * A test run's temporary files in one folder (tests/support/run-scratch.ts, scripts/test.ts): a
 * process the run starts makes its temporary folders inside it, by the TMPDIR it inherits, and
 * none is left once the run removes it; the test Chromium stays in the system's, inflated once.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runScratch } from '../support/run-scratch.ts';

/** the environment without a browser or fonts named: the packaged Chromium's own choice */
const withoutChromium = ({ CHROMIUM_PATH: _path, FONTCONFIG_PATH: _fonts, ...env }: NodeJS.ProcessEnv) => env;

describe("a test run's temporary folder", () => {
  it("holds what the run's processes make in their temporary directory, and nothing is left after it", () => {
    const scratch = runScratch('exp-scratch-check-');
    onTestFinished(() => scratch.remove());
    const before = readdirSync(tmpdir()).filter((name) => name.startsWith('exp-made-by-a-test-'));
    // a child as a test's server would: a folder of its own in the temporary directory it is given
    const made = execFileSync(
      process.execPath,
      [
        '-e',
        `const fs = require('node:fs'), os = require('node:os'), path = require('node:path');
         const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'exp-made-by-a-test-'));
         fs.writeFileSync(path.join(dir, 'outbox.eml'), 'a mail');
         process.stdout.write(dir);`,
      ],
      { env: { ...process.env, ...scratch.env }, encoding: 'utf8' },
    );
    expect(dirname(made)).toBe(scratch.env.TMPDIR);
    // open to every user as the system's is (PostgreSQL runs as its own user under root's run)
    expect(statSync(scratch.env.TMPDIR).mode & 0o7777).toBe(0o1777);
    expect(statSync(scratch.dir).mode & 0o777).toBe(0o755);
    expect(existsSync(made)).toBe(true);
    // what outlives a run stays in the system's: the test Chromium, inflated once, and its fonts,
    // whose configuration names /tmp/fonts
    const chromium = JSON.parse(
      execFileSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const m = await import(${JSON.stringify(new URL('../support/chromium.mjs', import.meta.url).href)});
           process.stdout.write(JSON.stringify([m.CHROMIUM_PATH, process.env.FONTCONFIG_PATH]));`,
        ],
        { env: { ...withoutChromium(process.env), ...scratch.env }, encoding: 'utf8' },
      ),
    ) as string[];
    const system = process.env.EXP_SYSTEM_TMPDIR || tmpdir();
    expect(chromium).toEqual([join(system, 'chromium'), join(system, 'fonts')]);
    scratch.remove();
    expect(existsSync(made)).toBe(false);
    expect(existsSync(scratch.dir)).toBe(false);
    expect(readdirSync(tmpdir()).filter((name) => name.startsWith('exp-made-by-a-test-'))).toEqual(before);
  });
});
