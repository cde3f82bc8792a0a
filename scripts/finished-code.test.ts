/**
 * The finished code leaves out the minifier's `@__PURE__` marks (scripts/finished-code.ts): after
 * they served (a pure call nobody uses is still dropped), with the licences kept and the source map
 * still pointing at the source; and no chunk of the build the suites run against carries one.
 */
import { TraceMap, originalPositionFor } from '@jridgewell/trace-mapping';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { rolldown } from 'rolldown';
import { afterAll, describe, expect, it } from 'vitest';
import { finishedCode } from './finished-code.ts';

const dir = mkdtempSync(join(tmpdir(), 'finished-code-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** where `needle` is in `code`, as a source map counts (1-based line, 0-based column) */
const positionOf = (code: string, needle: string) => {
  const before = code.slice(0, code.indexOf(needle)).split('\n');
  return { line: before.length, column: (before.at(-1) ?? '').length };
};

describe('the finished code', () => {
  it('drops the marks after they served, keeps the licences, and its source map still finds the source', async () => {
    writeFileSync(
      join(dir, 'make.js'),
      '/*! @license Make 1.0, MIT */\nexport function make(tag, props) {\n  return { tag, props, made: globalThis.count++ };\n}\n',
    );
    const source = [
      "import { make } from './make.js';",
      "const unused = /* @__PURE__ */ make('p', {});",
      'export function card(title) {',
      "  return /* @__PURE__ */ make('article', { children: /* @__PURE__ */ make('h2', { title: 'card-title:' + title }) });",
      '}',
      '',
    ];
    writeFileSync(join(dir, 'main.js'), source.join('\n'));
    const bundle = await rolldown({ input: join(dir, 'main.js'), plugins: [finishedCode()] });
    const { output } = await bundle.generate({ format: 'es', minify: true, sourcemap: true });
    await bundle.close();
    const [chunk] = output;
    expect(chunk?.type).toBe('chunk');
    const code = chunk?.type === 'chunk' ? chunk.code : '';
    expect(code).not.toContain('@__PURE__');
    expect(code).toContain('@license Make 1.0, MIT');
    // the unused call was dropped by its mark before the mark went
    expect(code).not.toMatch(/[`'"]p[`'"]/);
    expect(code).toMatch(/[`'"]article[`'"]/);
    const map = new TraceMap(JSON.parse(String(chunk?.type === 'chunk' ? chunk.map?.toString() : '{}')));
    // (the string comes after two marks in the minified code, 32 characters that are no longer there)
    const found = originalPositionFor(map, positionOf(code, 'card-title:'));
    expect([found.source?.endsWith('main.js'), found.line, found.column]).toEqual([
      true,
      4,
      source[3]?.indexOf("'card-title:'"),
    ]);
  });

  it('leaves no mark in any chunk the build made', () => {
    const chunks = resolve(import.meta.dirname, '../dist/widgets/chunks');
    const files = readdirSync(chunks).filter((f) => f.endsWith('.js'));
    expect(files.length).toBeGreaterThan(20);
    expect(files.filter((f) => readFileSync(join(chunks, f), 'utf8').includes('@__PURE__'))).toEqual([]);
    // and the written source map is the composed one: a chunk's text found where it is written
    const ui = files.find((f) => f.startsWith('listing-ui-')) as string;
    const code = readFileSync(join(chunks, ui), 'utf8');
    const map = new TraceMap(JSON.parse(readFileSync(join(chunks, `${ui}.map`), 'utf8')));
    const found = originalPositionFor(map, positionOf(code, '/functions/v1/listing-events'));
    expect(found.source).toMatch(/widgets\/lib\/data\/listing-events\.ts$/);
  });
});
