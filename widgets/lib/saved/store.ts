/**
 * Saved listings, kept in the visitor's browser (no account; docs/decisions.md #23): in
 * localStorage, under a key per data backend, so a partner's page that embeds our search keeps its
 * own list and two backends never mix. Each entry keeps what the saved page shows of a listing that
 * has gone off the market since (title, price, place, photo). Every element of the page follows the
 * list live (a signal), and so do the page's other tabs (the storage event). Where storage is
 * refused (a sandboxed frame, a private mode), the list lives as long as the page.
 */
import { useSyncExternalStore } from 'react';
import { signal } from '@preact/signals-react';

/** At most this many saved listings (the oldest go first). */
export const SAVED_MAX = 200;

export interface SavedListing {
  id: string;
  title: string;
  price: number;
  city: string;
  /** the first photo's URL, if any */
  image: string;
  savedAt: number;
}

const memory = new Map<string, SavedListing[]>();

/** Bumped whenever a saved list changes (this page or another tab): what the hooks below follow. */
const savedVersion = signal(0);

export const storageKey = (backend: string) => `exp-saved:${backend}`;

function sanitize(raw: unknown): SavedListing[] {
  if (!raw || typeof raw !== 'object' || !Array.isArray((raw as { items?: unknown }).items)) return [];
  const out: SavedListing[] = [];
  for (const item of (raw as { items: unknown[] }).items) {
    const i = item as Partial<SavedListing>;
    if (!i || typeof i.id !== 'string' || !/^[\w-]{1,64}$/.test(i.id)) continue;
    out.push({ id: i.id, title: String(i.title ?? '').slice(0, 300), price: Number(i.price) || 0, city: String(i.city ?? '').slice(0, 120), image: typeof i.image === 'string' && /^https?:\/\//.test(i.image) ? i.image : '', savedAt: Number(i.savedAt) || 0 });
  }
  return out.slice(0, SAVED_MAX);
}

/**
 * The list as last parsed, per backend, with the text it came from: cards render many hearts, and
 * one parse serves them all until the stored text changes (also when written by another copy of
 * the bundle or a test in this tab).
 */
const cache = new Map<string, { raw: string | null; items: SavedListing[]; ids: Set<string> }>();
const NONE: SavedListing[] = [];

function load(backend: string): { items: SavedListing[]; ids: Set<string> } {
  let raw: string | null = null;
  try {
    raw = localStorage.getItem(storageKey(backend));
  } catch {
    // storage refused: what this page saved, if anything
  }
  const kept = memory.get(backend) ?? NONE;
  const hit = cache.get(backend);
  if (hit && hit.raw === raw && (raw !== null || hit.items === kept)) return hit;
  let items = kept;
  try {
    if (raw !== null) items = sanitize(JSON.parse(raw));
  } catch {
    // a damaged entry: what this page saved, if anything
  }
  const entry = { raw, items, ids: new Set(items.map((i) => i.id)) };
  cache.set(backend, entry);
  return entry;
}

export function readSaved(backend: string): SavedListing[] {
  return load(backend).items;
}

function write(backend: string, items: SavedListing[]): void {
  memory.set(backend, items);
  try {
    localStorage.setItem(storageKey(backend), JSON.stringify({ v: 1, items }));
  } catch {
    // kept in memory for this page
  }
  savedVersion.value++;
}

export function isSaved(backend: string, id: string): boolean {
  return load(backend).ids.has(id);
}

/**
 * Whether a listing is saved, followed live: a component re-renders only when its own answer
 * changes (a heart on each of 24 cards, and one is pressed).
 */
export function useIsSaved(backend: string, id: string): boolean {
  return useSyncExternalStore(subscribeSaved, () => isSaved(backend, id));
}

function subscribeSaved(onChange: () => void): () => void {
  return savedVersion.subscribe(onChange);
}

/** The saved list, followed live (the header's count, the saved page): the same array until it changes. */
export function useSavedListings(backend: string): SavedListing[] {
  return useSyncExternalStore(subscribeSaved, () => readSaved(backend));
}

/** Saves or removes a listing; true when it is saved now. */
export function toggleSaved(backend: string, listing: Omit<SavedListing, 'savedAt'>): boolean {
  const items = readSaved(backend);
  if (items.some((i) => i.id === listing.id)) {
    write(backend, items.filter((i) => i.id !== listing.id));
    return false;
  }
  write(backend, [{ ...listing, savedAt: Date.now() }, ...items].slice(0, SAVED_MAX));
  return true;
}

export function removeSaved(backend: string, id: string): void {
  write(backend, readSaved(backend).filter((i) => i.id !== id));
}

// another tab saved or removed: follow it
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (e) => {
    if (e.key === null || e.key.startsWith('exp-saved:')) savedVersion.value++;
  });
}
