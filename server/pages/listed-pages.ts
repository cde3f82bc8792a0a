/**
 * The built pages whose element the server fills with its first answer, so that a crawler, a link
 * preview and a visitor without JavaScript read what the element lists, and the element starts from
 * it: the search's pages (search-results.tsx), the agents' directory (agent-list.tsx) and the home
 * page's featured listings (featured-list.tsx). When the
 * data cannot be read, the page comes without it.
 */
import type { Lang } from '../../core/lang.ts';
import type { RequestContext } from '../http/request-context.ts';
import { AGENTS_MARK, agentListHtml } from './agent-list.tsx';
import { FEATURED_MARK, featuredListHtml } from './featured-list.tsx';
import { toProperty } from './listing-page.tsx';
import type { PageKit } from './page-kit.ts';
import { placeHero, type Place } from './places.ts';
import { RESULTS_MARK, searchResultsHtml } from './search-results.tsx';
import type { PageResponse } from './send.ts';

/** A built page as the server answers it at an address (page-handlers.ts staticPage), found (200) */
type BuiltPage = (
  page: string,
  route: string | null,
  lang: Lang,
  path: string,
  given?: (html: string) => string,
) => PageResponse;

export function createListedPages(kit: PageKit, staticPage: BuiltPage) {
  const { options, origin, siteTexts, siteData } = kit;
  const fill = (page: PageResponse, mark: string, content: string): PageResponse => ({
    ...page,
    body: String(page.body).replace(mark, () => content),
  });
  return {
    /** A search page, the search's own or a place's (`place`), with the first results of the search its address starts. */
    async search(
      lang: Lang,
      path: string,
      params: URLSearchParams,
      route: string | null,
      request?: RequestContext,
      place?: Place,
    ): Promise<PageResponse> {
      const page = staticPage('search-properties.html', route, lang, path, place && placeHero(place));
      const t = siteTexts().t(lang);
      const mediaBase = options.mediaBase();
      const results = await searchResultsHtml(
        siteData(request),
        params,
        place?.city ? { city: place.city } : {},
        { t, lang, path, origin: origin(), toProperty: (row) => toProperty(row, { t, mediaBase }) },
        options.log,
      );
      return fill(page, RESULTS_MARK, results);
    },
    /** The home page, with the featured block's newest listings. */
    async home(lang: Lang, path: string, route: string | null, request?: RequestContext): Promise<PageResponse> {
      const page = staticPage('index.html', route, lang, path);
      const t = siteTexts().t(lang);
      const mediaBase = options.mediaBase();
      const list = await featuredListHtml(
        siteData(request),
        { t, lang, path, toProperty: (row) => toProperty(row, { t, mediaBase }) },
        options.log,
      );
      return fill(page, FEATURED_MARK, list);
    },
    /** The agents' directory, with its agents. */
    async directory(lang: Lang, path: string, route: string | null, request?: RequestContext): Promise<PageResponse> {
      const page = staticPage('findanagent.html', route, lang, path);
      const list = await agentListHtml(
        siteData(request),
        { t: siteTexts().t(lang), lang, mediaBase: options.mediaBase(), path },
        options.log,
      );
      return fill(page, AGENTS_MARK, list);
    },
  };
}
