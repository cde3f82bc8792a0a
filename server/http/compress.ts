/**
 * Compression by Accept-Encoding: brotli where the client takes it, else gzip. Files are compressed
 * once at the highest level and kept; pages made per request at a level that costs well under a
 * millisecond for a page (brotli 5, gzip 6).
 */
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';

export type Encoding = 'br' | 'gzip';

export const COMPRESSIBLE = /^(text\/|application\/(json|xml|geo\+json)|image\/svg)/;
const MIN_BYTES = 512;

/** The encoding to answer with, or null: a compressible type, a body worth it, a client that takes it. */
export function chooseEncoding(acceptEncoding: string | string[] | undefined, type: string, bytes: number): Encoding | null {
  if (!COMPRESSIBLE.test(type) || bytes <= MIN_BYTES) return null;
  const accept = String(acceptEncoding ?? '');
  if (/\bbr\b/.test(accept)) return 'br';
  if (/\bgzip\b/.test(accept)) return 'gzip';
  return null;
}

export function compress(body: Buffer, encoding: Encoding, effort: 'file' | 'page'): Buffer {
  if (encoding === 'br') return brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: effort === 'file' ? 9 : 5, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } });
  return gzipSync(body, { level: effort === 'file' ? 9 : 6 });
}
