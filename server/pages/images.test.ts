import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createImageCache, OG_SIZE } from './images.ts';

describe('the preview images keep bounded memories', () => {
  let dir: string;
  let picture: Buffer;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'exp-images-'));
    picture = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#123c69' } })
      .png()
      .toBuffer();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('remembers at most 2,000 failed sources, each answered with the one default picture', async () => {
    const log: string[] = [];
    // nothing is ours and nothing is on the list: every source fails at once, without a request
    const cache = createImageCache({
      dir,
      fallback: () => picture,
      sources: { readOwn: () => undefined, fetch: { allow: [] } },
      log: (l) => log.push(l),
    });
    const first = await cache.jpeg('https://photos.example.test/0.jpg', OG_SIZE.width, OG_SIZE.height);
    expect(first.fallback).toBe(true);
    for (let i = 1; i < 2600; i++)
      await cache.jpeg(`https://photos.example.test/${i}.jpg`, OG_SIZE.width, OG_SIZE.height);
    expect(cache.stats.failures).toBe(2000);
    // a remembered failure is not tried again (no new log line), and is the same default picture
    const lines = log.length;
    const again = await cache.jpeg('https://photos.example.test/2599.jpg', OG_SIZE.width, OG_SIZE.height);
    expect(log.length).toBe(lines);
    expect(again.body.equals(first.body)).toBe(true);
  });

  it('makes at most 64 different images at once; the rest get the default picture instead of a queue without end', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    let started = 0;
    const cache = createImageCache({
      dir,
      fallback: () => picture,
      concurrency: 4,
      sources: {
        // our own media, slow to read: the work piles up
        readOwn: async () => {
          started++;
          await gate;
          return picture;
        },
        fetch: { allow: [] },
      },
    });
    const asked = Array.from({ length: 200 }, (_, i) => cache.jpeg(`http://localhost/media/slow-${i}.png`, 320, 180));
    await new Promise((r) => setTimeout(r, 50));
    expect(cache.stats.inFlight).toBeLessThanOrEqual(65);
    release();
    const results = await Promise.all(asked);
    expect(results.filter((r) => !r.fallback).length).toBeLessThanOrEqual(65);
    expect(results.filter((r) => r.fallback).length).toBeGreaterThanOrEqual(135);
    expect(started).toBeLessThanOrEqual(65);
    expect(cache.stats.inFlight).toBe(0);
  });
});
