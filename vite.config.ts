import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig, type Plugin, type UserConfig } from 'vite';
import { ecuadorOutline } from './scripts/ecuador-outline.ts';
import { finishedCode } from './scripts/finished-code.ts';
import { olTrim } from './scripts/ol-trim.ts';
import { i18nextTrim } from './scripts/i18next-trim.ts';
import { inlineSiteCss, siteHead } from './scripts/site-html.ts';
import { widgetStyles } from './scripts/widget-styles.ts';
import { widgetTexts } from './scripts/widget-texts.ts';

const here = import.meta.dirname;

/**
 * The shared runtime chunk every element needs: React, the translation engine, the data client, the shared English texts and our
 * element infrastructure, with the two pieces most forms draw (a field, a select's options), the one clock (core/clock.ts), the lazy loader, the
 * main-thread yield, the site's links (and its routes with them), the visit intent, the reading of a page's answer and four small icons, each
 * smaller than a chunk's own cost
 * (the search page 1.9 KB lighter with them here, the directory page 0.8 KB heavier: tests/support/weight.ts).
 * Everything else (each element's utilities and texts, listing UI, the map, ...) is split by use.
 */
const RUNTIME =
  /node_modules[\\/](react|react-dom|scheduler|@r2wc|@supabase[\\/]postgrest-js|@preact|use-sync-external-store)[\\/]|widgets[\\/]lib[\\/](element|attributes|config|define|events|i18n|styles|toast|lazy-chunk|main-thread|page-answer|ui[\\/]form-field|ui[\\/]select-field|ui[\\/]options|site-links|visits[\\/]intent|ui[\\/]icons[\\/](icon|search|pin|heart))\.tsx?$|widgets[\\/]lib[\\/]data[\\/](client|text)\.ts$|core[\\/]protocol[\\/](format|text|safe-urls)\.ts$|core[\\/](translate|lang|clock)\.ts$|virtual:exp-texts\/base$|exp-use-sync-external-store$/;

/**
 * The location box and its suggestions, which the search and the valuation load: one chunk, not
 * one each (each file costs its own request and its own compression).
 */
const SHARED = /widgets[\\/]lib[\\/](location-box[\\/]|data[\\/]places\.ts$)/;

/**
 * What every view of a listing draws (the detail, the map's popup, the cards, saved and recently
 * viewed): the photos' carousel and placeholder, the heart and the saved store, the open-house and
 * price-cut badges, the dialog's loader and the listing's reading. Left to rolldown they were seven
 * chunks, each for a slightly different set of elements; one chunk costs the search page 1.7 KB gzip
 * less (tests/support/weight.ts), and an element that draws only some of them downloads the rest too
 * (the map alone: the carousel). The card itself stays out: the listing's page does not draw one.
 */
const LISTING_UI =
  /widgets[\\/]lib[\\/](listing[\\/](carousel|lazy-property-dialog)|ui[\\/](placeholder|photo|open-house|price-cut|icons[\\/](chevron-left|chevron-right|expand))|saved[\\/](save-button|store)|data[\\/]listing-events)\.tsx?$|core[\\/]protocol[\\/](photos|visit-time|open-houses|places|listing)\.ts$/;

/**
 * The filters' table and the drawn area's reading it validates (the search, its map and the
 * drawing tool read both): one chunk. Left to rolldown, the area became a chunk of its own once the
 * elements' Spanish texts were chunks of their own (scripts/widget-texts.ts), 0.2 KB more to fetch.
 */
const FILTERS = /core[\\/]protocol[\\/](filters|polygon|place-path)\.ts$/;

/**
 * OpenLayers and our maps' base (widgets/lib/map/map-base.ts, map-styles.ts, marks-layer.ts), in
 * chunks by which of the maps' chunks use them (`entriesAware`): the search's map (ol-map.ts) and a
 * listing's (ol-location.ts) share the map, the view, the tiles and our marks; the browser's clusters
 * (ol-cluster.ts) and drawing an area (ol-draw.ts) also share OpenLayers' vector stack (features,
 * styles, their rendering), which our maps draw without (marks-layer.ts), so that neither the
 * search page nor a listing's downloads it (about 30 KB gzip) until a visitor clusters or draws.
 * Left to rolldown, what the maps share would be in more, less compressible pieces. `minShareCount:
 * 2` leaves a module that one chunk alone imports in that chunk (ol/source/Cluster.js and ol-ext;
 * Draw and Modify; the search map's ol/Overlay.js). The chunks are named by what loads them
 * (`openLayersChunk`), not by rolldown's list of the entries that share them.
 */
const OPENLAYERS = /node_modules[\\/]ol[\\/]|widgets[\\/]lib[\\/]map[\\/](map-base|map-styles|marks-layer)\.ts$/;

/** An OpenLayers chunk's name: `openlayers` where a map's chunk loads it, `openlayers-vector` where only clustering or drawing does. */
function openLayersChunk(name: string): string {
  return /~ol-(map|location)\b/.test(name) ? 'openlayers' : 'openlayers-vector';
}

/**
 * @preact/signals-react reaches React's useSyncExternalStore through the `use-sync-external-store`
 * shim (for React before 18); React 19 has it, so the shim's wrapper is left out of the runtime.
 */
function syncExternalStoreFromReact(): Plugin {
  const id = '\0exp-use-sync-external-store';
  return {
    name: 'exp-use-sync-external-store',
    enforce: 'pre',
    resolveId: (source) => (/^use-sync-external-store\/shim(\/index\.js)?$/.test(source) ? id : undefined),
    load: (resolved) => (resolved === id ? "export { useSyncExternalStore } from 'react';" : undefined),
  };
}

/** The demos' hosts' own scripts: their event log, and the hostile demo's own libraries (another React, another i18next). */
function hostLibraries(): Plugin {
  const files = {
    'event-log.js': 'demo/event-log.js',
    'vendor/react.production.min.js': 'demo/node_modules/react/umd/react.production.min.js',
    'vendor/react-dom.production.min.js': 'demo/node_modules/react-dom/umd/react-dom.production.min.js',
    'vendor/i18next.min.js': 'demo/node_modules/i18next/dist/umd/i18next.min.js',
  };
  return {
    name: 'exp-demo-host-libraries',
    generateBundle() {
      for (const [fileName, from] of Object.entries(files))
        this.emitFile({ type: 'asset', fileName, source: readFileSync(resolve(here, from)) });
    },
  };
}

const common: UserConfig = {
  define: { 'process.env.NODE_ENV': '"production"' },
  oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
  logLevel: 'warn',
};

/**
 * Builds, selected by mode:
 *  - widgets: dist/widgets/exp-widgets.js, the tiny autoloader, with hashed chunks beside it
 *  - bundle:  dist/widgets/exp-widgets.bundle.js, every element in one self-contained file
 *  - test-widgets: dist/test-widgets, the widgets with the test hooks (import.meta.env.EXP_TEST_HOOKS)
 *    the browser tests and the map benchmark reach the map with; never served to visitors
 *  - site:    dist/site, the host site's plain pages as a multi-page build
 */
export default defineConfig(({ mode }): UserConfig => {
  if (mode === 'demo') {
    const pages = readdirSync(resolve(here, 'demo')).filter((f) => f.endsWith('.html'));
    return {
      ...common,
      plugins: [hostLibraries()],
      root: resolve(here, 'demo'),
      publicDir: false,
      base: '/demo/',
      build: {
        outDir: resolve(here, 'dist/site/demo'),
        emptyOutDir: true,
        target: 'es2022',
        rolldownOptions: {
          input: Object.fromEntries(pages.map((p) => [p.replace(/\.html$/, ''), resolve(here, 'demo', p)])),
        },
      },
    };
  }
  if (mode === 'site') {
    const pages = readdirSync(resolve(here, 'site')).filter((f) => f.endsWith('.html'));
    return {
      ...common,
      // the outline plugins serve `npm run dev`, where the pages load the elements from source
      plugins: [
        siteHead(),
        inlineSiteCss(),
        widgetStyles(),
        widgetTexts(),
        ecuadorOutline({ asset: false }),
        olTrim(),
        i18nextTrim(),
      ],
      root: resolve(here, 'site'),
      publicDir: resolve(here, 'site/public'),
      base: '/',
      build: {
        outDir: resolve(here, 'dist/site'),
        emptyOutDir: true,
        // no polyfill of <link rel="modulepreload"> in the page script: every browser the site serves
        // has had it since 2023 (Safari 17, Firefox 115), and without it a preload is only a hint
        // left out; the polyfill weighed 0.1 KB gzip on every page (docs/benchmarks.md, "Weight")
        modulePreload: { polyfill: false },
        sourcemap: true,
        target: 'es2022',
        rolldownOptions: {
          input: Object.fromEntries(pages.map((p) => [p.replace(/\.html$/, ''), resolve(here, 'site', p)])),
        },
      },
    };
  }
  const single = mode === 'bundle';
  const testHooks = mode === 'test-widgets';
  return {
    ...common,
    define: { ...common.define, 'import.meta.env.EXP_TEST_HOOKS': JSON.stringify(testHooks) },
    plugins: [
      syncExternalStoreFromReact(),
      widgetStyles(),
      widgetTexts(),
      ecuadorOutline({ asset: !single }),
      olTrim(),
      i18nextTrim(),
      finishedCode(),
    ],
    // assets are found relative to the chunk that needs them (import.meta.url), from any origin
    base: './',
    publicDir: false,
    build: {
      outDir: resolve(here, testHooks ? 'dist/test-widgets' : 'dist/widgets'),
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
              // the elements' texts in Spanish (scripts/widget-texts.ts) named for what they are
              chunkFileNames: (chunk) =>
                chunk.facadeModuleId?.includes('virtual:exp-texts-es/')
                  ? 'chunks/es-[name]-[hash].js'
                  : chunk.name.startsWith('openlayers~')
                    ? `chunks/${openLayersChunk(chunk.name)}-[hash].js`
                    : 'chunks/[name]-[hash].js',
              assetFileNames: 'chunks/[name]-[hash][extname]',
              codeSplitting: {
                groups: [
                  { name: 'runtime', test: RUNTIME, priority: 10 },
                  { name: 'openlayers', test: OPENLAYERS, minShareCount: 2, entriesAware: true },
                  { name: 'shared', test: SHARED, minShareCount: 2 },
                  { name: 'listing-ui', test: LISTING_UI, minShareCount: 2 },
                  { name: 'filters', test: FILTERS, minShareCount: 2 },
                ],
              },
            },
      },
    },
  };
});
