/**
 * The elements' utility classes compiled at build time (docs/decisions.md #19): every word of an
 * element's sources (the files it can run, scripts/element-graph.ts) that twind
 * (widgets/lib/twind-config.ts) knows as a class becomes CSS, in one stylesheet per element that its
 * shadow roots adopt (`import utilities from 'virtual:exp-utilities/<element>'` in its registration
 * file). No class is built from pieces at run time in our code, so every class an element can show
 * is a whole word of its sources. Words that are not classes make no CSS.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify, twind, virtual } from '@twind/core';
import type { Plugin } from 'vite';
import { twindConfig } from '../widgets/lib/twind-config.ts';
import { unitFiles, unitModules, WIDGETS } from './element-graph.ts';

/** The elements' source files below `dir` (tests and locale files left out). */
export function sources(dir: string): string[] {
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
  for (const word of code.split(/[\s'"`]+/))
    if (/^!?-?[a-z@[]/.test(word) && word.length <= 120 && !word.includes('${')) words.add(word);
  return words;
}

/** The HTML tags the sources write (`<button`, `createElement('canvas')`). */
export function tagsIn(text: string): Set<string> {
  const tags = new Set<string>();
  for (const m of text.matchAll(/<([a-z][a-z0-9]*)[\s>/]|createElement\(\s*['"]([a-z][a-z0-9]*)['"]/g))
    tags.add((m[1] ?? m[2]) as string);
  return tags;
}

/**
 * Whether a rule of twind's preflight (the base rules before the utilities) can match in the
 * sources' shadow roots: never one for html or body (a shadow root has neither) or for the
 * backdrop's variables (no utility styles a backdrop), nor one whose every selector names a tag
 * the sources never write (`pre`, `table`, `sub`, ...). Rules of classes and at-rules always stay.
 */
export function preflightRuleUsed(rule: string, tags: Set<string>): boolean {
  const selector = rule.slice(0, rule.indexOf('{')).trim();
  if (selector.startsWith('@') || /\.[\w\\-]/.test(selector)) return true;
  return selector.split(',').some((part) => {
    const p = part.trim();
    const tag = /^[a-z][a-z0-9-]*/.exec(p)?.[0];
    if (!tag) return !p.startsWith('::backdrop') && !p.startsWith(':-moz');
    return tag !== 'html' && tag !== 'body' && tags.has(tag);
  });
}

/** The CSS of every class the given sources use (all widgets by default; twind's preflight first), as twind wrote it at run time. */
export function compileWidgetCss(files: string[] = sources(WIDGETS)): { css: string; classes: number } {
  const words = new Set<string>();
  const tags = new Set<string>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const w of candidateClasses(text)) words.add(w);
    for (const t of tagsIn(text)) tags.add(t);
  }
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
  return { css: stringify(tw.target.filter((rule) => preflightRuleUsed(rule, tags))), classes };
}

const PREFIX = 'virtual:exp-utilities/';

/**
 * The utilities of one element: the classes of the files it runs, the parts it loads later
 * included (one sheet per shadow root, in twind's order: scripts/element-graph.ts).
 */
export function elementCss(name: string): string {
  if (name.startsWith('lazy/')) throw new Error(`${name}: a lazily loaded part has its element's utilities`);
  return compileWidgetCss(unitFiles(name)).css;
}

/** `import css from 'virtual:exp-utilities/<element>'`: that element's utilities (passed to defineElement); recompiled when a widget changes in dev. */
export function widgetStyles(): Plugin {
  return unitModules('exp-widget-styles', PREFIX, elementCss);
}
