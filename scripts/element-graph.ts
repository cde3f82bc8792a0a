/**
 * Which of our source files an element runs: its registration file and everything it imports from
 * our own code. The build gives each element the utilities (scripts/widget-styles.ts) and the English
 * texts (scripts/widget-texts.ts) of these files only, so a page downloads what its elements use.
 * A part the element loads later (`import('./property-dialog.tsx')`) brings its own texts
 * (`virtual:exp-texts/lazy/<path>`); its utilities are in the element's sheet, since one shadow root
 * needs one sheet in twind's order (a later sheet repeating `p-4` would undo an earlier `cq-md:p-6`).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Plugin, ViteDevServer } from 'vite';

export const ROOT = resolve(import.meta.dirname, '..');
export const WIDGETS = join(ROOT, 'widgets');

/**
 * The relative imports of a source file that run: `import { x } from './x.ts'`, `import('./y.tsx')`,
 * `import './z.ts'`, `export { w } from './w.ts'`; not `import type` (types do not run).
 */
export function relativeImports(code: string): string[] {
  const found: string[] = [];
  for (const m of code.matchAll(
    /\b(import|export)\s*(type\b)?[^'";]*?\bfrom\s*(['"])(\.{1,2}\/[^'"]+)\3|\bimport\s*\(\s*(['"])(\.{1,2}\/[^'"]+)\5|\bimport\s+(['"])(\.{1,2}\/[^'"]+)\7/g,
  )) {
    if (m[2]) continue;
    found.push((m[4] ?? m[6] ?? m[8]) as string);
  }
  return found;
}

/** The relative `import('...')`s of a source file: the parts it loads later. */
export function lazyImports(code: string): string[] {
  return [...code.matchAll(/\bimport\s*\(\s*(['"])(\.{1,2}\/[^'"]+)\1/g)].map((m) => m[2] as string);
}

/**
 * Every source file reachable from `entry` through relative imports of .ts and .tsx files; with
 * `lazy: false`, not through `import()` (what the entry runs before any part it loads later).
 */
export function reachable(entry: string, options: { lazy?: boolean } = {}): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file) || !existsSync(file)) return;
    seen.add(file);
    const code = readFileSync(file, 'utf8');
    const later = new Set(options.lazy === false ? lazyImports(code) : []);
    for (const spec of relativeImports(code)) {
      if (later.has(spec)) continue;
      const target = resolve(dirname(file), spec.replace(/\?.*$/, ''));
      if (/\.tsx?$/.test(target)) visit(target);
    }
  };
  visit(resolve(entry));
  return [...seen].sort();
}

/**
 * The files of one build unit: an element (`property-search`) or a lazily loaded part
 * (`lazy/lib/listing/property-dialog`); with `lazy: false`, without the parts the unit loads later.
 */
export function unitFiles(name: string, options: { lazy?: boolean } = {}): string[] {
  if (name.startsWith('lazy/')) return reachable(join(WIDGETS, `${name.slice('lazy/'.length)}.tsx`), options);
  return reachable(elementEntry(name), options);
}

/** Whether `virtual:exp-.../<name>` names a unit that exists. */
export function unitExists(name: string): boolean {
  return name.startsWith('lazy/')
    ? existsSync(join(WIDGETS, `${name.slice('lazy/'.length)}.tsx`))
    : elementNames().includes(name);
}

/** The element folders: each has `<name>/<name>.element.ts`. */
export function elementNames(): string[] {
  return readdirSync(WIDGETS, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(WIDGETS, d.name, `${d.name}.element.ts`)))
    .map((d) => d.name)
    .sort();
}

export const elementEntry = (name: string) => join(WIDGETS, name, `${name}.element.ts`);

/** What every element carries in the shared runtime: the element wrapper and what it imports. */
export const runtimeEntry = () => join(WIDGETS, 'lib', 'element.tsx');

/**
 * What a build plugin makes once for the whole process (`npm run build` makes several bundles from
 * the same sources), by key: kept on the global object, since vite loads its config, and the
 * plugins' files with it, anew for each build.
 */
export function keptForProcess<T>(key: string, make: () => T): T {
  const kept = ((globalThis as { expKept?: Map<string, unknown> }).expKept ??= new Map());
  if (!kept.has(key)) kept.set(key, make());
  return kept.get(key) as T;
}

/**
 * A vite plugin for `import x from '<prefix><unit>'`: the unit's value (an element's or a lazily
 * loaded part's utilities, texts), made by `make` at build time, and made again in dev when a widget
 * source changes. `extra` names units beyond the elements and parts (the texts' `base`); `source`
 * writes the module (by default, the value as its default export).
 */
export function unitModules(
  name: string,
  prefix: string,
  make: (unit: string) => unknown,
  extra: string[] = [],
  source: (unit: string, value: unknown) => string = (_, value) => `export default ${JSON.stringify(value)};`,
): Plugin {
  let server: ViteDevServer | undefined;
  return {
    name,
    resolveId(id) {
      if (!id.startsWith(prefix)) return undefined;
      const unit = id.slice(prefix.length);
      if (!extra.includes(unit) && !unitExists(unit))
        throw new Error(
          `${id}: no element widgets/${unit}/${unit}.element.ts or part widgets/${unit.replace(/^lazy\//, '')}.tsx`,
        );
      return `\0${id}`;
    },
    load(id) {
      if (!id.startsWith(`\0${prefix}`)) return undefined;
      const unit = id.slice(prefix.length + 1);
      const module = () => source(unit, make(unit));
      // each unit once per build process (the utilities of all elements take seconds); in dev, anew
      // each time a source changes
      return server ? module() : keptForProcess(`${name}:${unit}`, module);
    },
    configureServer(dev) {
      server = dev;
    },
    watchChange(id) {
      if (!server || !id.startsWith(WIDGETS) || !/\.(tsx?|json)$/.test(id)) return;
      for (const mod of server.moduleGraph.idToModuleMap.values())
        if (mod.id?.startsWith(`\0${prefix}`)) server.moduleGraph.invalidateModule(mod);
    },
  };
}
