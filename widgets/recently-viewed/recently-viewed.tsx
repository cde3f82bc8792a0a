/**
 * <exp-recently-viewed> (docs/product.md §2, "Recently viewed"): the listings the visitor opened
 * last in this browser, newest first, as links to their pages; nothing when there are none.
 */
import type { ElementProps } from '../lib/element.tsx';
import { RecentlyViewedRow } from '../lib/saved/recent-row.tsx';
import type { recentlyViewedAttributes } from './recently-viewed.attributes.ts';

export function RecentlyViewed({ max, showTitle, layout }: ElementProps<typeof recentlyViewedAttributes>) {
  return <RecentlyViewedRow max={max} showTitle={showTitle} layout={layout === 'grid' ? 'grid' : 'row'} />;
}
