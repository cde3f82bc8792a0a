/**
 * The Content-Security-Policy of every HTML page the server sends (docs/architecture.md "Security
 * headers"). Scripts run only from our own origin, the inline scripts we wrote by their hashes (the
 * boot script that picks the language; a demo's), and the two third-party widgets the site places
 * (core/site.ts); styles only ours and the inline ones we wrote by their hashes; data is fetched
 * only from our own origin and the API the pages read (SITE_API_URL); nothing may frame a page but
 * the site itself. Pictures and videos may come from anywhere a feed keeps them (img-src,
 * media-src), which runs no code. "The inline ones we wrote" are those of the built pages (the
 * site's and the demos', read once from the built site: ourInlineCode): a script or style that
 * reached a page any other way (a value that escaped its escaping) is not hashed, so it never runs.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SITE } from '../../core/site.ts';

export interface CspSources {
  /** origins the pages' elements fetch data from besides our own (SITE_API_URL's) */
  connect: string[];
  /** origins scripts may come from besides our own (the bundle's second origin of the demos) */
  scripts: string[];
  /** the hashes of the inline scripts and styles we wrote (ourInlineCode); none: no inline code runs */
  inline?: InlineCode;
}

export interface InlineCode {
  scripts: ReadonlySet<string>;
  styles: ReadonlySet<string>;
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const originOf = (url: string) => new URL(url).origin;

/** The widgets' hosts (core/site.ts): their scripts, and what they frame and fetch. */
const WIDGET_SCRIPTS = [SITE.external.socialWidget, SITE.external.webinarWidget].map(originOf);
const WIDGET_FRAMES = [originOf(SITE.external.webinar), ...WIDGET_SCRIPTS];

/** A script element's type that the browser runs (a data block such as JSON-LD it does not). */
const RUNS = /^(|text\/javascript|application\/javascript|module)$/i;

/** The inline scripts and style elements of a page, as the browser hashes them (their text as written). */
function inlineHashes(html: string): { scripts: string[]; styles: string[] } {
  const scripts: string[] = [];
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const attrs = m[1] ?? '';
    if (/\ssrc\s*=/i.test(attrs)) continue;
    const type = /\stype\s*=\s*["']?([^"'\s>]*)/i.exec(attrs)?.[1] ?? '';
    if (RUNS.test(type)) scripts.push(sha256(m[2] ?? ''));
  }
  const styles = [...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style\s*>/gi)].map((m) => sha256(m[1] ?? ''));
  return { scripts: [...new Set(scripts)], styles: [...new Set(styles)] };
}

/**
 * The inline code of the built pages in `siteDir` and its demo/ folder: what we wrote, as the build
 * wrote it (the server fills data into these pages, never code). Asked for at every page; the
 * folder is looked at again at most every `recheckMs` (a build under a running server is seen
 * within that time), not at every page: listing it and its files' times was 130 µs of each.
 */
export function ourInlineCode(siteDir: string, { recheckMs = 2000 } = {}): InlineCode {
  const known = inlineCodeCache.get(siteDir);
  const now = performance.now();
  if (known && now - known.checkedAt < recheckMs) return known.code;
  const files = [siteDir, join(siteDir, 'demo')].flatMap((dir) =>
    existsSync(dir)
      ? readdirSync(dir)
          .filter((f) => f.endsWith('.html'))
          .map((f) => join(dir, f))
      : [],
  );
  // read again only when a build changed a page (`npm run build` under a running server; `npm run dev`
  // serves its pages from Vite, not from here)
  const signature = files.map((f) => `${f}:${statSync(f).mtimeMs}`).join('|');
  if (known?.signature === signature) {
    known.checkedAt = now;
    return known.code;
  }
  const scripts = new Set<string>();
  const styles = new Set<string>();
  for (const file of files) {
    const found = inlineHashes(readFileSync(file, 'utf8'));
    for (const h of found.scripts) scripts.add(h);
    for (const h of found.styles) styles.add(h);
  }
  const code = { scripts, styles };
  inlineCodeCache.set(siteDir, { signature, code, checkedAt: now });
  return code;
}
const inlineCodeCache = new Map<string, { signature: string; code: InlineCode; checkedAt: number }>();

export function pagePolicy(html: string, sources: CspSources): string {
  const found = inlineHashes(html);
  // only what we wrote: an inline script or style of this page that no built page has is left out
  const scripts = found.scripts.filter((h) => sources.inline?.scripts.has(h));
  const styles = found.styles.filter((h) => sources.inline?.styles.has(h));
  const list = (...items: string[]) => [...new Set(items.filter(Boolean))].join(' ');
  return [
    "default-src 'self'",
    `script-src ${list("'self'", ...scripts, ...sources.scripts, ...WIDGET_SCRIPTS)}`,
    `style-src ${list("'self'", ...styles)}`,
    'img-src * data: blob:',
    'media-src * blob:',
    "font-src 'self' data:",
    `connect-src ${list("'self'", ...sources.connect, ...sources.scripts, ...WIDGET_SCRIPTS)}`,
    `frame-src ${list(...WIDGET_FRAMES)}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join('; ');
}
