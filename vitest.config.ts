import { configDefaults, defineConfig } from 'vitest/config';
import { widgetStyles } from './scripts/widget-styles.ts';
import { widgetTexts } from './scripts/widget-texts.ts';
import { NODE_TESTS } from './tests/support/node-tests.mjs';
import { pinSuiteClock } from './tests/support/suite-clock.mjs';

// every test runs at one stated instant, whatever the machine's date (docs/decisions.md #33)
pinSuiteClock();

/** The node tests that read the process's own heap (process.memoryUsage()). */
const HEAP_FILES = ['tests/contract/security-requests.test.ts'];

export default defineConfig({
  plugins: [widgetStyles(), widgetTexts()],
  oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
  test: {
    reporters: ['default', './tests/support/vitest-counts-reporter.ts'],
    // one PostgreSQL with migrated and seeded template databases for every suite (a copy each)
    globalSetup: ['./tests/support/shared-postgres.ts'],
    projects: [
      {
        extends: true,
        // each file is quick; vitest queues the projects' files by the projects' names, so these
        // run as the node suites' last files end
        test: {
          name: 'widgets',
          environment: 'happy-dom',
          include: ['widgets/**/*.test.{ts,tsx}', 'site/**/*.test.ts'],
          maxWorkers: 3,
        },
      },
      {
        extends: true,
        // a file that measures the process's heap has a worker of its own: in a shared one the heap
        // also holds what the files before it left (10,000 made-up pages "grew" it 40 MB in one
        // run). Named so that vitest, which queues projects by name, starts it first
        test: {
          name: 'heap',
          environment: 'node',
          include: HEAP_FILES,
          testTimeout: 60_000,
          hookTimeout: 180_000,
          // (projects that run together must agree on it)
          maxWorkers: 3,
        },
      },
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: NODE_TESTS,
          exclude: [...configDefaults.exclude, ...HEAP_FILES],
          testTimeout: 60_000,
          // the files of a worker share its modules (the server, pg, the support code) instead of
          // each importing them again: 158 s of imports summed over the files became 37 s, and the
          // stage is bound by its two cores. Each file starts its own servers and databases and
          // leaves no module state behind (a spy restored; no process.env written)
          isolate: false,
          hookTimeout: 180_000,
          // three on two cores: several suites mostly wait (PostgreSQL stopped and started, SMTP retries)
          maxWorkers: 3,
        },
      },
    ],
  },
});
