/**
 * Nothing is exported that no other file uses (docs/architecture.md, "House rules"): a value
 * a module exports is its interface, so one used only where it is declared stays inside it. Types
 * may be exported for the typings; the widget entry's exports are the bundle's interface.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
/** what the product is made of (tests, benchmarks and the build's scripts may export what they like) */
const PRODUCT = /^(core|server|site|widgets)\//;
const ENTRY = 'widgets/index.ts';

/** Each exported value (function, constant, class) that no other tracked file names. */
export function unusedExports(files: Record<string, string>, product: (file: string) => boolean): string[] {
  const words = new Map<string, Set<string>>();
  for (const [file, text] of Object.entries(files))
    for (const [word] of text.matchAll(/[A-Za-z_$][\w$]*/g))
      (words.get(word) ?? words.set(word, new Set()).get(word)!).add(file);
  const unused: string[] = [];
  for (const [file, text] of Object.entries(files)) {
    if (!product(file)) continue;
    for (const m of text.matchAll(/^export (?:async )?(?:function\*?|const|let|class|enum) ([A-Za-z_$][\w$]*)/gm)) {
      const name = m[1] as string;
      if ([...(words.get(name) ?? [])].some((other) => other !== file)) continue;
      unused.push(`${file}: ${name}`);
    }
  }
  return unused;
}

describe('exports', () => {
  it('finds a value exported and used only where it is declared, and not one another file names', () => {
    const files = {
      'core/a.ts': 'export const used = 1;\nexport function lonely() {}\nexport type Shape = {};\n',
      'server/b.ts': "import { used } from '../core/a.ts';",
    };
    expect(unusedExports(files, (f) => PRODUCT.test(f))).toEqual(['core/a.ts: lonely']);
  });

  it('exports no value of the product that no other file uses', () => {
    const tracked = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
      .split('\n')
      .filter((f) => /\.(tsx?|mjs|js|php|html)$/.test(f) && !f.startsWith('dist-types/') && !f.endsWith('.d.ts'));
    const files = Object.fromEntries(tracked.map((f) => [f, readFileSync(resolve(ROOT, f), 'utf8')]));
    expect(unusedExports(files, (f) => PRODUCT.test(f) && f !== ENTRY && !/\.test\.tsx?$/.test(f))).toEqual([]);
  });
});
