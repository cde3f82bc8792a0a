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
import Negotiator from 'negotiator';
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

/** What the server sends, in the order it prefers among those a client weighs alike. */
const CODINGS: readonly string[] = ['br', 'gzip', 'identity'];

const COMPRESSIBLE = /^(text\/|application\/(json|xml|([\w.-]+\+)?json)|image\/svg)/;
const MIN_BYTES = 512;

/** Whether a body of this type may be worth compressing (text, JSON, XML, SVG), whatever its size. */
export const compressibleType = (type: string): boolean => COMPRESSIBLE.test(type);

/** Whether a body of this type and size is worth compressing. */
export const worthCompressing = (type: string, bytes: number): boolean => compressibleType(type) && bytes > MIN_BYTES;

/** The encoding to answer with, or null: a compressible type, a body worth it, a client that takes it. */
export function chooseEncoding(
  acceptEncoding: string | string[] | undefined,
  type: string,
  bytes: number,
): Encoding | null {
  if (!worthCompressing(type, bytes)) return null;
  // the client's q-values (`br;q=0` refuses brotli; `*` names what it does not list), brotli first
  // among equals; identity when it takes neither, or sends no Accept-Encoding
  const chosen = new Negotiator({
    headers: { 'accept-encoding': Array.isArray(acceptEncoding) ? acceptEncoding.join(', ') : acceptEncoding },
  }).encoding(CODINGS, {
    preferred: CODINGS,
  });
  return chosen === 'br' || chosen === 'gzip' ? chosen : null;
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
 * A content coding's usual suffix: where the build puts a file's compressed bytes (beside it), and
 * how an ETag names the coding its body was sent in.
 */
export const CODING_SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz' };

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
    const bytes = await readFile(file + CODING_SUFFIX[encoding]);
    // never unpacked past the file's own length (bytes that would are not its bytes)
    const limit = { maxOutputLength: body.length + 1 };
    const unpacked = await (encoding === 'br' ? unbrotli(bytes, limit) : gunzipAsync(bytes, limit));
    return unpacked.equals(body) ? bytes : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The ETag of a body as sent: its own tag, marked with the content coding it is sent in. A strong
 * validator names one representation (RFC 9110 8.8.3), and a file and its brotli are two: a cache
 * that ranged or stored them by one tag would mix their bytes.
 */
export function codedEtag(etag: string, encoding: Encoding | null): string {
  return encoding ? etag.replace(/"$/, () => `${CODING_SUFFIX[encoding]}"`) : etag;
}

/**
 * Whether a request's If-None-Match names this body, in whatever coding it was sent (RFC 9110
 * 13.1.2: `*`, a list, weak tags compared weakly): then its copy is still good, and the answer is a 304.
 */
export function ifNoneMatchHits(header: string | string[] | undefined, etag: string): boolean {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  if (value.trim() === '*') return true;
  const own = etag.replace(/^W\//, '');
  const names = [own, ...(Object.keys(CODING_SUFFIX) as Encoding[]).map((coding) => codedEtag(own, coding))];
  return [...value.matchAll(/(?:W\/)?("[^"]*")/g)].some(([, tag]) => names.includes(tag as string));
}

/**
 * Writes a made-per-request answer (an API's JSON, a page), compressed when the request allows it
 * (`res.req`'s Accept-Encoding), with its length, `Vary: Accept-Encoding` and its ETag (if it has
 * one) marked with the coding. HEAD gets the headers only.
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
    ...(headers.ETag ? { ETag: codedEtag(headers.ETag, encoding) } : {}),
    Vary: headers.Vary ? `${headers.Vary}, Accept-Encoding` : 'Accept-Encoding',
    'Content-Length': String(sent.length),
  };
  if (encoding) out['Content-Encoding'] = encoding;
  res.writeHead(status, out);
  res.end(head ? undefined : sent);
}
