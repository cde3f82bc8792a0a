/**
 * The test browser (see chromium.mjs): CHROMIUM_PATH, else the Chromium from npm, launched the way
 * this machine needs: headless, no sandbox (root in CI), no background networking (the network is
 * closed), a fresh profile.
 */
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.mjs';

export { CHROMIUM_ARGS, CHROMIUM_PATH };
export const launchOptions = { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true } as const;
