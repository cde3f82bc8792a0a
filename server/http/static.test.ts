import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import * as compression from './compress.ts';
import { StaticFiles } from './static.ts';

/** A server of one folder, as the page host makes one for each of its folders. */
async function serve(files: StaticFiles): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    void files.resolve(req.url ?? '/').then((file) => (file ? files.send(req, res, file) : res.writeHead(404).end()));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

async function brotli(url: string): Promise<{ encoding: string | null; text: string }> {
  // undici's fetch would decode it: node's http client gives the bytes as sent
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    request(url, { headers: { 'Accept-Encoding': 'br' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const encoding = res.headers['content-encoding'] ?? null;
        resolve({ encoding, text: (encoding === 'br' ? brotliDecompressSync(body) : body).toString() });
      });
    })
      .on('error', reject)
      .end();
  });
}

describe('StaticFiles: a file compressed once in a process', () => {
  const dir = mkdtempSync(join(tmpdir(), 'exp-static-'));
  const file = join(dir, 'bundle.js');
  const servers: Server[] = [];
  let spy: ReturnType<typeof vi.spyOn>;
  beforeAll(() => {
    spy = vi.spyOn(compression, 'compress');
  });
  afterEach(() => spy.mockClear());
  afterAll(() => {
    spy.mockRestore();
    for (const server of servers) server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('two servers of the same folder (a test worker starts many) compress a file once, and again when it changes', async () => {
    const first = `export const words = ${JSON.stringify('palabra '.repeat(4000))};\n`;
    writeFileSync(file, first);
    const a = await serve(new StaticFiles(dir));
    const b = await serve(new StaticFiles(dir));
    servers.push(a.server, b.server);
    for (const { url } of [a, b, a]) expect(await brotli(`${url}/bundle.js`)).toEqual({ encoding: 'br', text: first });
    expect(spy).toHaveBeenCalledTimes(1);
    // the file rebuilt: its new size and time, read and compressed again
    const second = first.replace('palabra', 'word');
    writeFileSync(file, second);
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    for (const { url } of [b, a]) expect(await brotli(`${url}/bundle.js`)).toEqual({ encoding: 'br', text: second });
    expect(spy).toHaveBeenCalledTimes(2);
  });
});
