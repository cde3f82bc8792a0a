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

/** The selectors of a rule as twind writes it (one rule a string; an at-rule wraps one rule). */
function selectorsOf(rule: string): string[] {
  const body = rule.lastIndexOf('{');
  const head = rule.slice(rule.lastIndexOf('{', body - 1) + 1, body);
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < head.length; i++) {
    const c = head[i];
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === ',' && depth === 0 && head[i - 1] !== '\\') {
      parts.push(head.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(head.slice(start));
  return parts.map((part) => part.trim()).filter(Boolean);
}

/**
 * Whether a rule of twind's preflight (the base rules before the utilities) can match in the
 * sources' shadow roots: never one for html or body (a shadow root has neither) or for the
 * backdrop's variables (no utility styles a backdrop), nor one whose every selector names a tag
 * the sources never write (`pre`, `table`, `sub`, ...). Rules of classes and at-rules always stay.
 */
export function preflightRuleUsed(rule: string, tags: Set<string>): boolean {
  if (rule.startsWith('@') || /\.[\w\\-]/.test(rule.slice(0, rule.indexOf('{')))) return true;
  return selectorsOf(rule).some((p) => {
    const tag = /^[a-z][a-z0-9-]*/.exec(p)?.[0];
    if (!tag) return !p.startsWith('::backdrop') && !p.startsWith(':-moz');
    return tag !== 'html' && tag !== 'body' && tags.has(tag);
  });
}

/** A rule of twind's preflight that gives variables their defaults on every element and pseudo-element. */
const VARIABLE_DEFAULTS = /^(?:\*,)?::before,::after\{((?:--tw-[\w-]+:[^;}]*;?)+)\}$/;

/**
 * The class a selector's subject carries (`.group[open] .group-open\\:rotate-180` ->
 * `.group-open\\:rotate-180`, `.focus\\:ring-2:focus` -> `.focus\\:ring-2`), or none.
 */
function subjectClass(selector: string): string | undefined {
  const subject = selector.split(/(?<!\\)[\s>+~]+/).at(-1) ?? '';
  return /^[a-z*]*(\.(?:\\.|[\w-])+)/i.exec(subject)?.[1];
}

/**
 * Twind's preflight gives every element, and its ::before and ::after, the defaults of some 35
 * variables its ring, shadow, transform, filter and numeric utilities read
 * (`*,::before,::after{--tw-ring-color:…}`): each element of a shadow root then carries them all,
 * which made a style recalculation of the search slower (docs/benchmarks.md, "Variables where they
 * are read"). Each such rule now applies only to the elements of a class whose rule reads one of its
 * variables (`.ring-2,.focus\\:ring-2{…}`; a pseudo-element's reader, `.after\\:ring::after{…}`),
 * whatever the state the reader waits for (a focus, a hover). The rule stays first, of one class's
 * specificity, so a utility that sets a variable still wins; an element of none of those classes
 * reads none of them, so no value changes (`tests/browser/utility-styles.test.ts` compares). A reader
 * whose subject has no class keeps the rule for every element; a rule no rule reads is dropped.
 */
export function scopeVariableDefaults(rules: readonly string[]): string[] {
  const readersOf = (names: Set<string>) =>
    rules.filter(
      (rule) =>
        !VARIABLE_DEFAULTS.test(rule) && [...rule.matchAll(/var\((--tw-[\w-]+)/g)].some((m) => names.has(m[1]!)),
    );
  return rules.flatMap((rule) => {
    const defaults = VARIABLE_DEFAULTS.exec(rule)?.[1];
    if (!defaults) return [rule];
    const names = new Set([...defaults.matchAll(/(?:^|;)(--tw-[\w-]+):/g)].map((m) => m[1]!));
    const owners = new Set<string>();
    for (const selector of readersOf(names).flatMap(selectorsOf)) {
      const at = selector.indexOf('::');
      const owner = subjectClass(at < 0 ? selector : selector.slice(0, at));
      if (!owner) return [rule];
      owners.add(at < 0 ? owner : `${owner}${selector.slice(at)}`);
    }
    return owners.size ? [`${[...owners].join(',')}{${defaults}}`] : [];
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
  return { css: stringify(scopeVariableDefaults(tw.target.filter((rule) => preflightRuleUsed(rule, tags)))), classes };
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
