/**
 * Packages that one suite alone needs, kept out of `npm install` so that a newcomer's install
 * brings only what the site and the everyday tests run (README "Two commands"): each has a
 * package.json and a lockfile of its own, and is installed (`npm ci`) the first time it is asked
 * for, then again only when its package.json or lockfile changes. Several test processes may ask at
 * once: one installs, the others wait for it.
 *
 * A package.json may also name `tarballParts`: packages of which only some files are used, fetched
 * with `npm pack` (npm's registry and cache), checked against the integrity written there, and only
 * those files unpacked into node_modules (WordPress's builds: one version's files of six, docs/leads.md).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');

export const LAZY_PACKAGES = {
  /** a real WordPress from npm (tests/support/wordpress.ts) */
  wordpress: 'integrations/wordpress/playground',
  /** the Supabase CLI (tests/contract/privileges-catalogue.test.ts, functions-deploy.test.ts, bench functions) */
  tools: 'tests/tools',
  /** Lighthouse and its Chromium launcher (bench/lighthouse.ts): for `npm run bench`, never for `npm test` */
  bench: 'bench/tools',
} as const;

export type LazyPackage = keyof typeof LAZY_PACKAGES;

/** what `npm test` installs in its first stage (this file run without names) */
const TEST_PACKAGES: readonly LazyPackage[] = ['wordpress', 'tools'];

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
    .update(readFileSync(join(dir, 'package.json')))
    .update(readFileSync(join(dir, 'package-lock.json')))
    .digest('hex');
  const installed = () => existsSync(stamp) && readFileSync(stamp, 'utf8') === want;
  if (installed()) return modules;
  const lock = join(dir, '.installing');
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      break;
    } catch {
      // another process installs: wait for it, however long a slow network takes, unless that
      // process is gone (killed mid-install); a lock without a pid is given a minute to get one
      if (!holderAlive(lock)) rmSync(lock, { recursive: true, force: true });
      sleep(500);
      if (installed()) return modules;
    }
  }
  try {
    if (installed()) return modules;
    console.log(`[lazy-packages] installing ${LAZY_PACKAGES[name]} (first use)...`);
    const started = Date.now();
    const done = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: dir,
      stdio: 'inherit',
      env: process.env,
    });
    if (done.status !== 0) throw new Error(`npm ci in ${LAZY_PACKAGES[name]} failed (${done.status ?? done.signal})`);
    unpackParts(dir, modules);
    writeFileSync(stamp, want);
    console.log(`[lazy-packages] ${LAZY_PACKAGES[name]} installed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    return modules;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Whether the process that holds the install lock still runs (a pid can be reused: 3 hours at most). */
function holderAlive(lock: string): boolean {
  const held = statSync(lock, { throwIfNoEntry: false });
  if (!held) return true; // released meanwhile: the next try takes it
  let pid = 0;
  try {
    pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
  } catch {
    // not written yet, or the lock is being released
  }
  const age = Date.now() - held.mtimeMs;
  if (!pid) return age < 60_000;
  if (age > 3 * 3600_000) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

interface TarballPart {
  /** the tarball's sha512, as a lockfile writes it */
  integrity: string;
  /** paths inside the package (files or folders) to unpack */
  paths: string[];
}

/** Unpacks the named parts of each of package.json's `tarballParts` into node_modules/<name>/. */
function unpackParts(dir: string, modules: string): void {
  const parts =
    (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { tarballParts?: Record<string, TarballPart> })
      .tarballParts ?? {};
  for (const [spec, part] of Object.entries(parts)) {
    const work = mkdtempSync(join(tmpdir(), 'exp-tarball-'));
    try {
      // the tarball is the one file npm pack leaves there (its output lists every file in the package)
      const packed = spawnSync('npm', ['pack', spec, '--pack-destination', work, '--loglevel=error'], {
        cwd: dir,
        stdio: ['ignore', 'ignore', 'inherit'],
        env: process.env,
      });
      if (packed.status !== 0) throw new Error(`npm pack ${spec} failed (${packed.status ?? packed.signal})`);
      const file = join(work, readdirSync(work)[0] ?? 'no tarball');
      const integrity = `sha512-${createHash('sha512').update(readFileSync(file)).digest('base64')}`;
      if (integrity !== part.integrity)
        throw new Error(
          `${spec}: its tarball's integrity is ${integrity}, not the ${part.integrity} its package.json expects`,
        );
      const into = join(modules, spec.slice(0, spec.lastIndexOf('@')));
      mkdirSync(into, { recursive: true });
      const untar = spawnSync(
        'tar',
        ['-xzf', file, '-C', into, '--strip-components=1', ...part.paths.map((path) => `package/${path}`)],
        { stdio: 'inherit' },
      );
      if (untar.status !== 0)
        throw new Error(`unpacking ${part.paths.join(', ')} of ${spec} failed (${untar.status ?? untar.signal})`);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const name of process.argv.slice(2).length ? (process.argv.slice(2) as LazyPackage[]) : TEST_PACKAGES)
    ensurePackages(name);
}
