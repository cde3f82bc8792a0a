import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig, type UserConfig } from 'vite';
import { ecuadorOutline, olWithoutFlatStyles } from './scripts/ecuador-outline.ts';
import { siteHead, widgetLocales } from './scripts/site-html.ts';

const here = import.meta.dirname;

/**
 * The shared runtime chunk every element needs: React, twind, i18next, the data client and our
 * element infrastructure. Everything else (listing UI, the map, ...) is split by use.
 */
const RUNTIME =
  /node_modules[\\/](react|react-dom|scheduler|@r2wc|@twind|i18next|@supabase|@preact|use-sync-external-store)[\\/]|widgets[\\/]locales[\\/]|widgets[\\/]lib[\\/](element|attributes|config|define|events|i18n|styles|toast)\.tsx?$|widgets[\\/]lib[\\/]data[\\/]client\.ts$/;

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
      // the outline plugins serve `npm run dev`, where the pages load the elements from source
      plugins: [siteHead(), ecuadorOutline({ asset: false }), olWithoutFlatStyles()],
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
    plugins: [widgetLocales(), ecuadorOutline({ asset: !single }), olWithoutFlatStyles()],
    // assets are found relative to the chunk that needs them (import.meta.url), from any origin
    base: './',
    publicDir: false,
    build: {
      outDir: resolve(here, 'dist/widgets'),
      emptyOutDir: !single,
      sourcemap: true,
      minify: true,
      target: 'es2022',
      reportCompressedSize: false,
      // which chunks each element needs: the site's pages preload them (scripts/site-html.ts)
      manifest: single ? false : 'manifest.json',
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
              assetFileNames: 'chunks/[name]-[hash][extname]',
              codeSplitting: {
                groups: [{ name: 'runtime', test: RUNTIME, priority: 10 }],
              },
            },
      },
    },
  };
});
