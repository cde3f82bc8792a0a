/**
 * The seed's drawings as the photos they stand for (docs/architecture.md "The seed"): the seed's
 * listings, projects and agents name `/media/…/<name>.webp`, made here from the drawing
 * `supabase/seed/media/…/<name>.svg` on its first request, kept in a directory of made files and
 * served as any file from then on. A browser decodes a raster photo off its main thread, as it does
 * a feed's JPEG; an SVG image it parses and lays out as a document on it (the home page at 4x CPU:
 * 30 such documents, about 400 ms of its main thread's work; docs/benchmarks.md "Measured apart").
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import sharp from 'sharp';
import { StaticFiles } from '../http/static.ts';

/** The widest a drawing is made: a listing's default photo width (core/protocol/photos.ts). */
const WIDEST = 1024;

/** The drawing a made file's path is made from (`/listings/house-1.webp` → `/listings/house-1.svg`), or undefined. */
export function drawingOf(path: string): string | undefined {
  return path.endsWith('.webp') ? path.replace(/\.webp$/, '.svg') : undefined;
}

export class SeedDrawings {
  private readonly sources: StaticFiles[];
  private readonly made: StaticFiles;
  /** drawings being made, so that requests that come together make each once */
  private readonly making = new Map<string, Promise<string | undefined>>();

  constructor(
    sourceDirs: readonly string[],
    /** where the made files are kept (shared by servers on one machine: each is written whole, then renamed) */
    readonly madeDir: string,
    private readonly log: (line: string) => void = () => {},
  ) {
    this.sources = sourceDirs.map((d) => new StaticFiles(d));
    this.made = new StaticFiles(madeDir);
  }

  /** The made file for a path under /media/ (`/listings/house-1.webp`), made if its drawing exists; else undefined. */
  async resolve(path: string): Promise<string | undefined> {
    const named = drawingOf(path);
    if (!named) return undefined;
    for (const root of this.sources) {
      const drawing = await root.resolve(named);
      if (!drawing) continue;
      // the made file's place follows the drawing's, which never leaves its directory
      const target = join(this.madeDir, relative(root.root, drawing).replace(/\.svg$/, '.webp'));
      // made before, and not older than its drawing (a drawing changed is made again)
      const [source, kept] = await Promise.all([stat(drawing), stat(target).catch(() => undefined)]);
      if (kept && kept.mtimeMs >= source.mtimeMs) return target;
      let pending = this.making.get(target);
      if (!pending) {
        pending = this.draw(drawing, target).finally(() => this.making.delete(target));
        this.making.set(target, pending);
      }
      return pending;
    }
    return undefined;
  }

  /** Sends a made file (ETag, 304, a day's cache). */
  send(...args: Parameters<StaticFiles['send']>): Promise<void> {
    return this.made.send(...args);
  }

  private async draw(drawing: string, target: string): Promise<string | undefined> {
    try {
      const svg = await readFile(drawing);
      const { width = WIDEST } = await sharp(svg).metadata();
      // twice the drawing's own width (a screen of two pixels to the point), at least 640 (a portrait
      // shown 320 wide), at most WIDEST
      const wanted = Math.min(WIDEST, Math.max(640, width * 2));
      const body = await sharp(svg, { density: (72 * wanted) / width })
        .resize({ width: wanted })
        .webp({ quality: 80 })
        .toBuffer();
      await mkdir(dirname(target), { recursive: true });
      const temporary = `${target}.${randomBytes(6).toString('hex')}.part`;
      await writeFile(temporary, body);
      await rename(temporary, target);
      return (await stat(target)).isFile() ? target : undefined;
    } catch (error) {
      this.log(`[media] ${relative(dirname(dirname(drawing)), drawing)} could not be drawn: ${String(error)}`);
      return undefined;
    }
  }
}
