/**
 * The Content-Security-Policy of every HTML page the server sends (docs/architecture.md "Security
 * headers"). Scripts run only from our own origin, the page's own inline scripts by their hashes
 * (the boot script that picks the language; a demo's), and the two third-party widgets the site
 * places (core/site.ts); styles only ours and the page's inline ones by their hashes; data is
 * fetched only from our own origin and the API the pages read (SITE_API_URL); nothing may frame a
 * page but the site itself. Pictures and videos may come from anywhere a feed keeps them (img-src,
 * media-src), which runs no code. The hashes are made from the page as sent, so a template that
 * changes needs nothing else changed.
 */
import { createHash } from 'node:crypto';
import { SITE } from '../../core/site.ts';

export interface CspSources {
  /** origins the pages' elements fetch data from besides our own (SITE_API_URL's) */
  connect: string[];
  /** origins scripts may come from besides our own (the bundle's second origin of the demos) */
  scripts: string[];
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

export function pagePolicy(html: string, sources: CspSources): string {
  const { scripts, styles } = inlineHashes(html);
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
