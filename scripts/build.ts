/**
 * `npm run build`: the widget bundle (autoloader + chunks), the single-file bundle, the host site
 * and the embedding demos, dist-types/, the WordPress plugin's zip, and a table of gzip sizes (also written to
 * dist/sizes.json for tests and benches). `--test-widgets` also builds dist/test-widgets, the
 * widgets with their test hooks (npm test does). The served files are then compressed ahead
 * (scripts/precompress.ts).
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { writeTypes } from './gen-types.ts';
import { precompressTree } from './precompress.ts';
import { buildWordPressPlugin } from './wordpress.ts';

const root = resolve(import.meta.dirname, '..');
const dist = join(root, 'dist');

export const BUDGETS = {
  /** the one script every partner page pays for */
  entry: 10 * 1024,
} as const;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? files(join(dir, d.name)) : [join(dir, d.name)],
  );
}

export interface SizeRow {
  file: string;
  bytes: number;
  gzip: number;
}

export function measure(): SizeRow[] {
  const widgets = join(dist, 'widgets');
  return files(widgets)
    .filter((f) => f.endsWith('.js'))
    .map((f) => {
      const body = readFileSync(f);
      return { file: relative(widgets, f), bytes: statSync(f).size, gzip: gzipSync(body, { level: 9 }).length };
    })
    .sort((a, b) =>
      a.file === 'exp-widgets.js' ? -1 : b.file === 'exp-widgets.js' ? 1 : a.file.localeCompare(b.file),
    );
}

function kb(n: number): string {
  return (n / 1024).toFixed(1) + ' KB';
}

export function printTable(rows: SizeRow[]): void {
  const width = Math.max(...rows.map((r) => r.file.length), 4);
  console.log(`\n${'file'.padEnd(width)}  ${'size'.padStart(10)}  ${'gzip'.padStart(10)}`);
  for (const r of rows) console.log(`${r.file.padEnd(width)}  ${kb(r.bytes).padStart(10)}  ${kb(r.gzip).padStart(10)}`);
  console.log('');
}

async function main(): Promise<void> {
  const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const want = (part: string) => only.length === 0 || only.includes(part);
  const started = Date.now();
  if (want('widgets')) {
    await build({ configFile: join(root, 'vite.config.ts'), mode: 'widgets' });
    await build({ configFile: join(root, 'vite.config.ts'), mode: 'bundle' });
  }
  if (want('site')) {
    await build({ configFile: join(root, 'vite.config.ts'), mode: 'site' });
    // the embedding demos, served at /demo (after the site, which empties dist/site)
    await build({ configFile: join(root, 'vite.config.ts'), mode: 'demo' });
  }
  if (want('types')) writeTypes();
  // the WordPress plugin and its zip (integrations/wordpress)
  if (want('wordpress')) buildWordPressPlugin();
  // the widgets with their test hooks, for the browser tests and the map benchmark only
  if (process.argv.includes('--test-widgets'))
    await build({ configFile: join(root, 'vite.config.ts'), mode: 'test-widgets' });
  // the served files compressed ahead, so that no server compresses them for a visitor (scripts/precompress.ts)
  const served = ['widgets', 'site', 'test-widgets'].map((d) => join(dist, d)).filter((d) => existsSync(d));
  const precompressStarted = Date.now();
  const compressed = await precompressTree(served);
  console.log(`compressed ahead: ${compressed} files in ${((Date.now() - precompressStarted) / 1000).toFixed(1)} s`);
  if (want('widgets')) {
    const rows = measure();
    printTable(rows);
    writeFileSync(join(dist, 'sizes.json'), JSON.stringify(rows, null, 2) + '\n');
    const entry = rows.find((r) => r.file === 'exp-widgets.js');
    if (entry && entry.gzip > BUDGETS.entry) {
      console.error(`The entry script is ${kb(entry.gzip)} gzip, over its ${kb(BUDGETS.entry)} budget.`);
      process.exitCode = 1;
    }
  }
  console.log(`built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
