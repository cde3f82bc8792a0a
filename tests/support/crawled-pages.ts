/**
 * The site's pages as crawlers and link previews read them (docs/decisions.md #18), for the suites
 * of tests/contract/pages-*.test.ts: plain HTTP with the user agents of WhatsApp, Facebook's preview
 * crawler and Googlebot, no redirect followed and no script run, and what they read of a page (its
 * meta tags, links, JSON-LD and text); the server those suites crawl, and a listing of its seed
 * complete enough that its page says everything a listing's page can.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Window } from 'happy-dom';
import { hasText, translate, type Dict } from '../../core/translate.ts';
import { startTestServer, type TestServer } from './servers.ts';

export const CRAWLERS = {
  whatsapp: 'WhatsApp/2.23.20.0 A',
  facebook: 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  google:
    'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
} as const;

// an active listing with a page of its own (a new development's listing is its project's page: docs/projects.md)
export const ACTIVE = "status = '1' and country_code = 'EC' and operation <> 'project'";

interface Fetched {
  status: number;
  headers: Headers;
  html: string;
  doc: Document;
}

/** HTML as a crawler reads it: parsed, no script run, nothing it links to loaded. */
export function parseHtml(html: string): Document {
  const window = new Window({
    settings: {
      disableJavaScriptEvaluation: true,
      disableJavaScriptFileLoading: true,
      disableCSSFileLoading: true,
      disableIframePageLoading: true,
    },
  });
  return new window.DOMParser().parseFromString(html, 'text/html') as unknown as Document;
}

/** The page as a crawler gets it: no redirects followed, no script run. */
export async function crawl(url: string, ua: string = CRAWLERS.google): Promise<Fetched> {
  const res = await fetch(url, { headers: { 'User-Agent': ua, Accept: 'text/html' }, redirect: 'manual' });
  const html = await res.text();
  return { status: res.status, headers: res.headers, html, doc: parseHtml(html) };
}

export const meta = (doc: Document, key: string) =>
  doc.querySelector(`meta[property="${key}"], meta[name="${key}"]`)?.getAttribute('content') ?? null;
export const link = (doc: Document, rel: string, hreflang?: string) =>
  doc.querySelector(`link[rel="${rel}"]${hreflang ? `[hreflang="${hreflang}"]` : ''}`)?.getAttribute('href') ?? null;
export const jsonLd = (doc: Document) =>
  [...doc.querySelectorAll('script[type="application/ld+json"]')].map(
    (s) => JSON.parse(s.textContent ?? 'null') as Record<string, unknown>,
  );
export const text = (doc: Document) => (doc.body?.textContent ?? '').replace(/\s+/g, ' ');

/** A text of a locale file as written (placeholders unfilled); undefined when it has none. */
export const lookup = (dict: Dict, key: string): string | undefined =>
  hasText(dict, key) ? translate(dict, key) : undefined;

export type CompleteListing = {
  id: string;
  title: string;
  price: string;
  address: string;
  city: string;
  description: string;
  bedrooms: number;
  bathrooms: string;
  square_feet: string;
  agent_first_name: string;
  agent_last_name: string;
};

/**
 * Our server with its preview images cached in a directory of its own and at most 400 addresses a
 * sitemap file, and the first complete listing of the seed; `close` stops the server and removes
 * the cache.
 */
export async function startCrawledSite(): Promise<{
  server: TestServer;
  listing: CompleteListing;
  close(): Promise<void>;
}> {
  const cacheDir = mkdtempSync(join(tmpdir(), 'exp-og-'));
  const server = await startTestServer('postgres', { site: { imageCacheDir: cacheDir, sitemapUrlsPerFile: 400 } });
  const close = async () => {
    await server.close();
    rmSync(cacheDir, { recursive: true, force: true });
  };
  const [row] = await server.sql<CompleteListing>(
    `select id::text as id, title, price::text as price, address, city, description, bedrooms, bathrooms::text as bathrooms, square_feet::text as square_feet, agent_first_name, agent_last_name
       from internal.listings where ${ACTIVE} and title is not null and description is not null and agent_first_name is not null and bedrooms > 0 and title !~ '[<>&"]' order by id limit 1`,
  );
  if (!row) {
    await close();
    throw new Error('the seed has no complete listing');
  }
  return { server, listing: row, close };
}
