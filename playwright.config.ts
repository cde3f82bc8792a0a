import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './tests/support/chromium.mjs';
import { pinSuiteClock } from './tests/support/suite-clock.mjs';

// every test runs at one stated instant, whatever the machine's date (docs/decisions.md #33): the
// servers and workers inherit it; each page's clock is set to it (tests/e2e/fixtures.ts)
pinSuiteClock();

/** End-to-end tests against the real server (`npm start`'s code) on its own port and data dir. */
const port = Number(process.env.E2E_PORT ?? 8190);
export const baseURL = `http://localhost:${port}`;

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: true,
  workers: process.env.CI ? 2 : 2,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['./tests/support/playwright-counts-reporter.ts']],
  // one PostgreSQL with a seeded template database; each worker's server reads a copy of it
  globalSetup: './tests/support/shared-postgres.ts',
  outputDir: '.cache/e2e-results',
  use: {
    baseURL,
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    headless: true,
    trace: 'off',
    // a visitor who asked for reduced motion: the heroes' looping videos, decoded and composited in
    // software on a machine without a GPU, held half a core in every test that sat on a page with one
    // (docs/architecture.md "Tests"); the motion itself is tested where it is the subject
    // (site-pages.spec.ts asks for it)
    reducedMotion: 'reduce',
  },
  webServer: {
    command: 'node --import tsx server/main.ts',
    url: `${baseURL}/`,
    reuseExistingServer: false,
    timeout: 240_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: { PORT: String(port), DATA_DIR: '.data/e2e', RESET_DATA: '1', LOG_REQUESTS: '0' },
  },
});
