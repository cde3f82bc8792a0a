/**
 * The finished code without the minifier's marks (docs/benchmarks.md "Measured apart"). Rolldown's
 * minifier leaves a `@__PURE__` comment before each call it may drop, mostly React's JSX (about a
 * hundred in the runtime chunk, 0.5 KB gzip of the search page): they tell a bundler what it may
 * leave out, and nothing bundles our chunks again, so once the bundle is made each chunk is printed
 * once more by the same minifier without them (no compression, no renaming: the same code), its
 * source map composed with the bundle's. Licences stay. (Turning the marks off in the bundler's
 * options instead loses them before they are used: the runtime came out larger.)
 */
import remapping from '@jridgewell/remapping';
import { minify } from 'rolldown/utils';
import type { Plugin } from 'vite';

/** the link to a chunk's source map, as rolldown ends a chunk with it */
const MAP_LINK = /\n\/\/# sourceMappingURL=[^\n]*\n?$/;

export function finishedCode(): Plugin {
  return {
    name: 'exp-finished-code',
    apply: 'build',
    async generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk' || !chunk.code.includes('@__PURE__')) continue;
        const link = MAP_LINK.exec(chunk.code)?.[0] ?? '';
        const out = await minify(chunk.fileName, link ? chunk.code.slice(0, -link.length) : chunk.code, {
          compress: false,
          mangle: false,
          module: true,
          sourcemap: Boolean(chunk.map),
          codegen: { legalComments: 'inline' },
        });
        if (out.errors.length) this.error(`${chunk.fileName}: ${out.errors.map((e) => e.message).join('; ')}`);
        chunk.code = out.code + link;
        if (!chunk.map || !out.map) continue;
        const map = remapping([out.map, chunk.map] as Parameters<typeof remapping>[0], () => null);
        Object.assign(chunk.map, { mappings: map.mappings, names: map.names });
        const file = bundle[`${chunk.fileName}.map`];
        if (file?.type === 'asset') file.source = JSON.stringify(chunk.map);
      }
    },
  };
}
