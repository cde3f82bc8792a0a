// Browser tests of the BUILT bundle (dist/widgets) in the test Chromium (tests/support/chromium.mjs) through Playwright.
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { defaultReporter, summaryReporter } from '@web/test-runner';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './tests/support/chromium.mjs';
import { pinSuiteClock, shiftDate } from './tests/support/suite-clock.mjs';
import { dataServer } from './tests/support/wtr-data-server.mjs';

/** Totals for scripts/test.ts, which prints the one closing line. */
function countsReporter() {
  return {
    onTestRunFinished({ sessions }) {
      // the failures' lines as tests/support/counts.ts writes them
      const failures = [];
      const counts = { passed: 0, failed: 0, skipped: 0, failures };
      const line = (where, error) =>
        `${where}${error?.message ? `: ${String(error.message).split('\n')[0].slice(0, 300)}` : ''}`;
      const walk = (suite, file, path) => {
        for (const t of suite.tests ?? []) {
          if (t.skipped) counts.skipped++;
          else if (t.passed) counts.passed++;
          else failures.push(line([file, ...path, t.name].join(' › '), t.error));
        }
        for (const s of suite.suites ?? []) walk(s, file, [...path, s.name]);
      };
      for (const s of sessions) {
        if (s.testResults) walk(s.testResults, relative(process.cwd(), s.testFile), []);
        // a file that could not load or run at all counts as a failure
        if (!s.passed && (!s.testResults || (s.errors ?? []).length))
          failures.push(line(relative(process.cwd(), s.testFile), s.errors?.[0]));
      }
      counts.failed = failures.length;
      if (process.env.EXP_COUNTS_FILE) writeFileSync(process.env.EXP_COUNTS_FILE, JSON.stringify(counts));
    },
  };
}

// every test runs at one stated instant, whatever the machine's date (docs/decisions.md #33): the
// data server inherits it, and each page's clock is set to it (running on from there)
pinSuiteClock();

export default {
  rootDir: '.',
  files: ['tests/browser/**/*.test.ts'],
  nodeResolve: true,
  concurrency: 2,
  concurrentBrowsers: 1,
  testsFinishTimeout: 300_000,
  browserStartTimeout: 60_000,
  testFramework: { config: { timeout: 20_000 } },
  plugins: [esbuildPlugin({ ts: true, target: 'es2022' }), dataServer()],
  browsers: [
    playwrightLauncher({
      product: 'chromium',
      launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true },
      async createPage({ context }) {
        const page = await context.newPage();
        await page.addInitScript(shiftDate, pinSuiteClock());
        return page;
      },
    }),
  ],
  reporters: [defaultReporter(), summaryReporter({ flatten: false }), countsReporter()],
};
