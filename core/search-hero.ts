/**
 * The search page's hero (docs/product.md "The search page"), described once: its film, title,
 * subtitle and the link to the place's market report, for a known location (its name, subtitle
 * and film), a place picked in the location box (its words), or none; for sale or for rent. The
 * build writes the default hero's HTML from it (scripts/site-html.ts), the server a place's
 * (/search-properties/cumbaya: server/pages/page-handlers.ts), and the page script follows the
 * visitor's next search with it (site/site.ts).
 */
import type { KnownLocation } from './locations.ts';
import { attrs } from './protocol/html.ts';
import type { Lang } from './lang.ts';
import { marketPath } from './routes.ts';

/** A text of the locale files by its key, with its parameters (a `{ $t: key }` parameter is a text too). */
export interface HeroText {
  key: string;
  params?: Record<string, string | { $t: string }>;
}

export interface SearchHero {
  video: KnownLocation['video'];
  title: HeroText;
  subtitle: HeroText;
  /** the place's market report (docs/market.md): its place path (a city's slug, or a picked place's path) and the link's words; none: hidden */
  market: { place: string; text: HeroText } | null;
  /** the page's title and description (its head, a link preview's words): a place's page says its place */
  head: { title: HeroText; description: HeroText };
}

export interface HeroPlace {
  /** a known location: its own name, subtitle and film */
  known?: KnownLocation | undefined;
  /** else the words of the place searched (a city, a picked place) */
  name?: string | undefined;
  /** the place path of its market report, when it has one */
  market?: string | undefined;
  /** a search of homes for rent or of new developments says so (docs/product.md "Rent and buy", docs/projects.md) */
  operation?: string | null | undefined;
}

/** The hero of a place (none: the search's own). */
export function searchHero({ known, name, market, operation }: HeroPlace): SearchHero {
  // the texts of a sale ('title'), a rent ('rentTitle') or new developments ('projectTitle')
  const of = (key: 'title' | 'description') =>
    operation === 'rent' || operation === 'project' ? `${operation}${key[0]?.toUpperCase()}${key.slice(1)}` : key;
  const location = known
    ? { $t: `site.locations.${known.slug}.name` }
    : name?.trim()
      ? name.trim().slice(0, 80)
      : undefined;
  const titleKey = `site.search.hero.${of('title')}${location ? 'In' : ''}`;
  const inPlace = (key: string): HeroText => (location ? { key: `${key}In`, params: { location } } : { key });
  return {
    video: known?.video ?? 'quito',
    title: location ? { key: titleKey, params: { location } } : { key: titleKey },
    head: {
      title: inPlace(`site.meta.search.${of('title')}`),
      description: inPlace(`site.meta.search.${of('description')}`),
    },
    // a place's own words; else the search's (new developments say theirs)
    subtitle: {
      key: known
        ? `site.locations.${known.slug}.subtitle`
        : `site.search.hero.${operation === 'project' ? 'projectSubtitle' : 'subtitle'}`,
    },
    market:
      market && location ? { place: market, text: { key: 'site.search.hero.market', params: { location } } } : null,
  };
}

/** A film's poster (site/public/media/video/). */
export const posterPath = (video: string) => `/media/video/${video}-poster.webp`;

/**
 * A film's place in the page (a hero's, or a section's behind its text): its poster as an image, which
 * paints at once and is found by the browser's preload scanner; site/lib/media.ts puts the film over
 * it once the page has loaded. A `<video>` in the page's HTML would cost its first style and layout
 * the browser's media-controls tree, about 100 ms of a slow phone's (docs/benchmarks.md "Measured
 * apart"), for a film that only plays after the load, and never under reduced motion.
 */
export function filmHtml(video: string, where: 'top' | 'below' = 'top'): string {
  return `<img${attrs({
    class: 'hero__media',
    'data-video': video,
    src: posterPath(video),
    alt: '',
    width: 960,
    height: 540,
    ...(where === 'top' ? { fetchpriority: 'high' } : { loading: 'lazy', decoding: 'async' }),
  })} />`;
}

const textAttrs = (t: HeroText) => ({
  'data-i18n': t.key,
  'data-i18n-params': t.params ? JSON.stringify(t.params) : undefined,
});

/**
 * The hero's HTML, its texts as `data-i18n` keys that the build and the server fill in the page's
 * language; between two comments that mark where a page's own hero goes.
 */
export function searchHeroHtml(hero: SearchHero, lang: Lang = 'en'): string {
  const market = hero.market
    ? `<p class="hero__market" data-hero-market><a${attrs({ href: marketPath(hero.market.place, lang), 'data-market-link': true, ...textAttrs(hero.market.text) })}></a></p>`
    : '<p class="hero__market" data-hero-market hidden><a href="/market" data-market-link data-i18n="site.search.hero.marketAll"></a></p>';
  return [
    SEARCH_HERO_START,
    '<section class="hero hero--compact" data-search-hero aria-labelledby="hero-title">',
    `  ${filmHtml(hero.video)}`,
    '  <div class="hero__content">',
    `    <h1${attrs({ id: 'hero-title', 'data-hero-title': true, ...textAttrs(hero.title) })}></h1>`,
    `    <p${attrs({ class: 'hero__subtitle', 'data-hero-subtitle': true, ...textAttrs(hero.subtitle) })}></p>`,
    `    ${market}`,
    '  </div>',
    '</section>',
    SEARCH_HERO_END,
  ].join('\n');
}

/**
 * The page's head with the hero's title and description: the built page's own keys (the search's,
 * as `sitePage` writes them: scripts/site-html.ts) swapped for the hero's, with its parameters;
 * the server then writes them in the page's language (core/fill.ts).
 */
export function withSearchHead(html: string, hero: SearchHero): string {
  const marks = (t: HeroText) => attrs({ 'data-i18n-params': t.params ? JSON.stringify(t.params) : undefined });
  const swap = (from: string, to: string, t: HeroText) => {
    if (!html.includes(from)) throw new Error(`the search page has no ${from} to give the place's text`);
    html = html.replaceAll(from, () => `${to}${marks(t)}`);
  };
  const { title, description } = hero.head;
  swap('data-i18n="site.meta.search.title"', `data-i18n="${title.key}"`, title);
  swap('data-i18n-attr="content:site.meta.search.title"', `data-i18n-attr="content:${title.key}"`, title);
  swap(
    'data-i18n-attr="content:site.meta.search.description"',
    `data-i18n-attr="content:${description.key}"`,
    description,
  );
  return html;
}

/** Where a page's hero stands in the built page, for the server to put a place's in its stead. */
export const SEARCH_HERO_START = '<!--search-hero-->';
export const SEARCH_HERO_END = '<!--/search-hero-->';
