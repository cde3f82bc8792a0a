import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { precompressTree } from './precompress.ts';

describe('precompressTree: the built files compressed ahead, beside each one', () => {
  const dir = mkdtempSync(join(tmpdir(), 'exp-precompress-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('compresses what a server would compress, and nothing else, and drops what is left of files gone', async () => {
    mkdirSync(join(dir, 'chunks'));
    const code = `export const a = ${JSON.stringify('x'.repeat(4000))};\n`;
    writeFileSync(join(dir, 'chunks', 'a.js'), code);
    writeFileSync(join(dir, 'chunks', 'copy.js'), code);
    writeFileSync(join(dir, 'page.html'), `<!doctype html><p>${'hola '.repeat(500)}</p>`);
    // too small to be worth it, a photo, a source map: as a server leaves them
    writeFileSync(join(dir, 'tiny.js'), 'export {};\n');
    writeFileSync(join(dir, 'photo.webp'), Buffer.alloc(4000, 7));
    writeFileSync(join(dir, 'chunks', 'a.js.map'), JSON.stringify({ mappings: 'A'.repeat(4000) }));
    // what an earlier build left of a chunk since renamed
    writeFileSync(join(dir, 'chunks', 'old.js.br'), 'stale');
    expect(await precompressTree([dir])).toBe(3);
    for (const file of ['chunks/a.js', 'chunks/copy.js', 'page.html']) {
      const body = readFileSync(join(dir, file));
      expect(brotliDecompressSync(readFileSync(join(dir, `${file}.br`))).equals(body)).toBe(true);
      expect(gunzipSync(readFileSync(join(dir, `${file}.gz`))).equals(body)).toBe(true);
    }
    for (const file of ['tiny.js', 'photo.webp', 'chunks/a.js.map'])
      for (const suffix of ['.br', '.gz']) expect(existsSync(join(dir, file + suffix)), file + suffix).toBe(false);
    expect(existsSync(join(dir, 'chunks', 'old.js.br'))).toBe(false);
    // run again (a second build into the same folders): the same files, none compressed twice over
    expect(await precompressTree([dir])).toBe(3);
    expect(existsSync(join(dir, 'chunks', 'a.js.br.br'))).toBe(false);
  });
});
