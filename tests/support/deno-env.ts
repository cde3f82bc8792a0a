/**
 * How every Deno process of ours runs the functions, one place for the test runner, the function
 * tests and the deploy test: no project config, the functions' import map (supabase/config.toml's
 * import_map), npm packages from the registry npm uses into our own cache, and the system's
 * certificate store besides Deno's own (a registry behind a company's TLS proxy is trusted as npm
 * trusts it).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CLOCK_OFFSET_ENV } from '../../core/clock.ts';

const root = resolve(import.meta.dirname, '../..');

export const DENO = resolve(root, 'node_modules/.bin/deno');

/** The npm packages the functions import, by name. */
export const IMPORT_MAP = 'supabase/functions/import_map.json';

/** The functions supabase/config.toml declares, with their entrypoints (from the project's root). */
export const FUNCTIONS: ReadonlyArray<{ slug: string; entrypoint: string }> = [
  ...readFileSync(resolve(root, 'supabase/config.toml'), 'utf8').matchAll(
    /\[functions\.([a-z0-9-]+)\][^[]*?entrypoint = "\.\/([^"]+)"/g,
  ),
].map((m) => ({ slug: m[1] as string, entrypoint: `supabase/${m[2] as string}` }));

export const DENO_FLAGS = ['--no-config', `--import-map=${IMPORT_MAP}`, '--node-modules-dir=none'];

export function denoEnv(home = process.env.HOME ?? root): Record<string, string> {
  const registry = process.env.NPM_CONFIG_REGISTRY ?? process.env.npm_config_registry;
  return {
    PATH: process.env.PATH ?? '',
    HOME: home,
    DENO_DIR: resolve(root, '.cache/deno'),
    DENO_NO_UPDATE_CHECK: '1',
    DENO_TLS_CA_STORE: 'system,mozilla',
    NO_COLOR: '1',
    ...(registry ? { NPM_CONFIG_REGISTRY: registry } : {}),
    // the one clock's offset where the tests set one (core/clock.ts)
    ...(process.env[CLOCK_OFFSET_ENV] ? { [CLOCK_OFFSET_ENV]: process.env[CLOCK_OFFSET_ENV] } : {}),
  };
}
