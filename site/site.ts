/**
 * The host site's one script: static texts that follow the language live, background videos, the
 * search hero's location, the seller's area for the directory on /sell, the third-party blocks, the canonical address after a switch. The server writes each page in its language, with
 * its canonical address and alternates (server/pages/); the pages work without this script (posters
 * instead of videos); the elements bring everything else.
 */
import './site.css';
import './written.css';
import { SITE } from '../core/site.ts';
import { marketPath, siteRoute, slugify, splitLangPath } from '../core/routes.ts';
import { heroLocation, findLocation, type KnownLocation } from '../core/locations.ts';
import { searchHero } from '../core/search-hero.ts';
import { parsePlace } from '../core/protocol/place-path.ts';
import { setVideo, startVideos } from './lib/media.ts';
import { setAttrText, setText, startTexts } from './lib/texts.ts';
import { loadWidget } from './lib/third-party.ts';

const page = document.body.dataset.page ?? '';
/** this page's path without its language prefix (/es/about -> /about) */
const path = splitLangPath(location.pathname).path;

function searchPage(): void {
  const hero = document.querySelector<HTMLElement>('[data-search-hero]');
  const search = document.querySelector('exp-property-search');
  if (!hero) return;
  const title = hero.querySelector('[data-hero-title]');
  const subtitle = hero.querySelector('[data-hero-subtitle]');
  const film = hero.querySelector<HTMLImageElement>('img[data-video]');
  const market = hero.querySelector<HTMLElement>('[data-hero-market]');
  const marketLink = market?.querySelector('a');

  // a search of homes for rent or of new developments says so (docs/product.md "Rent and buy")
  let operation = new URLSearchParams(location.search).get('operation');
  /** the hero of a known location, or of a place picked in the location box by its words (core/search-hero.ts, as the server writes it) */
  const show = (known: KnownLocation | undefined, placeName?: string, placePath?: string) => {
    const d = searchHero({ known, name: placeName, market: known?.city ? slugify(known.city) : placePath, operation });
    void setText(title, d.title.key, d.title.params);
    void setText(subtitle, d.subtitle.key, d.subtitle.params);
    // the head says the place too (a bookmark, a shared link): as the server writes a place's page
    void setText(document.querySelector('title'), d.head.title.key, d.head.title.params);
    void setAttrText(
      document.querySelector('meta[property="og:title"]'),
      'content',
      d.head.title.key,
      d.head.title.params,
    );
    for (const meta of document.querySelectorAll('meta[name="description"], meta[property="og:description"]'))
      void setAttrText(meta, 'content', d.head.description.key, d.head.description.params);
    if (film) setVideo(film, d.video);
    if (!market || !marketLink) return;
    market.hidden = !d.market;
    if (!d.market) return;
    marketLink.setAttribute('href', marketPath(d.market.place, document.documentElement.lang === 'es' ? 'es' : 'en'));
    void setText(marketLink, d.market.text.key, d.market.text.params);
  };

  const heroAt = heroLocation(path, location.search);
  if (heroAt.unknown)
    console.info(`[site] unknown search location ${JSON.stringify(heroAt.unknown)}: the default hero is shown`);
  let known = heroAt.known;
  if (known) {
    // /search-properties/quito searches Quito unless the address already says what to search
    const placed = /^\/search-properties\/[^/]+$/.test(path) || new URLSearchParams(location.search).has('location');
    if (placed && known.city && search && !new URLSearchParams(location.search).has('city'))
      search.setAttribute('city', known.city);
  }
  // a place picked in the location box (?place=quito/inaquito&placeName=...): its words, or the known city's hero
  const picked = (place: string | undefined, placeName: string | undefined) => {
    const parts = parsePlace(place);
    const city = parts && 'city' in parts && !parts.sector ? findLocation(parts.city) : undefined;
    return { known: city?.city ? city : undefined, name: parts ? placeName?.trim().slice(0, 80) : undefined };
  };
  const params = new URLSearchParams(location.search);
  const first = picked(params.get('place') ?? undefined, params.get('placeName') ?? undefined);
  let placeName = first.known ? undefined : first.name;
  known ??= first.known;
  if (known || placeName || operation) show(known, placeName, params.get('place') ?? undefined);
  // the hero follows the place or the city the visitor searches next
  document.addEventListener('exp-search', (e) => {
    const filters = (
      e as CustomEvent<{ filters: { city?: string; place?: string; placeName?: string; operation?: string } }>
    ).detail.filters;
    const place = picked(filters.place, filters.placeName);
    const next = place.known ?? (filters.city ? findLocation(filters.city) : undefined);
    const nextName = place.known ? undefined : place.name;
    const nextOperation = filters.operation ?? null;
    if (next?.slug === known?.slug && nextName === placeName && nextOperation === operation) return;
    operation = nextOperation;
    known = next?.city ? next : undefined;
    placeName = nextName;
    show(known, placeName, filters.place);
  });
}

function homePage(): void {
  const feed = document.querySelector<HTMLElement>('[data-social-feed]');
  if (feed) {
    loadWidget({
      container: feed,
      src: SITE.external.socialWidget,
      init: () => {
        // the vendor's global, when its script defines one
        (window as unknown as { eapps?: { init?: () => void } }).eapps?.init?.();
      },
      rendered: (c) => Boolean(c.querySelector('[data-widget] *, iframe')),
      onReady: () => {
        feed.dataset.state = 'ready';
      },
      onError: () => {
        feed.dataset.state = 'error';
        void setText(feed.querySelector('[data-feed-status]'), 'site.home.social.unavailable');
      },
    });
  }
  // 'learn more' on the about card also scrolls smoothly to the top before leaving
  for (const link of document.querySelectorAll<HTMLAnchorElement>('a[data-scroll-top]')) {
    link.addEventListener('click', () => window.scrollTo({ top: 0, behavior: 'smooth' }));
  }
}

function joinPage(): void {
  const card = document.querySelector<HTMLElement>('[data-webinar-widget]');
  if (!card) return;
  loadWidget({
    container: card,
    src: SITE.external.webinarWidget,
    rendered: (c) => Boolean(c.querySelector('iframe')),
    onError: () => {
      card.hidden = true;
    },
  });
}

/** /sell: once the valuation knows the home's place, the directory below lists the agents who serve it (docs/valuation.md). */
function sellPage(): void {
  const directory = document.querySelector('exp-agent-directory');
  if (!directory) return;
  document.addEventListener('exp-valuation-estimated', (e) => {
    const place = (e as CustomEvent<{ place: string | null }>).detail.place;
    if (place && directory.getAttribute('place') !== place) directory.setAttribute('place', place);
  });
}

function notFoundPage(): void {
  console.warn(`[site] 404: no page at ${JSON.stringify(location.pathname)}`);
}

function sharedPage(): void {
  const route = siteRoute(path);
  const key = route && 'part' in route ? route.part : 'buy';
  for (const el of document.querySelectorAll<HTMLElement>('[data-shared]')) el.hidden = el.dataset.shared !== key;
  void setText(document.querySelector('title'), 'site.meta.shared.titleFor', {
    page: { $t: `site.shared.${key}.title` },
  });
}

/** After a live switch the page's canonical address is its twin's, as the server writes it there. */
function followCanonical(): void {
  const canonical = document.querySelector('link[rel="canonical"]');
  if (!canonical) return;
  new MutationObserver(() => {
    const twin = document
      .querySelector(`link[rel="alternate"][hreflang="${document.documentElement.lang}"]`)
      ?.getAttribute('href');
    if (twin) canonical.setAttribute('href', twin);
  }).observe(document.documentElement, { attributes: true, attributeFilter: ['lang'] });
}

startVideos();
followCanonical();
const pages: Record<string, () => void> = {
  home: homePage,
  search: searchPage,
  join: joinPage,
  sell: sellPage,
  '404': notFoundPage,
  shared: sharedPage,
};
pages[page]?.();
void startTexts();
