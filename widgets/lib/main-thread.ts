/**
 * Long work in small pieces: a phone's main thread must answer a tap within a frame or two, so
 * work that may take longer (thousands of map pins) gives way between slices.
 */

/** Lets the browser paint and handle input, then resumes (ahead of other queued work where the browser can). */
export function yieldToMain(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Runs `work` after the next frame is painted: work that a visitor does not wait for (a hover's
 * highlight taken away) kept out of the frame that answers what they did (docs/benchmarks.md,
 * "A card clicked").
 */
export function afterNextPaint(work: () => void): void {
  requestAnimationFrame(() => setTimeout(work, 0));
}

/** Milliseconds of work between two yields. */
const SLICE_MS = 8;

/**
 * Calls `each` for every item, yielding to the browser every SLICE_MS. Resolves false (and stops)
 * as soon as `live()` says the work is no longer wanted.
 */
export async function inSlices<T>(
  items: readonly T[],
  each: (item: T) => void,
  live: () => boolean = () => true,
): Promise<boolean> {
  let sliceStart = performance.now();
  for (let i = 0; i < items.length; i++) {
    each(items[i] as T);
    if ((i & 31) === 31 && performance.now() - sliceStart > SLICE_MS) {
      await yieldToMain();
      if (!live()) return false;
      sliceStart = performance.now();
    }
  }
  return live();
}

/** Runs `work` when the browser is idle (or after `timeout` ms at the latest). */
export function whenIdle(work: () => void, timeout = 2000): () => void {
  const w = globalThis as {
    requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => number;
    cancelIdleCallback?: (id: number) => void;
  };
  if (typeof w.requestIdleCallback === 'function') {
    const id = w.requestIdleCallback(work, { timeout });
    return () => w.cancelIdleCallback?.(id);
  }
  const id = setTimeout(work, Math.min(timeout, 200));
  return () => clearTimeout(id);
}

/**
 * Runs `work` once, when `el` comes within `margin` of the viewport (a map below the first screen
 * is made when the visitor scrolls near it, not while the page loads); returns what stops waiting.
 */
export function whenNear(el: Element, margin: string, work: () => void): () => void {
  const near = new IntersectionObserver(
    (entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      near.disconnect();
      work();
    },
    { rootMargin: `${margin} 0px` },
  );
  near.observe(el);
  return () => near.disconnect();
}
