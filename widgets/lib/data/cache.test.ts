import { describe, expect, it, vi } from 'vitest';
import { createQueryCache } from './cache.ts';

describe('query cache', () => {
  it('loads a key once and shares it', async () => {
    const cache = createQueryCache<number>();
    const load = vi.fn(async () => 42);
    const [a, b] = await Promise.all([cache.get('k', load), cache.get('k', load)]);
    expect([a, b]).toEqual([42, 42]);
    expect(await cache.get('k', load)).toBe(42);
    expect(load).toHaveBeenCalledTimes(1);
    expect(cache.peek('k')).toBe(42);
  });

  it('retries once, then fails and forgets the failure', async () => {
    const cache = createQueryCache<number>({ retryDelayMs: 1 });
    const load = vi.fn().mockRejectedValueOnce(new Error('a')).mockResolvedValueOnce(7);
    expect(await cache.get('x', load)).toBe(7);
    expect(load).toHaveBeenCalledTimes(2);
    const failing = vi.fn().mockRejectedValue(new Error('down'));
    await expect(cache.get('y', failing)).rejects.toThrow('down');
    expect(failing).toHaveBeenCalledTimes(2);
    const ok = vi.fn(async () => 1);
    expect(await cache.get('y', ok)).toBe(1);
  });

  it('keeps at most max entries, dropping the least recently used', async () => {
    const cache = createQueryCache<string>({ max: 2 });
    await cache.get('a', async () => 'a');
    await cache.get('b', async () => 'b');
    await cache.get('a', async () => 'A');
    await cache.get('c', async () => 'c');
    expect(cache.peek('a')).toBe('a');
    expect(cache.peek('b')).toBeUndefined();
  });
});
