import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig, type UserConfig } from 'vite';

const here = import.meta.dirname;

/** Which modules make up the shared runtime chunk every element needs, and the map chunk. */
const RUNTIME = /node_modules[\\/](react|react-dom|scheduler|@r2wc|@twind|i18next|@supabase|@preact)[\\/]|widgets[\\/](lib|locales)[\\/]/;

const common: UserConfig = {
  define: { 'process.env.NODE_ENV': '"production"' },
  oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
  logLevel: 'warn',
};

/**
 * Builds, selected by mode:
 *  - widgets: dist/widgets/exp-widgets.js, the tiny autoloader, with hashed chunks beside it
 *  - bundle:  dist/widgets/exp-widgets.bundle.js, every element in one self-contained file
 *  - site:    dist/site, the host site's plain pages as a multi-page build
 */
export default defineConfig(({ mode }): UserConfig => {
  if (mode === 'site') {
    const pages = readdirSync(resolve(here, 'site')).filter((f) => f.endsWith('.html'));
    return {
      ...common,
      root: resolve(here, 'site'),
      publicDir: resolve(here, 'site/public'),
      base: '/',
      build: {
        outDir: resolve(here, 'dist/site'),
        emptyOutDir: true,
        sourcemap: true,
        target: 'es2022',
        rolldownOptions: { input: Object.fromEntries(pages.map((p) => [p.replace(/\.html$/, ''), resolve(here, 'site', p)])) },
      },
    };
  }
  const single = mode === 'bundle';
  return {
    ...common,
    publicDir: false,
    build: {
      outDir: resolve(here, 'dist/widgets'),
      emptyOutDir: !single,
      sourcemap: true,
      minify: true,
      target: 'es2022',
      reportCompressedSize: false,
      lib: {
        entry: resolve(here, 'widgets/index.ts'),
        formats: ['es'],
        fileName: () => (single ? 'exp-widgets.bundle.js' : 'exp-widgets.js'),
      },
      rolldownOptions: {
        output: single
          ? { codeSplitting: false, minify: true }
          : {
              minify: true,
              chunkFileNames: 'chunks/[name]-[hash].js',
              codeSplitting: {
                groups: [{ name: 'runtime', test: RUNTIME, priority: 10 }],
              },
            },
      },
    },
  };
});
