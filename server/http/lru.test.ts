import { describe, expect, it } from 'vitest';
import { Lru } from './lru.ts';

describe('the bounded cache every memory of the server uses', () => {
  it('keeps at most maxEntries, dropping the least recently used', () => {
    const lru = new Lru<string, number>({ maxEntries: 3 });
    for (let i = 0; i < 10_000; i++) lru.set(`k${i}`, i);
    expect(lru.size).toBe(3);
    expect([lru.get('k9997'), lru.get('k9998'), lru.get('k9999'), lru.get('k0')]).toEqual([9997, 9998, 9999, undefined]);
    // reading an entry makes it the most recent: the next one out is another
    lru.get('k9997');
    lru.set('new', 1);
    expect(lru.get('k9998')).toBeUndefined();
    expect(lru.get('k9997')).toBe(9997);
  });

  it('keeps at most maxBytes, and never an entry larger than the whole budget', () => {
    const lru = new Lru<string, string>({ maxEntries: 1000, maxBytes: 100, sizeOf: (s) => s.length });
    for (let i = 0; i < 50; i++) lru.set(`k${i}`, 'x'.repeat(30));
    expect(lru.byteSize).toBeLessThanOrEqual(100);
    expect(lru.size).toBe(3);
    lru.set('huge', 'x'.repeat(101));
    expect(lru.get('huge')).toBeUndefined();
    lru.set('k49', 'y');
    expect(lru.byteSize).toBe(61);
  });

  it('forgets an entry once it is older than ttlMs', () => {
    let now = 0;
    const lru = new Lru<string, string>({ maxEntries: 10, ttlMs: 1000, now: () => now });
    lru.set('a', 'b');
    now = 999;
    expect(lru.get('a')).toBe('b');
    now = 1001;
    expect(lru.get('a')).toBeUndefined();
    expect(lru.size).toBe(0);
  });
});
