/**
 * A search page's first results in its HTML (docs/product.md "In the page's HTML"): the page of listings
 * the search element will show first, the same call with the same arguments (the address's search
 * over the element's presets: core/protocol/search-state.ts), written inside the element as links to
 * the listings' pages, with the count and the way to the next page. A crawler, a link preview and a
 * visitor without JavaScript read them, and the JSON-LD of the list, which the element then keeps. The
 * answer itself comes along (a JSON script), so the element draws its first page without asking for it;
 * until then a visitor with JavaScript sees the list (widgets/lib/element.tsx shows an element's own
 * content until its first commit).
 */
import type { Lang } from '../../core/lang.ts';
import type { SearchFilters } from '../../core/protocol/filters.ts';
import { formatCount } from '../../core/protocol/format.ts';
import { monthUnit, type Property } from '../../core/protocol/listing.ts';
import { STRUCTURED_DATA_MARK } from '../../core/protocol/structured-data-mark.ts';
import { jsonLdText, listingsJsonLd } from '../../core/protocol/structured-data.ts';
import { listingPagePath } from '../../core/routes.ts';
import {
  PAGE_SIZE,
  SEARCH_ANSWER_MARK,
  searchArgs,
  searchFiltersKey,
  showingRange,
  startingSearch,
  totalPages,
  writeSearchParams,
  type EmbeddedSearchAnswer,
  type SearchState,
} from '../../core/protocol/search-state.ts';
import type { Translate } from '../../core/translate.ts';
import type { Row } from '../db/database.ts';
import { PageAnswer, renderBody } from './html.tsx';
import { ListingTile } from './listing-tile.tsx';
import type { SiteData } from './site-data.ts';

/** Where the element's own content goes in search-properties.html. */
export const RESULTS_MARK = '<!--exp:results-->';

export interface SearchResultsContext {
  t: Translate;
  lang: Lang;
  /** the page's path, which its pages of results keep */
  path: string;
  toProperty: (row: Row) => Property;
  /** the public site, for the JSON-LD's absolute links */
  origin: string;
}

/** The results of the search an address starts, as HTML for inside the element (its data call may fail: listed-pages.ts). */
export async function searchResultsHtml(
  data: SiteData,
  params: URLSearchParams,
  presets: SearchFilters,
  ctx: SearchResultsContext,
): Promise<string> {
  const search = startingSearch(params, presets);
  const answer = await data.search(searchArgs(search.filters, search.sort, search.page));
  const listings = answer.rows.map(ctx.toProperty);
  // the JSON-LD the element writes for what it shows (structured-data="true"), which it then keeps
  const jsonLd = listingsJsonLd(
    listings,
    (p) => ctx.origin + listingPagePath(p, ctx.lang),
    (search.page - 1) * PAGE_SIZE,
    monthUnit(ctx.t),
  );
  return renderBody(
    <>
      <SearchResults search={search} total={answer.total} listings={listings} ctx={ctx} />
      {/* the answer itself, which the element starts from instead of asking again */}
      <PageAnswer
        mark={SEARCH_ANSWER_MARK}
        value={
          {
            filtersKey: searchFiltersKey(search.filters),
            sort: search.sort,
            page: search.page,
            total: answer.total,
            rows: answer.rows,
          } satisfies EmbeddedSearchAnswer
        }
      />
      {jsonLd ? (
        <script
          type="application/ld+json"
          {...{ [STRUCTURED_DATA_MARK]: '' }}
          dangerouslySetInnerHTML={{ __html: jsonLdText(jsonLd) }}
        />
      ) : null}
    </>,
  ).body;
}

function SearchResults({
  search,
  total,
  listings,
  ctx,
}: {
  search: SearchState;
  total: number;
  listings: Property[];
  ctx: SearchResultsContext;
}) {
  const { t, lang } = ctx;
  const pages = totalPages(total, PAGE_SIZE);
  const [from, to] = showingRange(search.page, PAGE_SIZE, total);
  const pageHref = (page: number) => {
    const query = writeSearchParams(new URLSearchParams(), { ...search, page, property: undefined }).toString();
    return query ? `${ctx.path}?${query}` : ctx.path;
  };
  return (
    <section className="search-list" aria-labelledby="search-list-heading">
      <h2 id="search-list-heading">
        {t('results.count', {
          count: total,
          formatted: formatCount(total),
          context: search.filters.operation === 'project' ? 'project' : undefined,
        })}
      </h2>
      <p className="search-list__showing">
        {listings.length > 0
          ? t('results.showing', { from: formatCount(from), to: formatCount(to), total: formatCount(total) })
          : t('results.empty.text')}
      </p>
      {listings.length > 0 ? (
        <ul className="listing-tiles">
          {listings.map((p) => (
            <ListingTile key={p.id} p={p} t={t} lang={lang} inElement />
          ))}
        </ul>
      ) : null}
      {pages > 1 ? (
        <nav className="search-list__pages" aria-label={t('pagination.label')}>
          {search.page > 1 ? (
            <a className="btn btn--outline" rel="prev" href={pageHref(Math.min(search.page - 1, pages))}>
              {t('pagination.previous')}
            </a>
          ) : null}
          {search.page < pages ? (
            <a className="btn btn--outline" rel="next" href={pageHref(search.page + 1)}>
              {t('pagination.next')}
            </a>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}
