/**
 * The one shape of every in-memory cache of the server (pages, templates, static files, images,
 * place lookups, failures remembered): least recently used first out, bounded by a number of
 * entries and, where entries differ in size, by their bytes; an entry may expire. What a visitor
 * can make the server remember (a made-up address, a broken photo) can never grow it without bound.
 */
export interface LruOptions<V> {
  /** at most this many entries */
  maxEntries: number;
  /** at most this many bytes, as `sizeOf` counts them (default: entries only) */
  maxBytes?: number;
  sizeOf?: (value: V) => number;
  /** an entry older than this is gone (default: never) */
  ttlMs?: number;
  /** a clock, for tests */
  now?: () => number;
}

interface Entry<V> {
  value: V;
  size: number;
  at: number;
}

export class Lru<K, V> {
  private readonly entries = new Map<K, Entry<V>>();
  private bytes = 0;
  private readonly now: () => number;

  constructor(private readonly options: LruOptions<V>) {
    if (!(options.maxEntries >= 1)) throw new Error('an LRU cache holds at least one entry');
    this.now = options.now ?? Date.now;
  }

  get size(): number {
    return this.entries.size;
  }

  /** the bytes held, as sizeOf counts them */
  get byteSize(): number {
    return this.bytes;
  }

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (this.options.ttlMs !== undefined && this.now() - entry.at > this.options.ttlMs) {
      this.delete(key);
      return undefined;
    }
    // most recently used last
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  has(key: K): boolean {
    return this.get(key) !== undefined;
  }

  set(key: K, value: V): void {
    const size = this.options.sizeOf?.(value) ?? 0;
    this.delete(key);
    // a value larger than the whole budget is not kept at all
    if (this.options.maxBytes !== undefined && size > this.options.maxBytes) return;
    this.entries.set(key, { value, size, at: this.now() });
    this.bytes += size;
    while (this.entries.size > this.options.maxEntries || (this.options.maxBytes !== undefined && this.bytes > this.options.maxBytes)) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.delete(oldest.value);
    }
  }

  delete(key: K): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.size;
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }
}
