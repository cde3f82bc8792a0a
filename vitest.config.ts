import { defineConfig } from 'vitest/config';
import { widgetStyles } from './scripts/widget-styles.ts';
import { widgetTexts } from './scripts/widget-texts.ts';
import { pinSuiteClock } from './tests/support/suite-clock.mjs';

// every test runs at one stated instant, whatever the machine's date (docs/decisions.md #33)
pinSuiteClock();

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
        // beside the node suites, not before them: each file is quick, and while the node suites
        // wait for their databases and servers a worker runs them
        test: {
          name: 'widgets',
          environment: 'happy-dom',
          include: ['widgets/**/*.test.{ts,tsx}', 'site/**/*.test.ts'],
          maxWorkers: 3,
        },
      },
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: ['core/**/*.test.ts', 'server/**/*.test.ts', 'scripts/**/*.test.ts', 'tests/contract/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          // three on two cores: several suites mostly wait (PostgreSQL stopped and started, SMTP retries)
          maxWorkers: 3,
        },
      },
    ],
  },
});
