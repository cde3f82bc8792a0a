// The browser every test, benchmark and screenshot uses, resolved once here (plain JS, so configs
// loaded without a TypeScript loader can import it too).
//
// CHROMIUM_PATH set: that browser (e.g. Debian's /usr/bin/chromium). Otherwise the Chromium that
// `npm install` brought (@sparticuz/chromium ships it compressed inside the package), inflated
// once per version into the temporary directory; it renders with the fonts it ships (Open Sans)
// and nothing else, so screenshots look the same on any machine. Never a downloaded browser.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

function packagedChromium() {
  const version = JSON.parse(readFileSync(join(root, 'node_modules/@sparticuz/chromium/package.json'), 'utf8')).version;
  // the system's temporary directory, not a test run's own (tests/support/run-scratch.ts): the
  // browser is inflated there once for every run, and its fonts' configuration names /tmp/fonts
  const base = process.env.EXP_SYSTEM_TMPDIR || tmpdir();
  const binary = join(base, 'chromium');
  const marker = join(base, `exp-chromium-${version}.ok`);
  // @sparticuz/chromium reuses whatever tmpdir()/chromium holds: a marker says which version it is
  if (!existsSync(marker)) rmSync(binary, { force: true });
  if (!existsSync(binary)) {
    const script =
      'import("@sparticuz/chromium").then((m) => m.default.executablePath()).then((p) => process.stdout.write(p))';
    const path = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, TMPDIR: base },
    });
    if (path !== binary) throw new Error(`@sparticuz/chromium inflated to ${path}, expected ${binary}`);
    writeFileSync(marker, `${version}\n`);
  }
  // only the fonts the package ships: the same text metrics on every machine
  process.env.FONTCONFIG_PATH ??= join(base, 'fonts');
  return binary;
}

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || packagedChromium();
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--disable-dev-shm-usage',
  '--font-render-hinting=none',
];
