/**
 * The page budgets (tests/support/weight.ts) rose by what i18next costs and no more: the library
 * alone, bundled and minified as our build does, then gzip level 9, fits I18NEXT_GZIP, and the
 * allowance is not slack (within 1.5 KB of it).
 */
import { buildSync } from 'esbuild';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { I18NEXT_GZIP } from '../tests/support/weight.ts';

describe('the weight budgets', () => {
  it("allow i18next's own weight and no more", () => {
    const out = buildSync({
      stdin: {
        contents: "import i18next from 'i18next'; export const make = i18next.createInstance;",
        resolveDir: import.meta.dirname,
      },
      bundle: true,
      minify: true,
      format: 'esm',
      write: false,
    });
    const gzip = gzipSync(out.outputFiles[0]?.contents ?? new Uint8Array(), { level: 9 }).length;
    expect(gzip).toBeLessThanOrEqual(I18NEXT_GZIP);
    expect(I18NEXT_GZIP - gzip).toBeLessThan(1536);
  });

  it('the runtime chunk every element loads carries i18next, once', () => {
    // the build the suites run against (npm test builds before the unit stage)
    const chunks = resolve(import.meta.dirname, '../dist/widgets/chunks');
    const runtime = readdirSync(chunks).filter((f) => /^runtime-[\w-]+\.js$/.test(f));
    expect(runtime).toHaveLength(1);
    const code = readFileSync(join(chunks, runtime[0] as string), 'utf8');
    expect(code).toContain('i18next is already initialized');
    const others = readdirSync(chunks).filter(
      (f) =>
        f.endsWith('.js') &&
        f !== runtime[0] &&
        readFileSync(join(chunks, f), 'utf8').includes('i18next is already initialized'),
    );
    expect(others).toEqual([]);
  });

  it("the site's own page script carries none: it translates with the runtime's instance (the entry's pageTexts())", () => {
    const assets = resolve(import.meta.dirname, '../dist/site/assets');
    const scripts = readdirSync(assets).filter((f) => f.endsWith('.js'));
    expect(scripts.filter((f) => /^site-[\w-]+\.js$/.test(f))).toHaveLength(1);
    expect(
      scripts.filter((f) => readFileSync(join(assets, f), 'utf8').includes('i18next is already initialized')),
    ).toEqual([]);
    const entry = readFileSync(resolve(import.meta.dirname, '../dist/widgets/exp-widgets.js'), 'utf8');
    expect(entry).toMatch(/export\s*\{[^}]*pageTexts/);
  });
});
