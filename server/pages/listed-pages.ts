/**
 * The built pages whose element the server fills with its first answer, so that a crawler, a link
 * preview and a visitor without JavaScript read what the element lists, and the element starts from
 * it: the search's pages (search-results.tsx), the agents' directory (agent-list.tsx) and the home
 * page's featured listings (featured-list.tsx). When the data cannot be read, the page comes
 * without it (`fill`, the one place that says so).
 */
import type { Lang } from '../../core/lang.ts';
import type { RequestContext } from '../http/request-context.ts';
import { AGENTS_MARK, agentListHtml } from './agent-list.tsx';
import { FEATURED_MARK, featuredListHtml } from './featured-list.tsx';
import { toProperty } from './listing-page.tsx';
import type { PageKit } from './page-kit.ts';
import { placeHero, type Place, type Places } from './places.ts';
import { RESULTS_MARK, searchResultsHtml } from './search-results.tsx';
import type { PageResponse } from './send.ts';
import type { Row } from '../db/database.ts';
import { seriesQuery } from '../../core/protocol/search-state.ts';
import { placePath, slugify } from '../../core/routes.ts';

/** A built page as the server answers it at an address (page-handlers.ts staticPage), found (200) */
type BuiltPage = (
  page: string,
  route: string | null,
  lang: Lang,
  path: string,
  given?: (html: string) => string,
  query?: string,
  variant?: string,
) => PageResponse;

export function createListedPages(kit: PageKit, staticPage: BuiltPage, places: Places) {
  const { options, origin, siteTexts, siteData } = kit;
  /** The built page with `what` inside its element; without it when its data cannot be read now (the element then reads it). */
  const fill = async (
    page: PageResponse,
    mark: string,
    path: string,
    what: () => Promise<string>,
  ): Promise<PageResponse> => {
    let content = '';
    try {
      content = await what();
    } catch (error) {
      options.log?.(`[pages] ${path}: the element's first answer was left out (${(error as Error).message})`);
    }
    return { ...page, body: String(page.body).replace(mark, () => content) };
  };
  /** what the lists' listings are written with, in a language */
  const listings = (lang: Lang) => {
    const t = siteTexts().t(lang);
    const mediaBase = options.mediaBase();
    return { t, lang, toProperty: (row: Row) => toProperty(row, { t, mediaBase }) };
  };
  const pages = {
    /** A search page, the search's own or a place's (`place`), with the first results of the search its address starts. */
    search(
      lang: Lang,
      path: string,
      params: URLSearchParams,
      route: string | null,
      request?: RequestContext,
      place?: Place,
      /** the place's city is the search's preset (its own page); not where the address names the city itself */
      preset = true,
    ): Promise<PageResponse> {
      // the search the page starts at without filters of the address: the place's city
      const presets = preset && place?.city ? { city: place.city } : {};
      // a place's hero, or the search's own of homes for rent or new developments (the built one is of homes for sale)
      const operation = params.get('operation');
      const other = operation === 'rent' || operation === 'project' ? operation : '';
      const page = staticPage(
        'search-properties.html',
        route,
        lang,
        path,
        place || other ? placeHero(place, other, preset) : undefined,
        seriesQuery(params, presets),
        // (kept apart from the place's own page, whose search starts at its city)
        preset ? other : `${other}|city-in-address`,
      );
      return fill(page, RESULTS_MARK, path, () =>
        searchResultsHtml(siteData(request), params, presets, { ...listings(lang), path, origin: origin() }),
      );
    },
    /**
     * /search-properties?city=Cuenca (the address the search keeps, and so a link a visitor shares):
     * a city that has a page of its own is written as that page is, its hero, title and description
     * naming it, and that page its canonical address; any other, the search's own page.
     */
    async searchAddress(
      lang: Lang,
      path: string,
      params: URLSearchParams,
      route: string | null,
      request?: RequestContext,
    ): Promise<PageResponse> {
      const city = params.get('city')?.trim().slice(0, 120);
      const found =
        city && !params.has('place') ? await places.find(slugify(city), request).catch(() => undefined) : undefined;
      return found
        ? pages.search(lang, path, params, placePath(found.place.slug), request, found.place, false)
        : pages.search(lang, path, params, route, request);
    },
    /** The home page, with the featured block's newest listings. */
    home(lang: Lang, path: string, route: string | null, request?: RequestContext): Promise<PageResponse> {
      const page = staticPage('index.html', route, lang, path);
      return fill(page, FEATURED_MARK, path, () => featuredListHtml(siteData(request), listings(lang)));
    },
    /** The agents' directory, with its agents. */
    directory(lang: Lang, path: string, route: string | null, request?: RequestContext): Promise<PageResponse> {
      const page = staticPage('findanagent.html', route, lang, path);
      return fill(page, AGENTS_MARK, path, () =>
        agentListHtml(siteData(request), { t: siteTexts().t(lang), lang, mediaBase: options.mediaBase() }),
      );
    },
  };
  return pages;
}
