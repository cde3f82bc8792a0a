/**
 * Compression by Accept-Encoding: brotli where the client takes it, else gzip. The build compresses
 * the bundle's and the site's files ahead, at the highest levels (brotli 11, gzip 9: `compressAhead`,
 * scripts/precompress.ts), into files beside them (`x.js.br`, `x.js.gz`), which the server takes
 * once it has checked that they unpack to the file (`precompressed`); a file without one is
 * compressed once at brotli 9 or gzip 9 in libuv's threads and kept (server/http/static.ts); pages
 * made per request on the event loop, at a level that costs well under a millisecond for a page
 * (brotli 5, gzip 6). docs/architecture.md, "Deadlines and fair shares".
 */
import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import {
  brotliCompress,
  brotliCompressSync,
  brotliDecompress,
  constants as zlib,
  gunzip,
  gzip,
  gzipSync,
} from 'node:zlib';

export type Encoding = 'br' | 'gzip';

const COMPRESSIBLE = /^(text\/|application\/(json|xml|([\w.-]+\+)?json)|image\/svg)/;
const MIN_BYTES = 512;

/** Whether a body of this type and size is worth compressing. */
export const worthCompressing = (type: string, bytes: number): boolean => COMPRESSIBLE.test(type) && bytes > MIN_BYTES;

/** The encoding to answer with, or null: a compressible type, a body worth it, a client that takes it. */
export function chooseEncoding(
  acceptEncoding: string | string[] | undefined,
  type: string,
  bytes: number,
): Encoding | null {
  if (!worthCompressing(type, bytes)) return null;
  const accept = String(acceptEncoding ?? '');
  if (/\bbr\b/.test(accept)) return 'br';
  if (/\bgzip\b/.test(accept)) return 'gzip';
  return null;
}

const brotliOptions = (body: Buffer, quality: number) => ({
  params: { [zlib.BROTLI_PARAM_QUALITY]: quality, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length },
});

/** A page made per request: on the event loop, at a level that costs well under a millisecond. */
export function compress(body: Buffer, encoding: Encoding): Buffer {
  return encoding === 'br' ? brotliCompressSync(body, brotliOptions(body, 5)) : gzipSync(body, { level: 6 });
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * A file, once, at the highest levels worth it: in libuv's threads, since brotli 9 over the runtime
 * chunk takes a tenth of a second and a fresh process compresses every file its first visitors ask
 * for, which on the event loop held every other request meanwhile.
 */
export function compressFile(body: Buffer, encoding: Encoding): Promise<Buffer> {
  return encoding === 'br' ? brotliAsync(body, brotliOptions(body, 9)) : gzipAsync(body, { level: 9 });
}

/** Where the build puts a file's compressed bytes: beside it, by the encoding's usual suffix. */
export const PRECOMPRESSED_SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz' };

/** A file compressed by the build, at the highest levels (time spent once, not by a visitor). */
export function compressAhead(body: Buffer, encoding: Encoding): Promise<Buffer> {
  return encoding === 'br' ? brotliAsync(body, brotliOptions(body, 11)) : gzipAsync(body, { level: 9 });
}

const unbrotli = promisify(brotliDecompress);
const gunzipAsync = promisify(gunzip);

/**
 * The compressed bytes the build left beside a file, or undefined: none, unreadable, or not this
 * file's (a file rebuilt since, as the dev server's watch does, or a write cut short). Unpacked and
 * compared before they are served (in libuv's threads: a few milliseconds over the whole bundle,
 * where compressing it takes seconds).
 */
export async function precompressed(file: string, body: Buffer, encoding: Encoding): Promise<Buffer | undefined> {
  try {
    const bytes = await readFile(file + PRECOMPRESSED_SUFFIX[encoding]);
    // never unpacked past the file's own length (bytes that would are not its bytes)
    const limit = { maxOutputLength: body.length + 1 };
    const unpacked = await (encoding === 'br' ? unbrotli(bytes, limit) : gunzipAsync(bytes, limit));
    return unpacked.equals(body) ? bytes : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Writes a made-per-request answer (an API's JSON, a page), compressed when the request allows it
 * (`res.req`'s Accept-Encoding), with its length and `Vary: Accept-Encoding`. HEAD gets the headers only.
 */
export function sendCompressed(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: string | Buffer,
  head = false,
): void {
  const raw = typeof body === 'string' ? Buffer.from(body) : body;
  const type = headers['Content-Type'] ?? headers['content-type'] ?? '';
  const encoding = chooseEncoding(res.req?.headers['accept-encoding'], type, raw.length);
  const sent = encoding ? compress(raw, encoding) : raw;
  const out: Record<string, string> = {
    ...headers,
    Vary: headers.Vary ? `${headers.Vary}, Accept-Encoding` : 'Accept-Encoding',
    'Content-Length': String(sent.length),
  };
  if (encoding) out['Content-Encoding'] = encoding;
  res.writeHead(status, out);
  res.end(head ? undefined : sent);
}
