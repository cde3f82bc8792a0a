import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { feedCells, mergeCells, tileView, WORLD, type Bbox, type CellView, type MapCell } from './cell-loader.ts';

const cell = (count: number, lng: number, lat: number, extra: Partial<MapCell> = {}): MapCell => ({
  count,
  lat,
  lng,
  bounds: [lng - 0.01, lat - 0.01, lng + 0.01, lat + 0.01],
  priceFrom: 100_000,
  priceTo: 200_000,
  id: count === 1 ? `${lng},${lat}` : null,
  approximate: false,
  ...extra,
});

/** A loader whose answers the test hands out, one call at a time. */
function heldLoader() {
  const calls: Array<{
    zoom: number;
    bbox: Bbox;
    signal: AbortSignal;
    answer(list: MapCell[]): void;
    fail(e: unknown): void;
  }> = [];
  const loader = (view: { zoom: number; bbox: Bbox }, signal: AbortSignal) =>
    new Promise<MapCell[]>((resolve, reject) => {
      signal.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' })));
      calls.push({ ...view, signal, answer: resolve, fail: reject });
    });
  return { calls, loader };
}

describe('tileView', () => {
  it('widens the visible extent to whole tiles of the rounded zoom', () => {
    const v = tileView([-8_750_000, -31_000, -8_720_000, -9_000], 11.6);
    expect(v.zoom).toBe(12);
    const [w, s, e, n] = v.bbox;
    // the tiles hold the extent (Quito, in degrees about -78.6..-78.3, -0.28..-0.08)
    expect(w).toBeLessThanOrEqual(-78.6);
    expect(e).toBeGreaterThanOrEqual(-78.33);
    expect(s).toBeLessThanOrEqual(-0.278);
    expect(n).toBeGreaterThanOrEqual(-0.08);
    expect(e - w).toBeLessThan(0.5);
    // a view a little to the side shares the answer
    expect(tileView([-8_749_000, -31_000, -8_721_000, -9_500], 12.2).key).toBe(v.key);
  });

  it('is the whole world at zoom 0 and never leaves it', () => {
    const v = tileView([-3e7, -3e7, 3e7, 3e7], 0);
    expect(v.key).toBe('0/0/0/1/1');
    v.bbox.forEach((x, i) => expect(x).toBeCloseTo(WORLD[i]!, 3));
  });
});

describe('mergeCells', () => {
  const project = (lng: number, lat: number) => [lng, lat];

  it('draws badges that would overlap as one: counts, bounds and prices add up, the position is the mean', () => {
    const merged = mergeCells(
      [cell(3, 0, 0, { priceFrom: 50_000 }), cell(1, 0.5, 0, { priceTo: 900_000 }), cell(10, 5, 5)],
      1,
      project,
    );
    expect(merged).toHaveLength(2);
    const [big, near] = merged as [MapCell, MapCell];
    expect(big.count).toBe(10);
    expect(near).toMatchObject({ count: 4, id: null, priceFrom: 50_000, priceTo: 900_000 });
    expect(near.lng).toBeCloseTo(0.125);
    expect(near.bounds).toEqual([-0.01, -0.01, 0.51, 0.01]);
    expect(merged.reduce((n, c) => n + c.count, 0)).toBe(14);
  });

  it('keeps apart what does not overlap, and a lone listing keeps its id', () => {
    const merged = mergeCells([cell(1, 0, 0), cell(1, 3, 0)], 1, project);
    expect(merged.map((c) => c.id)).toEqual(['0,0', '3,0']);
  });
});

describe('feedCells', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const views = (): { current: CellView } => ({ current: { key: 'a', zoom: 12, bbox: [0, 0, 1, 1] } });

  it('asks once the view rests, for the view of that moment, and answers a view seen before from memory', async () => {
    const { calls, loader } = heldLoader();
    const at = views();
    const shown: number[] = [];
    const feed = feedCells({
      loader,
      view: () => at.current,
      show: (l) => shown.push(l.length),
      onError: (e) => {
        throw e;
      },
      debounce: 30,
    });
    vi.advanceTimersByTime(10);
    feed.schedule();
    vi.advanceTimersByTime(10);
    feed.schedule();
    expect(calls).toHaveLength(0);
    vi.advanceTimersByTime(30);
    expect(calls).toHaveLength(1);
    calls[0]!.answer([cell(2, 0, 0), cell(1, 1, 1)]);
    await vi.advanceTimersByTimeAsync(0);
    expect(shown).toEqual([2]);
    at.current = { key: 'b', zoom: 13, bbox: [0, 0, 0.5, 0.5] };
    feed.schedule();
    vi.advanceTimersByTime(30);
    expect(calls).toHaveLength(2);
    calls[1]!.answer([]);
    await vi.advanceTimersByTimeAsync(0);
    at.current = { key: 'a', zoom: 12, bbox: [0, 0, 1, 1] };
    feed.schedule();
    vi.advanceTimersByTime(30);
    expect(calls).toHaveLength(2);
    expect(shown).toEqual([2, 0, 2]);
  });

  it("never lets an older view's answer replace a newer one's; the older call is cancelled", async () => {
    const { calls, loader } = heldLoader();
    const at = views();
    const shown: string[] = [];
    const errors: unknown[] = [];
    const feed = feedCells({
      loader,
      view: () => at.current,
      show: (l) => shown.push(l.map((c) => c.count).join()),
      onError: (e) => errors.push(e),
    });
    vi.advanceTimersByTime(30);
    at.current = { key: 'b', zoom: 13, bbox: [0, 0, 0.5, 0.5] };
    feed.schedule();
    vi.advanceTimersByTime(30);
    expect(calls[0]!.signal.aborted).toBe(true);
    calls[1]!.answer([cell(7, 0, 0)]);
    calls[0]!.answer([cell(9, 0, 0)]);
    await vi.advanceTimersByTimeAsync(0);
    expect(shown).toEqual(['7']);
    expect(errors).toEqual([]);
  });

  it('fits: the whole world first; moves meanwhile neither ask nor cancel; then the fitted view', async () => {
    const { calls, loader } = heldLoader();
    const at = views();
    const fitted: MapCell[][] = [];
    const shown: number[] = [];
    const feed = feedCells({
      loader,
      view: () => at.current,
      show: (l) => shown.push(l.reduce((n, c) => n + c.count, 0)),
      onError: (e) => {
        throw e;
      },
      fit: (world) => {
        fitted.push(world);
        at.current = { key: 'fitted', zoom: 7, bbox: [-81, -5, -75, 2] };
      },
    });
    expect(calls.map((c) => [c.zoom, c.bbox])).toEqual([[2, WORLD]]);
    feed.schedule();
    vi.advanceTimersByTime(100);
    feed.schedule();
    vi.advanceTimersByTime(100);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.signal.aborted).toBe(false);
    calls[0]!.answer([cell(40, -79.9, -2.2), cell(60, -78.5, -0.2)]);
    await vi.advanceTimersByTimeAsync(0);
    expect(fitted).toHaveLength(1);
    expect(calls.map((c) => c.bbox)).toEqual([WORLD, [-81, -5, -75, 2]]);
    calls[1]!.answer([cell(100, -79, -1)]);
    await vi.advanceTimersByTimeAsync(0);
    expect(shown).toEqual([100]);
  });

  it('an empty world shows the default view with nothing on it', async () => {
    const { calls, loader } = heldLoader();
    const empty = vi.fn();
    const shown: number[] = [];
    feedCells({
      loader,
      view: () => views().current,
      show: (l) => shown.push(l.length),
      onError: (e) => {
        throw e;
      },
      fit: () => {
        throw new Error('no fit');
      },
      empty,
    });
    calls[0]!.answer([]);
    await vi.advanceTimersByTimeAsync(0);
    expect(empty).toHaveBeenCalledOnce();
    expect(shown).toEqual([0]);
  });

  it('tells a failure, but not a cancelled call; stop cancels what is on its way and asks nothing more', async () => {
    const { calls, loader } = heldLoader();
    const errors: unknown[] = [];
    const feed = feedCells({
      loader,
      view: () => views().current,
      show: () => undefined,
      onError: (e) => errors.push(e),
    });
    vi.advanceTimersByTime(30);
    calls[0]!.fail(new Error('503'));
    await vi.advanceTimersByTimeAsync(0);
    expect(errors).toHaveLength(1);
    feed.schedule();
    vi.advanceTimersByTime(30);
    feed.stop();
    expect(calls[1]!.signal.aborted).toBe(true);
    feed.schedule();
    vi.advanceTimersByTime(100);
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(2);
    expect(errors).toHaveLength(1);
  });
});
