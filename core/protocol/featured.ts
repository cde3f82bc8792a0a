/**
 * The featured block (<exp-featured-listings>, docs/decisions.md #5): the newest active listings,
 * of one community or all, for sale or for rent. The filters it asks for, once for the element and
 * for the home page's HTML (server/pages/listed-pages.ts), which carries the block's first answer in
 * a `<script type="application/json">` with FEATURED_ANSWER_MARK inside the element; the element
 * starts from it when it answers the block's own question.
 */
import type { SearchFilters } from './filters.ts';

/** how many listings the block shows unless told */
export const FEATURED_LIMIT = 8;

export const FEATURED_ANSWER_MARK = 'data-exp-featured';

/** The block's question: its filters, newest first, `limit` of them. */
export interface FeaturedQuestion {
  community: string;
  operation: 'sale' | 'rent';
  limit: number;
}

export interface FeaturedAnswer extends FeaturedQuestion {
  rows: Array<Record<string, unknown>>;
}

export const featuredFilters = ({
  community,
  operation,
}: Omit<FeaturedQuestion, 'operation'> & { operation?: string }): SearchFilters => ({
  ...(community ? { city: community } : {}),
  ...(operation === 'rent' ? { operation } : {}),
});
