/**
 * Preview images for link previews and crawlers (og:image): a raster JPEG of 1200x630 under 250 KB
 * made from a listing's first photo (or an agent's portrait) with sharp, cached on disk under a
 * name that changes with the source image, so the URL can be cached for a year. Link-preview
 * crawlers do not accept SVG, which is what our seed's photos are. The same code serves resized
 * photos at other sizes (cards, galleries).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';

export const OG_SIZE = { width: 1200, height: 630 } as const;
export const MAX_OG_BYTES = 250 * 1024;
const MAX_SOURCE_BYTES = 15 * 1024 * 1024;

export interface ImageResult {
  body: Buffer;
  /** served from the disk cache */
  cached: boolean;
}

/** A short, stable version tag of a source URL: it changes when the photo does. */
export function versionOf(source: string): string {
  return createHash('sha1').update(source).digest('hex').slice(0, 12);
}

async function fetchSource(url: string): Promise<Buffer> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`not an http(s) image: ${url}`);
  const res = await fetch(parsed, { signal: AbortSignal.timeout(10_000), redirect: 'follow' });
  if (!res.ok) throw new Error(`image ${url}: HTTP ${res.status}`);
  const length = Number(res.headers.get('content-length') ?? 0);
  if (length > MAX_SOURCE_BYTES) throw new Error(`image ${url} is larger than ${MAX_SOURCE_BYTES} bytes`);
  const body = Buffer.from(await res.arrayBuffer());
  if (body.length > MAX_SOURCE_BYTES) throw new Error(`image ${url} is larger than ${MAX_SOURCE_BYTES} bytes`);
  return body;
}

/** A JPEG of exactly width x height (cropped to fill), as small as it needs to be. */
export async function toJpeg(source: Buffer, width: number, height: number, maxBytes = Infinity): Promise<Buffer> {
  const resized = sharp(source, { density: 144, limitInputPixels: 64_000_000 }).rotate().resize(width, height, { fit: 'cover', position: 'attention' }).flatten({ background: '#ffffff' });
  for (const quality of [82, 72, 62, 50, 40]) {
    const out = await resized.clone().jpeg({ quality, progressive: true, mozjpeg: true }).toBuffer();
    if (out.length <= maxBytes) return out;
  }
  throw new Error(`could not make a JPEG of ${width}x${height} under ${maxBytes} bytes`);
}

export interface ImageCache {
  /** the JPEG of `source` at width x height (1200x630: a preview image), from the cache or made now */
  jpeg(source: string, width: number, height: number): Promise<ImageResult>;
}

export function createImageCache(dir: string, fallback: () => Buffer): ImageCache {
  const inFlight = new Map<string, Promise<ImageResult>>();
  return {
    jpeg(source, width, height) {
      const file = join(dir, `${versionOf(source)}-${width}x${height}.jpg`);
      const running = inFlight.get(file);
      if (running) return running;
      const work = (async (): Promise<ImageResult> => {
        if (existsSync(file)) return { body: readFileSync(file), cached: true };
        const limit = width === OG_SIZE.width && height === OG_SIZE.height ? MAX_OG_BYTES : Infinity;
        let body: Buffer;
        try {
          body = await toJpeg(await fetchSource(source), width, height, limit);
        } catch (error) {
          // a photo that cannot be read still gets a preview: ours, not a broken image
          console.warn(`[images] ${error instanceof Error ? error.message : String(error)}; the default image is used`);
          return { body: await toJpeg(fallback(), width, height, limit), cached: false };
        }
        mkdirSync(dir, { recursive: true });
        const partial = `${file}.${process.pid}.tmp`;
        writeFileSync(partial, body);
        renameSync(partial, file);
        return { body, cached: false };
      })().finally(() => inFlight.delete(file));
      inFlight.set(file, work);
      return work;
    },
  };
}
