/**
 * The folders of widgets/lib import one another one way only (docs/architecture.md, "Repository
 * layout"): no folder imports one that imports it back, directly or through others. A piece two
 * folders draw goes down into a folder both import (ui/), never sideways.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const LIB = resolve(import.meta.dirname, '../widgets/lib');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [path] : [];
  });
}

/** folder -> the folders it imports, each with one import that shows it */
export function folderGraph(root = LIB): Map<string, Map<string, string>> {
  const folderOf = (file: string) => relative(root, file).split('/').slice(0, -1)[0] ?? '.';
  const graph = new Map<string, Map<string, string>>();
  for (const file of sources(root)) {
    for (const m of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)) {
      const target = resolve(dirname(file), m[1] as string);
      if (!target.startsWith(root + '/')) continue;
      const [from, to] = [folderOf(file), folderOf(target)];
      if (from === to) continue;
      if (!graph.has(from)) graph.set(from, new Map());
      graph.get(from)!.set(to, `${relative(root, file)} -> ${relative(root, target)}`);
    }
  }
  return graph;
}

/** Every cycle of folders, each as the imports that make it. */
export function folderCycles(graph: Map<string, Map<string, string>>): string[][] {
  const cycles: string[][] = [];
  const seen = new Set<string>();
  const walk = (start: string, at: string, path: string[], visited: Set<string>) => {
    for (const [next, why] of graph.get(at) ?? []) {
      if (next === start) {
        const key = [...visited].sort().join(',');
        if (!seen.has(key)) {
          seen.add(key);
          cycles.push([...path, why]);
        }
      } else if (!visited.has(next) && next > start) walk(start, next, [...path, why], new Set([...visited, next]));
    }
  };
  for (const folder of graph.keys()) walk(folder, folder, [], new Set([folder]));
  return cycles;
}

describe('the folders of widgets/lib', () => {
  it('import one another one way only: no folder imports one that imports it back', () => {
    expect(folderCycles(folderGraph())).toEqual([]);
  });

  it('the check sees a cycle through a third folder', () => {
    const graph = new Map([
      ['a', new Map([['b', 'a/x -> b/y']])],
      ['b', new Map([['c', 'b/y -> c/z']])],
      ['c', new Map([['a', 'c/z -> a/x']])],
    ]);
    expect(folderCycles(graph)).toEqual([['a/x -> b/y', 'b/y -> c/z', 'c/z -> a/x']]);
  });
});
