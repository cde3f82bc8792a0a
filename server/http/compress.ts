/**
 * Compression by Accept-Encoding: brotli where the client takes it, else gzip. Files are compressed
 * once at a high level (brotli 9, gzip 9) in libuv's threads and kept (server/http/static.ts); pages
 * made per request on the event loop, at a level that costs well under a millisecond for a page
 * (brotli 5, gzip 6).
 */
import type { ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants as zlib, gzip, gzipSync } from 'node:zlib';

export type Encoding = 'br' | 'gzip';

const COMPRESSIBLE = /^(text\/|application\/(json|xml|([\w.-]+\+)?json)|image\/svg)/;
const MIN_BYTES = 512;

/** The encoding to answer with, or null: a compressible type, a body worth it, a client that takes it. */
export function chooseEncoding(
  acceptEncoding: string | string[] | undefined,
  type: string,
  bytes: number,
): Encoding | null {
  if (!COMPRESSIBLE.test(type) || bytes <= MIN_BYTES) return null;
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
