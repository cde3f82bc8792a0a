/**
 * Compression by Accept-Encoding: brotli where the client takes it, else gzip. Files are compressed
 * once at the highest level and kept; pages made per request at a level that costs well under a
 * millisecond for a page (brotli 5, gzip 6).
 */
import type { ServerResponse } from 'node:http';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';

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

export function compress(body: Buffer, encoding: Encoding, effort: 'file' | 'page'): Buffer {
  if (encoding === 'br')
    return brotliCompressSync(body, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: effort === 'file' ? 9 : 5, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length },
    });
  return gzipSync(body, { level: effort === 'file' ? 9 : 6 });
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
  const sent = encoding ? compress(raw, encoding, 'page') : raw;
  const out: Record<string, string> = {
    ...headers,
    Vary: headers.Vary ? `${headers.Vary}, Accept-Encoding` : 'Accept-Encoding',
    'Content-Length': String(sent.length),
  };
  if (encoding) out['Content-Encoding'] = encoding;
  res.writeHead(status, out);
  res.end(head ? undefined : sent);
}
