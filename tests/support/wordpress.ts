/**
 * A real WordPress, from npm only (no PHP, no internet but the npm registry): WordPress Playground's CLI
 * (@wp-playground/cli, PHP compiled to WebAssembly) serving WordPress 6.5 from
 * @wp-playground/wordpress-builds (its zip, already installed with SQLite, and the static files the
 * zip leaves out; only 6.5's are unpacked, docs/leads.md), with our plugin mounted from the build
 * (dist/wordpress/exp-ecuador) and a blueprint's steps run at its start. Playground would fetch WordPress from wordpress.org by
 * version; given the files and `install-from-existing-files`, it fetches nothing.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { unzipSync } from 'fflate';
import { ensurePackages } from '../../scripts/lazy-packages.ts';
import { spawnChild } from './child.ts';
import { freePort } from './postgres.ts';

/** Playground and WordPress's files: a package of their own, installed on first use (scripts/lazy-packages.ts). */
const modules = () => ensurePackages('wordpress');
export const WORDPRESS_VERSION = '6.5';

export interface WordPress {
  url: string;
  output(): string;
  stop(): Promise<void>;
}

/** WordPress's files, complete: the zip's, and the static files kept beside it. */
function wordpressTree(dir: string): void {
  const builds = join(modules(), '@wp-playground/wordpress-builds');
  const files = unzipSync(readFileSync(join(builds, 'src/wordpress', `wp-${WORDPRESS_VERSION}.zip`)));
  for (const [name, body] of Object.entries(files)) {
    if (name.endsWith('/')) continue;
    const file = join(dir, name.replace(/^wordpress\//, ''));
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, body);
  }
  cpSync(join(builds, 'public', `wp-${WORDPRESS_VERSION}`), dir, { recursive: true });
}

export async function startWordPress(options: { plugin: string; steps: unknown[] }): Promise<WordPress> {
  const work = mkdtempSync(join(tmpdir(), 'exp-wordpress-'));
  const site = join(work, 'site');
  mkdirSync(site);
  wordpressTree(site);
  const port = await freePort();
  const blueprint = join(work, 'blueprint.json');
  // no network but npm's here: WordPress's own calls out (the first admin page checks wordpress.org
  // for updates) are refused at once instead of waiting out their timeouts (15 s to log in, 2 s with)
  const offline = { step: 'defineWpConfigConsts', consts: { WP_HTTP_BLOCK_EXTERNAL: true } };
  writeFileSync(
    blueprint,
    JSON.stringify({
      preferredVersions: { php: '8.3', wp: WORDPRESS_VERSION },
      landingPage: '/',
      steps: [offline, ...options.steps],
    }),
  );
  const { output, exitStatus, exited, child } = spawnChild(
    process.execPath,
    [
      join(modules(), '@wp-playground/cli/wp-playground.js'),
      'server',
      `--port=${port}`,
      '--workers=1',
      '--wordpress-install-mode=install-from-existing-files',
      `--mount-before-install=${site}:/wordpress`,
      `--mount=${options.plugin}:/wordpress/wp-content/plugins/exp-ecuador`,
      `--blueprint=${blueprint}`,
    ],
    // its caches in the test's own directory
    { cwd: work, env: { ...process.env, HOME: work } },
  );
  const end = Date.now() + 120_000;
  while (!/Ready!/.test(output())) {
    if (exitStatus() !== null || Date.now() > end) {
      child.kill('SIGKILL');
      throw new Error(`WordPress Playground did not start:\n${output().slice(-3000)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const url = `http://127.0.0.1:${port}`;
  // the first request of a Playground redirects once to itself (setting its cookie)
  await fetch(`${url}/`, { redirect: 'manual' }).catch(() => undefined);
  return {
    url,
    output,
    async stop() {
      if (exitStatus() === null) {
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (exitStatus() === null) child.kill('SIGKILL');
      }
      rmSync(work, { recursive: true, force: true });
    },
  };
}
