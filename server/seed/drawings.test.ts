/**
 * The seed's drawings made as photos (server/seed/drawings.ts): a `.webp` path is made from the
 * drawing of its name, once, at twice the drawing's width (at most 1024); a path with no drawing, or
 * one that leaves the directory, is none; a drawing changed is made again.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { SeedDrawings } from './drawings.ts';

const SEED_MEDIA = resolve(import.meta.dirname, '../../supabase/seed/media');

describe('the seed drawings made as photos', () => {
  const dir = mkdtempSync(join(tmpdir(), 'exp-drawings-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('makes a WebP of a drawing once, sized for a screen of two pixels to the point', async () => {
    const drawings = new SeedDrawings([SEED_MEDIA], join(dir, 'made'));
    // asked for three times together: made once, the same file for each
    const files = await Promise.all([1, 2, 3].map(() => drawings.resolve('/listings/house-1.webp')));
    expect(new Set(files).size).toBe(1);
    const file = files[0] as string;
    expect(file.startsWith(join(dir, 'made', 'listings'))).toBe(true);
    expect(await sharp(file).metadata()).toMatchObject({ format: 'webp', width: 1024, height: 576 });
    // a portrait (240 wide) at 640
    expect(await sharp((await drawings.resolve('/agents/agent-01.webp')) as string).metadata()).toMatchObject({
      format: 'webp',
      width: 640,
    });
    // a second server on the same directory finds it made
    expect(await new SeedDrawings([SEED_MEDIA], join(dir, 'made')).resolve('/listings/house-1.webp')).toBe(file);
  });

  it('has nothing for a path without a drawing, another kind of file, or a path out of its directory', async () => {
    const drawings = new SeedDrawings([SEED_MEDIA], join(dir, 'made'));
    for (const path of [
      '/listings/missing-photo.webp',
      '/listings/house-1.svg',
      '/listings/house-1.jpg',
      '/listings/%00.webp',
    ])
      expect(await drawings.resolve(path), path).toBeUndefined();
    // a drawing beside the directory is not reached from it
    const root = join(dir, 'root');
    cpSync(join(SEED_MEDIA, 'listings', 'house-1.svg'), join(dir, 'outside.svg'));
    cpSync(join(SEED_MEDIA, 'listings', 'house-1.svg'), join(root, 'inside.svg'));
    const near = new SeedDrawings([root], join(dir, 'made-near'));
    expect(await near.resolve('/inside.webp')).toBeDefined();
    for (const path of ['/../outside.webp', '/%2e%2e/outside.webp', '/..%2foutside.webp'])
      expect(await near.resolve(path), path).toBeUndefined();
  });

  it('makes a drawing again when it changed after it was made, and says when one cannot be drawn', async () => {
    const source = join(dir, 'source');
    cpSync(join(SEED_MEDIA, 'listings', 'house-2.svg'), join(source, 'listings', 'house.svg'), { recursive: true });
    const lines: string[] = [];
    const drawings = new SeedDrawings([source], join(dir, 'made-2'), (l) => lines.push(l));
    const first = (await drawings.resolve('/listings/house.webp')) as string;
    // read as bytes: sharp keeps what it read of a file by its name
    const mean = async (file: string) => (await sharp(readFileSync(file)).stats()).channels[0]?.mean;
    const before = await mean(first);
    // the drawing turned into another (a land drawing under the same name), newer than what was made
    cpSync(join(SEED_MEDIA, 'listings', 'land-1.svg'), join(source, 'listings', 'house.svg'));
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(source, 'listings', 'house.svg'), later, later);
    const again = (await drawings.resolve('/listings/house.webp')) as string;
    expect(again).toBe(first);
    expect(await mean(again)).not.toBe(before);
    // a drawing that is not one
    cpSync(join(SEED_MEDIA, '..', '..', '..', 'package.json'), join(source, 'listings', 'broken.svg'));
    expect(await drawings.resolve('/listings/broken.webp')).toBeUndefined();
    expect(lines.join('\n')).toMatch(/broken\.svg could not be drawn/);
  });
});
