/**
 * Preview images for link previews and crawlers (og:image): a raster JPEG of 1200x630 under 250 KB
 * made with sharp from a listing's first photo, an agent's portrait or a page's own picture, cached
 * on disk under a name that changes with the source, so its URL can be cached for a year. Link-
 * preview crawlers do not accept SVG, which is what our seed's photos are.
 *
 * Where a source comes from (docs/decisions.md #24): our own media are read from disk, never
 * fetched over the network; anything else only through the safe fetcher (server/http/safe-fetch.ts:
 * the image hosts' list, no private addresses, timeouts, a byte limit while streaming), and it must
 * be an image by its bytes, whatever its Content-Type says. A source that fails is remembered for a
 * while (no fetch and no sharp run for each request of a broken photo) and the default picture,
 * made once, is served in its place.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { LRUCache } from 'lru-cache';
import { FetchRefused, safeFetch, type SafeFetchOptions } from '../http/safe-fetch.ts';

export const OG_SIZE = { width: 1200, height: 630 } as const;
const MAX_OG_BYTES = 250 * 1024;
const MAX_SOURCE_BYTES = 15 * 1024 * 1024;
/** what a remote photo may be (SVG only from our own media: it can reference other files) */
const REMOTE_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'heif', 'tiff']);

export interface ImageResult {
  body: Buffer;
  /** served from the disk cache */
  cached: boolean;
  /** the default picture stands in for a source that failed */
  fallback: boolean;
}

/** A short, stable version tag of a source: it changes when the photo does. */
export function versionOf(source: string): string {
  return createHash('sha1').update(source).digest('hex').slice(0, 12);
}

/** A JPEG of exactly width x height (cropped to fill), as small as it needs to be. */
async function toJpeg(source: Buffer | Sharp, width: number, height: number, maxBytes = Infinity): Promise<Buffer> {
  const input = Buffer.isBuffer(source) ? sharp(source, { density: 144, limitInputPixels: 64_000_000 }) : source;
  const resized = input
    .rotate()
    .resize(width, height, { fit: 'cover', position: 'attention' })
    .flatten({ background: '#ffffff' });
  for (const quality of [82, 72, 62, 50, 40]) {
    const out = await resized.clone().jpeg({ quality, progressive: true, mozjpeg: true }).toBuffer();
    if (out.length <= maxBytes) return out;
  }
  throw new Error(`could not make a JPEG of ${width}x${height} under ${maxBytes} bytes`);
}

export interface ImageSources {
  /** our own media, read from disk: the file of a URL on one of our origins, undefined when it is not ours or not there */
  readOwn(url: URL): Promise<Buffer | undefined> | Buffer | undefined;
  /** how anything else is fetched (the allow-list, limits, timeouts) */
  fetch: Omit<SafeFetchOptions, 'maxBytes'>;
}

export interface ImageCacheOptions {
  dir: string;
  /** the default picture (ours) */
  fallback: () => Buffer;
  sources: ImageSources;
  /** how long a failed source is not tried again (default 10 minutes) */
  failureTtlMs?: number;
  /** images made at once (fetch and sharp), the rest wait (default 4) */
  concurrency?: number;
  log?: (line: string) => void;
}

export interface ImageCache {
  /** the JPEG of the image at `source` (an absolute URL), from the cache or made now; the default picture if it cannot be had */
  jpeg(source: string, width: number, height: number): Promise<ImageResult>;
  /** a JPEG made by `make` (a composed preview), cached on disk under `key` */
  composed(key: string, width: number, height: number, make: () => Promise<Buffer>): Promise<ImageResult>;
  /** the cache's memories, for the tests that fill them */
  readonly stats: { failures: number; inFlight: number };
}

export function createImageCache(options: ImageCacheOptions): ImageCache {
  const inFlight = new Map<string, Promise<ImageResult>>();
  const failures = new LRUCache<string, string>({ max: 2000, ttl: options.failureTtlMs ?? 10 * 60_000 });
  const fallbacks = new LRUCache<string, Promise<Buffer>>({ max: 8 });
  const log = options.log ?? ((line: string) => console.warn(line));
  const limit = options.concurrency ?? 4;
  let running = 0;
  const waiting: Array<() => void> = [];
  const slot = async <T>(work: () => Promise<T>): Promise<T> => {
    if (running >= limit) await new Promise<void>((r) => waiting.push(r));
    running++;
    try {
      return await work();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };

  const fallbackJpeg = (width: number, height: number, maxBytes: number) => {
    const key = `${width}x${height}`;
    let made = fallbacks.get(key);
    if (!made) {
      made = toJpeg(options.fallback(), width, height, maxBytes);
      fallbacks.set(key, made);
      made.catch(() => fallbacks.delete(key));
    }
    return made;
  };

  /** The bytes of an image at `source`, by the rules above; throws what went wrong. */
  async function load(source: string): Promise<Buffer> {
    let url: URL;
    try {
      url = new URL(source);
    } catch {
      throw new FetchRefused(`not an address: ${JSON.stringify(source.slice(0, 200))}`, 'refused');
    }
    const own = await options.sources.readOwn(url);
    if (own) return own;
    const fetched = await safeFetch(url.href, { ...options.sources.fetch, maxBytes: MAX_SOURCE_BYTES });
    let format: string | undefined;
    try {
      format = (await sharp(fetched.body, { limitInputPixels: 64_000_000 }).metadata()).format;
    } catch {
      format = undefined;
    }
    if (!format || !REMOTE_FORMATS.has(format))
      throw new FetchRefused(
        `${url.host}: not an image (said ${fetched.contentType ?? 'nothing'}, is ${format ?? 'unreadable'})`,
        'failed',
      );
    return fetched.body;
  }

  function cachedOr(
    file: string,
    width: number,
    height: number,
    make: () => Promise<Buffer>,
    failureKey?: string,
  ): Promise<ImageResult> {
    const running = inFlight.get(file);
    if (running) return running;
    const limitBytes = width === OG_SIZE.width && height === OG_SIZE.height ? MAX_OG_BYTES : Infinity;
    // more different images asked for at once than are being made: the default one, not a queue
    // without end; decided before the work is counted as in flight, so the count never passes 64
    if (inFlight.size >= 64 && !existsSync(file) && !(failureKey && failures.has(failureKey))) {
      return fallbackJpeg(width, height, limitBytes).then((body) => ({ body, cached: false, fallback: true }));
    }
    const work = (async (): Promise<ImageResult> => {
      if (existsSync(file)) return { body: readFileSync(file), cached: true, fallback: false };
      if (failureKey && failures.has(failureKey))
        return { body: await fallbackJpeg(width, height, limitBytes), cached: true, fallback: true };
      let body: Buffer;
      try {
        body = await slot(async () => toJpeg(await make(), width, height, limitBytes));
      } catch (error) {
        // a photo that cannot be had still gets a preview: ours, not a broken image
        const reason = error instanceof Error ? error.message : String(error);
        if (failureKey) failures.set(failureKey, reason);
        log(`[images] ${reason}; the default image is used`);
        return { body: await fallbackJpeg(width, height, limitBytes), cached: false, fallback: true };
      }
      mkdirSync(options.dir, { recursive: true });
      const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
      writeFileSync(partial, body);
      renameSync(partial, file);
      return { body, cached: false, fallback: false };
    })().finally(() => inFlight.delete(file));
    inFlight.set(file, work);
    return work;
  }

  return {
    jpeg(source, width, height) {
      return cachedOr(
        join(options.dir, `${versionOf(source)}-${width}x${height}.jpg`),
        width,
        height,
        () => load(source),
        source,
      );
    },
    composed(key, width, height, make) {
      return cachedOr(join(options.dir, `${versionOf(key)}-${width}x${height}.jpg`), width, height, make);
    },
    get stats() {
      return { failures: failures.size, inFlight: inFlight.size };
    },
  };
}
