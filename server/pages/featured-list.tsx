/**
 * The home page's featured block in its HTML (docs/product.md "Home"): the block's heading, its
 * newest listings as links to their pages and "View all", and the answer itself (a JSON script),
 * which <exp-featured-listings> starts from instead of asking again (core/protocol/featured.ts). A
 * crawler, a link preview and a visitor without JavaScript read it; the element, loaded when the
 * block comes near, then draws its own cards.
 */
import type { Lang } from '../../core/lang.ts';
import {
  FEATURED_ANSWER_MARK,
  FEATURED_LIMIT,
  featuredFilters,
  type FeaturedAnswer,
  type FeaturedQuestion,
} from '../../core/protocol/featured.ts';
import type { Property } from '../../core/protocol/listing.ts';
import { searchArgs } from '../../core/protocol/search-args.ts';
import { localizedPath } from '../../core/routes.ts';
import type { Translate } from '../../core/translate.ts';
import type { Row } from '../db/database.ts';
import { PageAnswer, renderBody } from './html.tsx';
import { ListingTile } from './listing-tile.tsx';
import type { SiteData } from './site-data.ts';

/** Where the element's own content goes in index.html. */
export const FEATURED_MARK = '<!--exp:featured-->';

/** The block as the home page places it: every attribute its default. */
const HOME_QUESTION: FeaturedQuestion = { community: '', operation: 'sale', limit: FEATURED_LIMIT };

/** The block as HTML for inside the element (its data call may fail: listed-pages.ts). */
export async function featuredListHtml(
  data: SiteData,
  ctx: { t: Translate; lang: Lang; toProperty: (row: Row) => Property },
): Promise<string> {
  const rows = await data.listingsPage(searchArgs(featuredFilters(HOME_QUESTION), 'newest', 1, HOME_QUESTION.limit));
  const { t, lang } = ctx;
  const answer: FeaturedAnswer = { ...HOME_QUESTION, rows };
  return renderBody(
    <>
      <section className="similar featured-list" aria-labelledby="featured-list-heading">
        <h2 id="featured-list-heading">{t('featured.heading')}</h2>
        <p className="featured-list__lead">{t('featured.subtitle')}</p>
        {rows.length ? (
          <ul className="listing-tiles">
            {rows.map(ctx.toProperty).map((p) => (
              <ListingTile key={p.id} p={p} t={t} lang={lang} inElement />
            ))}
          </ul>
        ) : (
          <p>{t('featured.empty')}</p>
        )}
        <p>
          <a className="btn btn--outline" href={localizedPath('/search-properties', lang)}>
            {t('featured.viewAll')}
          </a>
        </p>
      </section>
      <PageAnswer mark={FEATURED_ANSWER_MARK} value={answer} />
    </>,
  ).body;
}
