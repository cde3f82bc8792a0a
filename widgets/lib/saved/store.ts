/**
 * Listings kept in the visitor's browser (no account; docs/decisions.md #23): the saved ones, and
 * the ones opened lately (recently viewed, docs/product.md §2). Each list is in localStorage under
 * a key per data backend, so a partner's page that embeds our search keeps its own lists and two
 * backends never mix; nothing leaves the browser. Each entry keeps what the pages show of a listing
 * that has gone off the market since (title, price, place, photo). Every element of the page
 * follows the lists live (a signal), and so do the page's other tabs (the storage event). Where
 * storage is refused (a sandboxed frame, a private mode), a list lives as long as the page.
 */
import { useSyncExternalStore } from 'react';
import { signal } from '@preact/signals-react';
import type { Property } from '../../../core/protocol/listing.ts';
import { now as clockNow } from '../../../core/clock.ts';

/** At most this many saved listings (the oldest go first). */
const SAVED_MAX = 200;
/** The listings opened last, at most this many. */
const RECENT_MAX = 20;

export interface SavedListing {
  id: string;
  title: string;
  price: number;
  city: string;
  /** the first photo's URL, if any */
  image: string;
  /** when it was saved (or, in the recently viewed list, last opened) */
  savedAt: number;
}

/** Bumped whenever a kept list changes (this page or another tab): what the hooks follow. */
const listsVersion = signal(0);

function subscribe(onChange: () => void): () => void {
  return listsVersion.subscribe(onChange);
}

const NONE: SavedListing[] = [];

/**
 * The stored texts read in this task: a render asks for a list once per heart (24 cards, each
 * read again when React checks its snapshot), and a page's reads of localStorage are synchronous
 * (its first ones slow). One read serves the task; the next task reads again, so a list written
 * by another copy of the bundle, another tab or a test is seen as before.
 */
let readInTask: Map<string, string | null> | null = null;

function storedText(key: string): string | null {
  if (!readInTask) {
    const reads = new Map<string, string | null>();
    readInTask = reads;
    setTimeout(() => {
      if (readInTask === reads) readInTask = null;
    }, 0);
  }
  if (!readInTask.has(key)) {
    let raw: string | null = null;
    try {
      raw = localStorage.getItem(key);
    } catch {
      // storage refused: what this page kept, if anything
    }
    readInTask.set(key, raw);
  }
  return readInTask.get(key) ?? null;
}

/** What a kept list keeps of a listing. */
export function keptEntry(
  p: Pick<Property, 'id' | 'title' | 'price' | 'city' | 'images'>,
): Omit<SavedListing, 'savedAt'> {
  return {
    id: p.id,
    title: p.title,
    price: p.price,
    city: p.city,
    image: p.images.find((u) => /^https?:\/\//.test(u)) ?? '',
  };
}

/** One kept list: `exp-saved:<backend>` or `exp-recent:<backend>`, newest first, at most `max`. */
function keptList(prefix: 'exp-saved' | 'exp-recent', max: number) {
  const memory = new Map<string, SavedListing[]>();
  const key = (backend: string) => `${prefix}:${backend}`;

  const sanitize = (raw: unknown): SavedListing[] => {
    if (!raw || typeof raw !== 'object' || !Array.isArray((raw as { items?: unknown }).items)) return [];
    const out: SavedListing[] = [];
    for (const item of (raw as { items: unknown[] }).items) {
      const i = item as Partial<SavedListing>;
      if (!i || typeof i.id !== 'string' || !/^[\w-]{1,64}$/.test(i.id)) continue;
      out.push({
        id: i.id,
        title: String(i.title ?? '').slice(0, 300),
        price: Number(i.price) || 0,
        city: String(i.city ?? '').slice(0, 120),
        image: typeof i.image === 'string' && /^https?:\/\//.test(i.image) ? i.image : '',
        savedAt: Number(i.savedAt) || 0,
      });
    }
    return out.slice(0, max);
  };

  /**
   * The list as last parsed, per backend, with the text it came from: cards render many hearts, and
   * one parse serves them all until the stored text changes (also when written by another copy of
   * the bundle or a test in this tab).
   */
  const cache = new Map<string, { raw: string | null; items: SavedListing[]; ids: Set<string> }>();

  const load = (backend: string): { items: SavedListing[]; ids: Set<string> } => {
    const raw = storedText(key(backend));
    const kept = memory.get(backend) ?? NONE;
    const hit = cache.get(backend);
    if (hit && hit.raw === raw && (raw !== null || hit.items === kept)) return hit;
    let items = kept;
    try {
      if (raw !== null) items = sanitize(JSON.parse(raw));
    } catch {
      // a damaged entry: what this page kept, if anything
    }
    const entry = { raw, items, ids: new Set(items.map((i) => i.id)) };
    cache.set(backend, entry);
    return entry;
  };

  const read = (backend: string): SavedListing[] => load(backend).items;

  const write = (backend: string, items: SavedListing[]): void => {
    memory.set(backend, items);
    try {
      if (items.length) localStorage.setItem(key(backend), JSON.stringify({ v: 1, items }));
      else localStorage.removeItem(key(backend));
    } catch {
      // kept in memory for this page
    }
    readInTask?.delete(key(backend));
    listsVersion.value++;
  };

  return {
    read,
    has: (backend: string, id: string) => load(backend).ids.has(id),
    /** the list, followed live: the same array until it changes */
    use: (backend: string) => useSyncExternalStore(subscribe, () => read(backend)),
    /** puts a listing first (added, or moved up), keeping at most `max` */
    put: (backend: string, listing: Omit<SavedListing, 'savedAt'>) =>
      write(
        backend,
        [{ ...listing, savedAt: clockNow() }, ...read(backend).filter((i) => i.id !== listing.id)].slice(0, max),
      ),
    remove: (backend: string, id: string) =>
      write(
        backend,
        read(backend).filter((i) => i.id !== id),
      ),
    clear: (backend: string) => write(backend, []),
  };
}

const saved = keptList('exp-saved', SAVED_MAX);
const recent = keptList('exp-recent', RECENT_MAX);

/**
 * Whether a listing is saved, followed live: a component re-renders only when its own answer
 * changes (a heart on each of 24 cards, and one is pressed).
 */
export function useIsSaved(backend: string, id: string): boolean {
  return useSyncExternalStore(subscribe, () => saved.has(backend, id));
}

/** The saved list, followed live (the header's count, the saved page): the same array until it changes. */
export function useSavedListings(backend: string): SavedListing[] {
  return saved.use(backend);
}

/** Saves or removes a listing; true when it is saved now. */
export function toggleSaved(backend: string, listing: Omit<SavedListing, 'savedAt'>): boolean {
  if (saved.has(backend, listing.id)) {
    saved.remove(backend, listing.id);
    return false;
  }
  saved.put(backend, listing);
  return true;
}

export function removeSaved(backend: string, id: string): void {
  saved.remove(backend, id);
}

/** The listings opened last, newest first, followed live (and across tabs). */
export function useRecentlyViewed(backend: string): SavedListing[] {
  return recent.use(backend);
}

/** A listing was opened (its detail, dialog or page): first in the recently viewed list. */
export function rememberViewed(backend: string, listing: Omit<SavedListing, 'savedAt'>): void {
  const [first] = recent.read(backend);
  // opened again while first: nothing to write (a re-render, a language change)
  if (first?.id === listing.id && first.price === listing.price && first.title === listing.title) return;
  recent.put(backend, listing);
}

export function clearViewed(backend: string): void {
  recent.clear(backend);
}

// another tab changed a list: follow it
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (e) => {
    if (e.key === null || e.key.startsWith('exp-saved:') || e.key.startsWith('exp-recent:')) listsVersion.value++;
  });
}
