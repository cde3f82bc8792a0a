import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants as zlibConstants, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import * as compression from './compress.ts';
import { StaticFiles } from './static.ts';

/** A server of one folder, as the page host makes one for each of its folders. */
async function serve(files: StaticFiles): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    void files.resolve(req.url ?? '/').then((file) => {
      if (file) void files.send(req, res, file);
      else res.writeHead(404).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** The bytes as sent (undici's fetch would decode them: node's http client does not). */
async function raw(url: string, accept: string): Promise<{ encoding: string | null; body: Buffer }> {
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    request(url, { headers: { 'Accept-Encoding': accept } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ encoding: res.headers['content-encoding'] ?? null, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

async function brotli(url: string): Promise<{ encoding: string | null; text: string }> {
  const { encoding, body } = await raw(url, 'br');
  return { encoding, text: (encoding === 'br' ? brotliDecompressSync(body) : body).toString() };
}

describe('StaticFiles: a file compressed once in a process, off the event loop', () => {
  const dir = mkdtempSync(join(tmpdir(), 'exp-static-'));
  const file = join(dir, 'bundle.js');
  const servers: Server[] = [];
  let spy: ReturnType<typeof vi.spyOn>;
  const realCompressFile = compression.compressFile;
  beforeAll(() => {
    spy = vi.spyOn(compression, 'compressFile');
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

  it("a large file's first compression holds no other request, and the requests that ask for it meanwhile share it", async () => {
    // a few megabytes of words (brotli at level 9 takes a good part of a second over them)
    let words = '';
    for (let i = 0; words.length < 6_000_000; i++) words += `${(i * 7919) % 104729} casa${i % 97} `;
    writeFileSync(join(dir, 'large.js'), words);
    writeFileSync(join(dir, 'small.txt'), 'ok');
    const { url, server } = await serve(new StaticFiles(dir));
    servers.push(server);
    let started!: () => void;
    const compressing = new Promise<void>((r) => (started = r));
    spy.mockImplementation((body: Buffer, encoding: compression.Encoding) => {
      const made = realCompressFile(body, encoding);
      started();
      return made;
    });
    const done: string[] = [];
    const large = [brotli(`${url}/large.js`), brotli(`${url}/large.js`)].map((p) =>
      p.then((r) => (done.push('large'), r)),
    );
    await compressing;
    // asked while the large file is being compressed: answered first
    const small = fetch(`${url}/small.txt`).then(async (r) => (done.push('small'), r.text()));
    expect(await small).toBe('ok');
    for (const r of await Promise.all(large)) expect(r).toEqual({ encoding: 'br', text: words });
    expect(done).toEqual(['small', 'large', 'large']);
    expect(spy).toHaveBeenCalledTimes(1);
  }, 60_000);

  it("serves the build's compressed files as they are, and only while they are the file's", async () => {
    const text = `export const words = ${JSON.stringify('casa '.repeat(3000))};\n`;
    const ahead = join(dir, 'ahead.js');
    writeFileSync(ahead, text);
    // what the build writes beside it (scripts/precompress.ts), at levels the server never uses
    const br = brotliCompressSync(text, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } });
    const gz = gzipSync(text, { level: 1 });
    writeFileSync(`${ahead}.br`, br);
    writeFileSync(`${ahead}.gz`, gz);
    const { url, server } = await serve(new StaticFiles(dir));
    servers.push(server);
    expect(await raw(`${url}/ahead.js`, 'br')).toEqual({ encoding: 'br', body: br });
    expect(await raw(`${url}/ahead.js`, 'gzip')).toEqual({ encoding: 'gzip', body: gz });
    expect(spy).not.toHaveBeenCalled();
    // the file rebuilt (the dev server's watch), its compressed files left as they were: not served
    const rebuilt = text.replace('casa', 'hogar');
    writeFileSync(ahead, rebuilt);
    utimesSync(ahead, new Date(), new Date(Date.now() + 5000));
    const again = await raw(`${url}/ahead.js`, 'br');
    expect(again.encoding).toBe('br');
    expect(again.body.equals(br)).toBe(false);
    expect(brotliDecompressSync(again.body).toString()).toBe(rebuilt);
    expect(spy).toHaveBeenCalledTimes(1);
    // one that is not compressed at all (a write cut short) is passed over the same way
    const broken = join(dir, 'broken.js');
    writeFileSync(broken, text);
    writeFileSync(`${broken}.br`, br.subarray(0, br.length - 8));
    expect(await brotli(`${url}/broken.js`)).toEqual({ encoding: 'br', text });
    expect(spy).toHaveBeenCalledTimes(2);
    // nor one that unpacks to more than the file (it is not unpacked past the file's length)
    const longer = join(dir, 'longer.js');
    writeFileSync(longer, text);
    writeFileSync(`${longer}.br`, brotliCompressSync(text.repeat(50)));
    expect(await brotli(`${url}/longer.js`)).toEqual({ encoding: 'br', text });
    expect(spy).toHaveBeenCalledTimes(3);
  });

  it('names each coding of a file with its own ETag, and any of them is a copy still good', async () => {
    writeFileSync(join(dir, 'tagged.js'), `export const t = ${JSON.stringify('etiqueta '.repeat(400))};\n`);
    const { url, server } = await serve(new StaticFiles(dir));
    servers.push(server);
    const { request } = await import('node:http');
    const ask = (headers: Record<string, string>) =>
      new Promise<{ status: number; etag: string; encoding: string | undefined }>((resolve, reject) => {
        request(`${url}/tagged.js`, { headers }, (res) => {
          res.resume();
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              etag: String(res.headers.etag),
              encoding: res.headers['content-encoding'],
            }),
          );
        })
          .on('error', reject)
          .end();
      });
    const plain = await ask({ 'Accept-Encoding': 'identity' });
    const br = await ask({ 'Accept-Encoding': 'br' });
    const gzip = await ask({ 'Accept-Encoding': 'gzip' });
    expect([plain.encoding, br.encoding, gzip.encoding]).toEqual([undefined, 'br', 'gzip']);
    expect(new Set([plain.etag, br.etag, gzip.etag]).size).toBe(3);
    expect(br.etag).toBe(plain.etag.replace(/"$/, '.br"'));
    // revalidated: by its own tag, by another coding's, weakly, in a list, or by `*`
    for (const [match, coding] of [
      [br.etag, 'br'],
      [gzip.etag, 'br'],
      [`W/${plain.etag}`, 'gzip'],
      [`"other", ${gzip.etag}`, 'identity'],
      ['*', 'br'],
    ] as const) {
      const answer = await ask({ 'If-None-Match': match, 'Accept-Encoding': coding });
      expect(answer.status, match).toBe(304);
      // the 304 names what would have been sent
      expect(answer.etag).toBe({ br: br.etag, gzip: gzip.etag, identity: plain.etag }[coding]);
    }
    for (const match of ['"other"', plain.etag.replace(/"$/, 'x"'), plain.etag.slice(0, -2) + '"'])
      expect((await ask({ 'If-None-Match': match, 'Accept-Encoding': 'br' })).status, match).toBe(200);
  });

  it('answers in the coding the client weighs highest (its q-values), brotli first among equals', async () => {
    const text = `export const q = ${JSON.stringify('peso '.repeat(400))};\n`;
    writeFileSync(join(dir, 'weighed.js'), text);
    const { url, server } = await serve(new StaticFiles(dir));
    servers.push(server);
    for (const [accept, coding] of [
      ['gzip, deflate, br', 'br'],
      ['br;q=0, gzip', 'gzip'],
      ['gzip;q=0.5, br;q=0.4', 'gzip'],
      ['br;q=0.1, *;q=0.5', 'gzip'],
      ['*', 'br'],
      ['*;q=0', null],
      ['gzip;q=0', null],
      ['identity', null],
      ['', null],
    ] as const) {
      const answer = await raw(`${url}/weighed.js`, accept);
      expect(answer.encoding, accept).toBe(coding);
      const body =
        coding === 'br' ? brotliDecompressSync(answer.body) : coding === 'gzip' ? gunzipSync(answer.body) : answer.body;
      expect(body.toString(), accept).toBe(text);
    }
  });
});
