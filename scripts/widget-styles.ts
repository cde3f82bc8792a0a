/**
 * The elements' utility classes compiled at build time (docs/decisions.md #19): every word of the
 * widgets' sources that twind (widgets/lib/twind-config.ts) knows as a class becomes CSS, in one
 * stylesheet the elements adopt (widgets/lib/styles.ts imports it as `virtual:exp-utilities`). No
 * class is built from pieces at run time in our code, so every class an element can show is a
 * whole word of its source. Words that are not classes make no CSS.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { stringify, twind, virtual } from '@twind/core';
import type { Plugin, ViteDevServer } from 'vite';
import { twindConfig } from '../widgets/lib/twind-config.ts';

const root = resolve(import.meta.dirname, '..');
const WIDGETS = join(root, 'widgets');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'locales' ? [] : sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The words of the sources that can be classes: comments left out, split at spaces and quotes. */
export function candidateClasses(text: string): Set<string> {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/^\s*\/\/.*$/gm, ' ');
  const words = new Set<string>();
  for (const word of code.split(/[\s'"`]+/)) if (/^!?-?[a-z@[]/.test(word) && word.length <= 120 && !word.includes('${')) words.add(word);
  return words;
}

/** The CSS of every class the widgets use (twind's preflight first), as twind wrote it at run time. */
export function compileWidgetCss(): { css: string; classes: number } {
  const words = new Set<string>();
  for (const file of sources(WIDGETS)) for (const w of candidateClasses(readFileSync(file, 'utf8'))) words.add(w);
  const tw = twind(twindConfig, virtual());
  const warn = console.warn;
  const emitWarning = process.emitWarning;
  // words that are not classes are expected: twind would warn for each
  console.warn = () => {};
  process.emitWarning = () => {};
  let classes = 0;
  try {
    for (const word of [...words].sort()) {
      const before = tw.target.length;
      tw(word);
      if (tw.target.length > before) classes++;
    }
  } finally {
    console.warn = warn;
    process.emitWarning = emitWarning;
  }
  return { css: stringify(tw.target), classes };
}

const ID = 'virtual:exp-utilities';
const RESOLVED = `\0${ID}`;

/** `import css from 'virtual:exp-utilities'`: the compiled utilities; recompiled when a widget changes in dev. */
export function widgetStyles(): Plugin {
  let server: ViteDevServer | undefined;
  return {
    name: 'exp-widget-styles',
    resolveId: (id) => (id === ID ? RESOLVED : undefined),
    load(id) {
      if (id !== RESOLVED) return undefined;
      return `export default ${JSON.stringify(compileWidgetCss().css)};`;
    },
    configureServer(dev) {
      server = dev;
    },
    watchChange(id) {
      if (!server || !id.startsWith(WIDGETS) || !/\.tsx?$/.test(id)) return;
      const mod = server.moduleGraph.getModuleById(RESOLVED);
      if (mod) server.moduleGraph.invalidateModule(mod);
    },
  };
}
