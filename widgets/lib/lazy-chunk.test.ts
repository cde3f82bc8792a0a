import { describe, expect, it } from 'vitest';
import { lazyChunk } from './lazy-chunk.ts';

describe('lazyChunk', () => {
  it('loads once and returns the module', async () => {
    let calls = 0;
    const load = lazyChunk(async () => ({ n: ++calls }));
    expect(await load()).toEqual({ n: 1 });
  });

  it('after a failure that names the URL, imports that URL again with ?retry=n', async () => {
    const requested: string[] = [];
    const load = lazyChunk(
      () =>
        Promise.reject(
          new TypeError(
            'Failed to fetch dynamically imported module: https://cdn.example/widgets/chunks/ol-map-Ab_1.js',
          ),
        ),
      async (url) => {
        requested.push(url);
        if (requested.length === 1) throw new TypeError(`Failed to fetch dynamically imported module: ${url}`);
        return { map: true };
      },
    );
    await expect(load()).rejects.toThrow('Failed to fetch');
    // a new request under a new URL, not the browser's cached failure, as often as it takes
    await expect(load()).rejects.toThrow();
    expect(await load()).toEqual({ map: true });
    expect(requested).toEqual([
      'https://cdn.example/widgets/chunks/ol-map-Ab_1.js?retry=1',
      'https://cdn.example/widgets/chunks/ol-map-Ab_1.js?retry=2',
    ]);
  });

  it('shares a download on its way between callers, and keeps the module once loaded', async () => {
    let calls = 0;
    let release = (_: unknown) => {};
    const load = lazyChunk(() => new Promise((r) => ((release = r), calls++)));
    const a = load();
    const b = load();
    release({ map: true });
    expect(await a).toBe(await b);
    expect(await load()).toEqual({ map: true });
    expect(calls).toBe(1);
  });

  it('after a failure that names no URL, simply loads again', async () => {
    let calls = 0;
    const load = lazyChunk(async () => {
      if (++calls === 1) throw new TypeError('Importing a module script failed.');
      return 'ok';
    });
    await expect(load()).rejects.toThrow();
    expect(await load()).toBe('ok');
  });
});
