/**
 * The site's addresses, one rule for the server (which answers them) and the widgets (which link
 * to them): English at the plain path, Spanish under /es (docs/decisions.md #18), and a page per
 * listing at /properties/{id}-{slug}.
 */
import type { Lang } from './lang.ts';
import { fold } from './protocol/text.ts';


/** 'Bahía de Caráquez', 'bahia_de_caraquez', ' QUITO ' -> 'bahia-de-caraquez', 'quito' */
export function slugify(text: string): string {
  return fold(text)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
}

/**
 * A path as the site reads it, the only form any address we link to or redirect to is built from:
 * a backslash reads as a slash (browsers read it so), a run of slashes as one, and control
 * characters and whitespace are dropped (browsers drop tabs and line breaks from addresses), so it
 * begins with exactly one '/' and can never name another host ('//evil.com', '/\\evil.com',
 * '/\t/evil.com'). URL pathnames arrive with '.' and '..' segments already resolved.
 */
export function cleanPath(path: string): string {
  return `/${path}`.replace(/[\u0000-\u0020\u007f]+/g, '').replace(/[\\/]+/g, '/');
}

/**
 * `target` when it is a path on our own origin (what a `Location` or a `location.replace()` may
 * carry), else '/': one leading slash followed by something other than a slash or backslash, no
 * control characters or whitespace, and resolving to the same origin.
 */
export const SAME_ORIGIN_PATH = /^\/(?![\\/])[^\u0000-\u0020\u007f]*$/;

export function sameOriginPath(target: string): string {
  if (!SAME_ORIGIN_PATH.test(target)) return '/';
  try {
    return new URL(target, 'http://origin.invalid').origin === 'http://origin.invalid' ? target : '/';
  } catch {
    return '/';
  }
}

/** The language of a path and the path (cleaned) without its language prefix. */
export function splitLangPath(path: string): { lang: Lang; path: string } {
  const clean = cleanPath(path);
  if (clean === '/es' || clean.startsWith('/es/')) return { lang: 'es', path: clean.slice(3) || '/' };
  return { lang: 'en', path: clean };
}

/** A site path in a language: '/about' -> '/es/about'; '/' -> '/es'; '/es//evil.com' -> '/evil.com'. */
export function localizedPath(path: string, lang: Lang): string {
  const plain = splitLangPath(path).path;
  if (lang === 'en') return plain;
  return plain === '/' ? '/es' : `/es${plain}`;
}

/** The other language's address of a page: what the language switch and the boot script go to. */
export function twinPath(path: string): string {
  const { lang, path: plain } = splitLangPath(path);
  return localizedPath(plain, lang === 'es' ? 'en' : 'es');
}

/** A listing's page: /properties/1811-casa-en-cumbaya (and /es/properties/... in Spanish). */
export function listingPath(id: string | number, title: string | null | undefined, lang: Lang = 'en'): string {
  const slug = slugify(title ?? '');
  return localizedPath(`/properties/${encodeURIComponent(String(id))}${slug ? `-${slug}` : ''}`, lang);
}

/** The id and slug of a listing page's path (without its language prefix), or null. */
export function parseListingPath(path: string): { id: string; slug: string } | null {
  const m = /^\/properties\/(\d{1,15})(?:-([a-z0-9-]{0,100}))?$/.exec(path);
  return m ? { id: m[1] as string, slug: m[2] ?? '' } : null;
}
