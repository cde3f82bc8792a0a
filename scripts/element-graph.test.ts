import { describe, expect, it } from 'vitest';
import { elementEntry, elementNames, reachable, relativeImports } from './element-graph.ts';

describe("an element's files (scripts/element-graph.ts)", () => {
  it('follows the imports that run, static and lazy, and not type-only ones', () => {
    const code = `import { a } from './a.ts';
import type { B } from './b.ts';
import './side-effect.ts';
export { c } from '../c.tsx';
export type { D } from './d.ts';
const lazy = () => import('./lazy.tsx');
import { e,
  f } from "./multi-line.ts";
import React from 'react';`;
    expect(relativeImports(code)).toEqual(['./a.ts', './side-effect.ts', '../c.tsx', './lazy.tsx', './multi-line.ts']);
  });

  it('finds every element and what it can run, lazily loaded parts included', () => {
    expect(elementNames()).toEqual(expect.arrayContaining(['agent-directory', 'property-search', 'site-header']));
    const search = reachable(elementEntry('property-search')).map((f) => f.replace(/\\/g, '/'));
    expect(search.some((f) => f.endsWith('widgets/lib/element.tsx'))).toBe(true);
    expect(search.some((f) => f.endsWith('widgets/lib/listing/property-dialog.tsx'))).toBe(true);
    expect(search.some((f) => f.endsWith('widgets/lib/map/ol-map.ts'))).toBe(true);
    const directory = reachable(elementEntry('agent-directory')).map((f) => f.replace(/\\/g, '/'));
    expect(directory.some((f) => f.includes('/map/'))).toBe(false);
  });
});

describe('parts loaded later', () => {
  it('bring their own texts: an element carries only the texts of what it runs at once', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const { dirname, join, relative, resolve } = await import('node:path');
    const { WIDGETS, lazyImports } = await import('./element-graph.ts');
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
        d.isDirectory()
          ? files(join(dir, d.name))
          : /\.tsx?$/.test(d.name) && !d.name.includes('.test.')
            ? [join(dir, d.name)]
            : [],
      );
    const parts = new Set<string>();
    for (const file of files(WIDGETS))
      for (const spec of lazyImports(readFileSync(file, 'utf8')))
        if (spec.endsWith('.tsx')) parts.add(resolve(dirname(file), spec));
    expect(parts.size).toBeGreaterThan(0);
    for (const part of parts) {
      const name = relative(WIDGETS, part)
        .replace(/\\/g, '/')
        .replace(/\.tsx$/, '');
      const code = readFileSync(part, 'utf8');
      expect(code, name).toContain(`virtual:exp-texts/lazy/${name}`);
    }
  });

  it("of an element's own folder carry only what the element lacks: its groups arrive once", async () => {
    const { textsOf } = await import('./widget-texts.ts');
    expect(Object.keys(textsOf('agent-area'))).toContain('agentArea');
    // the team's console names the agents' area's group and nothing the area lacks
    expect(Object.keys(textsOf('lazy/agent-area/team'))).toEqual([]);
    // a part shared by elements (lib/) still carries its own groups
    expect(Object.keys(textsOf('lazy/lib/alerts/alert-dialog')).length).toBeGreaterThan(0);
  });

  it("carry in Spanish what they carry in English, an element's with its own parts' (which then carry none), and never the site's or the e-mails' texts", async () => {
    const { readFileSync } = await import('node:fs');
    const { spanishOf, textsOf } = await import('./widget-texts.ts');
    const es = JSON.parse(readFileSync(new URL('../core/locales/es.json', import.meta.url), 'utf8'));
    const keys = (unit: string) => Object.keys(spanishOf(unit)).sort();
    for (const unit of ['base', ...elementNames(), 'lazy/lib/alerts/alert-dialog']) {
      // (each unit's texts made once: every call walks the unit's files again)
      const spanish = spanishOf(unit);
      const groups = Object.keys(spanish).sort();
      expect(groups, unit).toEqual(expect.arrayContaining(Object.keys(textsOf(unit))));
      expect(groups, unit).not.toContain('site');
      expect(groups, unit).not.toContain('mail');
      for (const group of groups) expect(spanish[group], `${unit}: ${group}`).toEqual(es[group]);
    }
    // the search's "More filters" and chips: their Spanish comes with the search's
    for (const part of ['more-filters', 'filter-chips']) {
      expect(keys(`lazy/property-search/${part}`), part).toEqual([]);
      expect(Object.keys(textsOf(`lazy/property-search/${part}`)).length, part).toBeGreaterThan(0);
      expect(keys('property-search'), part).toEqual(
        expect.arrayContaining(Object.keys(textsOf(`lazy/property-search/${part}`))),
      );
    }
    // a part shared by elements brings its own
    expect(keys('lazy/lib/alerts/alert-dialog')).toEqual(Object.keys(textsOf('lazy/lib/alerts/alert-dialog')).sort());
  });
});
