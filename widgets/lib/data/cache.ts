/**
 * A small query cache for the elements' data calls: one entry per key, shared by whoever asks for
 * it while it loads, one retry on failure, never refetched because a window regains focus, and a
 * failed answer is not kept (the next ask tries again).
 */
export interface QueryCache<T> {
  get(key: string, load: (signal: AbortSignal) => Promise<T>): Promise<T>;
  peek(key: string): T | undefined;
  clear(): void;
}

export function createQueryCache<T>(options: { max?: number; retryDelayMs?: number } = {}): QueryCache<T> {
  const max = options.max ?? 100;
  const entries = new Map<string, { promise: Promise<T>; value?: T; settled: boolean }>();
  return {
    peek(key) {
      return entries.get(key)?.value;
    },
    get(key, load) {
      const hit = entries.get(key);
      if (hit) {
        // most recently used last
        entries.delete(key);
        entries.set(key, hit);
        return hit.promise;
      }
      const controller = new AbortController();
      const attempt = () => load(controller.signal);
      const promise = attempt().catch(async (error: unknown) => {
        if ((error as Error)?.name === 'AbortError') throw error;
        await new Promise((r) => setTimeout(r, options.retryDelayMs ?? 400));
        return attempt();
      });
      const entry: { promise: Promise<T>; value?: T; settled: boolean } = { promise, settled: false };
      entries.set(key, entry);
      promise.then(
        (value) => {
          entry.value = value;
          entry.settled = true;
        },
        () => {
          if (entries.get(key) === entry) entries.delete(key);
        },
      );
      while (entries.size > max) entries.delete(entries.keys().next().value as string);
      return promise;
    },
    clear() {
      entries.clear();
    },
  };
}
