/**
 * Packages that one suite alone needs, kept out of `npm install` so that a newcomer's install
 * brings only what the site and the everyday tests run (README "Two commands"): each has a
 * package.json and a lockfile of its own, and is installed (`npm ci`) the first time it is asked
 * for, then again only when its lockfile changes. Several test processes may ask at once: one
 * installs, the others wait for it.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');

export const LAZY_PACKAGES = {
  /** a real WordPress from npm (tests/support/wordpress.ts) */
  wordpress: 'integrations/wordpress/playground',
  /** the Supabase CLI (tests/contract/privileges.test.ts, functions-deploy.test.ts, bench functions) */
  tools: 'tests/tools',
} as const;

export type LazyPackage = keyof typeof LAZY_PACKAGES;

/** The Supabase CLI (installed on first use). */
export function supabaseCli(): string {
  return join(ensurePackages('tools'), '.bin', 'supabase');
}

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Installs a lazy package if it is missing or its lockfile changed since; returns its node_modules. */
export function ensurePackages(name: LazyPackage): string {
  const dir = join(root, LAZY_PACKAGES[name]);
  const modules = join(dir, 'node_modules');
  const stamp = join(modules, '.exp-installed');
  const want = createHash('sha256')
    .update(readFileSync(join(dir, 'package-lock.json')))
    .digest('hex');
  const installed = () => existsSync(stamp) && readFileSync(stamp, 'utf8') === want;
  if (installed()) return modules;
  const lock = join(dir, '.installing');
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // another process installs: wait for it (a lock older than 20 minutes was left by a killed one)
      const held = statSync(lock, { throwIfNoEntry: false });
      if (held && Date.now() - held.mtimeMs > 20 * 60_000) rmSync(lock, { recursive: true, force: true });
      sleep(500);
      if (installed()) return modules;
    }
  }
  try {
    if (installed()) return modules;
    console.log(`[lazy-packages] installing ${LAZY_PACKAGES[name]} (first use)...`);
    const started = Date.now();
    const done = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: 'inherit', env: process.env });
    if (done.status !== 0) throw new Error(`npm ci in ${LAZY_PACKAGES[name]} failed (${done.status ?? done.signal})`);
    writeFileSync(stamp, want);
    console.log(`[lazy-packages] ${LAZY_PACKAGES[name]} installed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    return modules;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const name of process.argv.slice(2).length ? (process.argv.slice(2) as LazyPackage[]) : (Object.keys(LAZY_PACKAGES) as LazyPackage[])) ensurePackages(name);
}
