/**
 * The places a place page (/search-properties/{place}) exists for (docs/decisions.md #4, #24): the
 * search hero's known locations, and every city with active listings. Anything else is a 404, so
 * a made-up address is never a page a crawler indexes or a server remembers. A known place under
 * another spelling ('Cumbay%C3%A1', 'QUITO', 'bahia_de_caraquez') answers 301 to its one slug.
 */
import { slugify } from '../../core/routes.ts';
import { attrs } from '../../core/protocol/html.ts';
import {
  SEARCH_HERO_END,
  SEARCH_HERO_START,
  searchHero,
  searchHeroHtml,
  withSearchHead,
} from '../../core/search-hero.ts';
import { findLocation, type KnownLocation } from '../../core/locations.ts';
import type { RequestContext } from '../http/request-context.ts';
import type { SiteData } from './site-data.ts';

export interface Place {
  slug: string;
  /** a known location of the hero (its own texts: site.locations.{slug}.*) */
  known?: KnownLocation;
  /** the city the place's search filters by (none for the spec's sample neighbourhoods) */
  city?: string;
  /** active listings there, when the data says */
  listings?: number;
}

export type PlaceLookup = { place: Place; canonical: boolean } | undefined;

export interface Places {
  /** the place a path segment names, and whether the segment is its canonical slug */
  find(segment: string, request?: RequestContext): Promise<PlaceLookup>;
  /** every city with active listings, by slug (for the sitemap) */
  cities(request?: RequestContext): Promise<Map<string, Place>>;
}

/** Read once in `ttlMs` for every page, by whoever asks first (its client's share pays for it). */
export function createPlaces(data: (request?: RequestContext) => SiteData, ttlMs = 5 * 60_000): Places {
  let cached: { at: number; value: Promise<Map<string, Place>> } | undefined;
  const cities = (request?: RequestContext): Promise<Map<string, Place>> => {
    if (!cached || Date.now() - cached.at > ttlMs) {
      const value = data(request)
        .cities()
        .then((rows) => {
          const bySlug = new Map<string, Place>();
          for (const row of rows) {
            const slug = slugify(row.city);
            const seen = bySlug.get(slug);
            // two spellings of one city ('Cumbayá', 'Cumbaya'): the one with more listings names it
            if (slug && (!seen || (seen.listings ?? 0) < row.listings))
              bySlug.set(slug, { slug, city: row.city, listings: row.listings });
          }
          return bySlug;
        });
      cached = { at: Date.now(), value };
      value.catch(() => {
        if (cached?.value === value) cached = undefined;
      });
    }
    return cached.value;
  };
  return {
    cities,
    async find(segment, request) {
      let decoded: string;
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        return undefined;
      }
      if (decoded.length > 120) return undefined;
      const slug = slugify(decoded);
      if (!slug) return undefined;
      // the hero's own places need no lookup (their page stands while the database is away)
      const known = findLocation(slug);
      if (known)
        return { place: { slug, known, ...(known.city ? { city: known.city } : {}) }, canonical: segment === slug };
      const fromData = (await cities(request)).get(slug);
      return fromData ? { place: fromData, canonical: segment === slug } : undefined;
    },
  };
}

/**
 * /search-properties/cumbaya: the hero of the place (core/search-hero.ts, as the page script makes
 * it on the next search) where the built page has the search's own, its title and description in the
 * head, and the search set to the city; with no place, the search's own hero of homes for rent or of
 * new developments (`?operation=rent`), which the built page (homes for sale) is not.
 */
export const placeHero =
  (place: Place | undefined, operation?: string | null, preset = true) =>
  (html: string) => {
    const start = html.indexOf(SEARCH_HERO_START);
    const end = html.indexOf(SEARCH_HERO_END);
    if (start < 0 || end < start)
      throw new Error('search-properties.html has no hero to replace (<!--exp:search-hero-->)');
    const hero = searchHero({
      known: place?.known,
      name: place ? (place.city ?? place.slug) : undefined,
      market: place?.city ? slugify(place.city) : undefined,
      operation,
    });
    const out = withSearchHead(
      html.slice(0, start) + searchHeroHtml(hero) + html.slice(end + SEARCH_HERO_END.length),
      hero,
    );
    return preset && place?.city
      ? out.replace('<exp-property-search ', () => `<exp-property-search${attrs({ city: place.city })} `)
      : out;
  };
