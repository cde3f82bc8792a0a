import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { chooseEncoding, codedEtag, compressFile, ifNoneMatchHits, precompressed, type Encoding } from './compress.ts';
import { LRUCache } from 'lru-cache';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.woff2': 'font/woff2',
  '.geojson': 'application/geo+json',
  '.eml': 'message/rfc822',
};

/** The Content-Type a file is served with (by its extension). */
export const contentType = (file: string): string => TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';

interface CachedFile {
  mtimeMs: number;
  size: number;
  body: Buffer;
  etag: string;
  gzip?: Buffer;
  br?: Buffer;
  /** a compression under way: the requests that ask meanwhile wait for the same one */
  pending?: Partial<Record<Encoding, Promise<Buffer>>>;
}

/**
 * The files every StaticFiles of the process has read, by their path, with what they were compressed
 * to: one memory for all the folders a server serves (eight of them: one bound where each had its
 * own), and a file compressed once in a process however many servers it starts (the tests start
 * many). Bounded by bytes (the videos are large), like every memory of the server (lru-cache,
 * docs/decisions.md #24).
 */
const FILES = new LRUCache<string, CachedFile>({
  max: 4000,
  maxSize: 160 * 1024 * 1024,
  sizeCalculation: (f) => Math.max(1, f.body.length + (f.gzip?.length ?? 0) + (f.br?.length ?? 0)),
});

/** The files being read, by path and version. */
const READING = new Map<string, Promise<CachedFile>>();

async function readEntry(file: string, info: { mtimeMs: number; size: number }): Promise<CachedFile> {
  const body = await readFile(file);
  const entry: CachedFile = {
    mtimeMs: info.mtimeMs,
    size: info.size,
    body,
    etag: `"${createHash('sha1').update(body).digest('base64url').slice(0, 20)}"`,
  };
  FILES.set(file, entry);
  return entry;
}

/**
 * A file's compressed bytes: the build's, when they are this file's, else made once however many
 * requests ask while it is made.
 */
async function compressedOnce(file: string, entry: CachedFile, encoding: Encoding): Promise<Buffer> {
  const pending = (entry.pending ??= {});
  const made = (pending[encoding] ??= precompressed(file, entry.body, encoding).then(
    (ahead) => ahead ?? compressFile(entry.body, encoding),
  ));
  try {
    const bytes = await made;
    if (!entry[encoding]) {
      entry[encoding] = bytes;
      // counted again with what it now holds (the entry is the same file's while its mtime and size are)
      if (FILES.get(file) === entry) FILES.set(file, entry);
    }
    return bytes;
  } finally {
    delete pending[encoding];
  }
}

/**
 * Serves files from a directory with ETags, 304s, gzip/brotli (compressed once, kept in memory)
 * and Range for media. Paths never leave the directory.
 */
export class StaticFiles {
  constructor(readonly root: string) {}

  /** The file for a URL path inside root, or undefined (missing, a directory, or outside). */
  async resolve(urlPath: string): Promise<string | undefined> {
    let decoded: string;
    try {
      decoded = decodeURIComponent(urlPath);
    } catch {
      return undefined;
    }
    if (decoded.includes('\0')) return undefined;
    const file = normalize(join(this.root, decoded));
    if (file !== this.root && !file.startsWith(this.root + sep)) return undefined;
    try {
      const info = await stat(file);
      return info.isFile() ? file : undefined;
    } catch {
      return undefined;
    }
  }

  private async load(file: string): Promise<CachedFile> {
    const info = await stat(file);
    const hit = FILES.get(file);
    if (hit && hit.mtimeMs === info.mtimeMs && hit.size === info.size) return hit;
    // requests that ask for the same version of a file while it is read get one entry (and so one compression)
    const key = `${file}\0${info.mtimeMs}\0${info.size}`;
    let reading = READING.get(key);
    if (!reading) {
      reading = readEntry(file, info).finally(() => READING.delete(key));
      READING.set(key, reading);
    }
    return reading;
  }

  async send(
    req: IncomingMessage,
    res: ServerResponse,
    file: string,
    headers: Record<string, string> = {},
    status = 200,
  ): Promise<void> {
    const entry = await this.load(file);
    const type = contentType(file);
    let body = entry.body;
    const encoding = chooseEncoding(req.headers['accept-encoding'], type, body.length);
    res.setHeader('Content-Type', type);
    res.setHeader('ETag', codedEtag(entry.etag, encoding));
    res.setHeader('Vary', 'Accept-Encoding');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
    if (status === 200 && ifNoneMatchHits(req.headers['if-none-match'], entry.etag)) {
      res.statusCode = 304;
      res.end();
      return;
    }
    if (encoding) {
      body = entry[encoding] ?? (await compressedOnce(file, entry, encoding));
      res.setHeader('Content-Encoding', encoding);
    } else if (status === 200 && /^(video|audio)\//.test(type)) {
      res.setHeader('Accept-Ranges', 'bytes');
      const range = /^bytes=(\d*)-(\d*)$/.exec(String(req.headers.range ?? ''));
      if (range && (range[1] || range[2])) {
        const total = body.length;
        let start = range[1] ? Number(range[1]) : total - Number(range[2]);
        let end = range[1] && range[2] ? Number(range[2]) : total - 1;
        start = Math.max(0, start);
        end = Math.min(end, total - 1);
        if (start > end) {
          res.statusCode = 416;
          res.setHeader('Content-Range', `bytes */${total}`);
          res.end();
          return;
        }
        res.statusCode = 206;
        res.setHeader('Content-Range', `bytes ${start}-${end}/${total}`);
        body = body.subarray(start, end + 1);
        status = 206;
      }
    }
    res.statusCode = status;
    res.setHeader('Content-Length', String(body.length));
    res.end(req.method === 'HEAD' ? undefined : body);
  }
}
