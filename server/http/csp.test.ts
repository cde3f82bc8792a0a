/**
 * The inline code the pages may run (server/http/csp.ts ourInlineCode): read from the built pages,
 * and read again when a build changed them, but not at every page.
 */
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ourInlineCode, pagePolicy } from './csp.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function site(script: string, when: number): string {
  const dir = dirs.at(-1) ?? mkdtempSync(join(tmpdir(), 'exp-csp-'));
  if (!dirs.includes(dir)) dirs.push(dir);
  const page = join(dir, 'index.html');
  writeFileSync(page, `<!doctype html><script>${script}</script>`);
  utimesSync(page, when, when);
  return dir;
}

/** Whether a page with this inline script may run it under the policy made from `inline`. */
const runs = (script: string, inline: ReturnType<typeof ourInlineCode>) =>
  pagePolicy(`<script>${script}</script>`, { connect: [], scripts: [], inline }).includes("'sha256-");

describe('the inline code of the built pages', () => {
  it('is read once, looked at again only after its interval, and then a rebuilt page counts', () => {
    const dir = site('first()', 1_000);
    const before = ourInlineCode(dir);
    expect(runs('first()', before)).toBe(true);
    expect(runs('second()', before)).toBe(false);
    // a build rewrites the page: within the interval the folder is not looked at
    site('second()', 2_000);
    expect(ourInlineCode(dir, { recheckMs: 60_000 })).toBe(before);
    // past it, the folder is read again, and the page as it now is counts
    const after = ourInlineCode(dir, { recheckMs: 0 });
    expect(runs('second()', after)).toBe(true);
    expect(runs('first()', after)).toBe(false);
    // nothing changed since: the same answer
    expect(ourInlineCode(dir, { recheckMs: 0 })).toBe(after);
  });
});
