/**
 * <exp-featured-listings> (docs/product.md §2 home block; docs/decisions.md #5): the `limit` newest active
 * Ecuador listings, optionally of one community, as cards; a card opens the property detail with
 * the agent and the inquiry form; 'View all' opens the search, preset to that community.
 */
import { useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { getClients } from '../lib/data/client.ts';
import { getListingsPage } from '../lib/data/listings.ts';
import type { Operation } from '../../core/protocol/filters.ts';
import {
  FEATURED_ANSWER_MARK,
  featuredFilters,
  type FeaturedAnswer,
  type FeaturedQuestion,
} from '../../core/protocol/featured.ts';
import { useElement, type ElementProps } from '../lib/element.tsx';
import { emit } from '../lib/events.ts';
import { isRows, pageAnswer } from '../lib/page-answer.ts';
import { CardSkeletons, PropertyCard } from '../lib/listing/card.tsx';
import { listingDefaults, mapListing, type Property } from '../../core/protocol/listing.ts';
import { PropertyDialog } from '../lib/listing/lazy-property-dialog.tsx';
import { ChevronRight } from '../lib/ui/icons/chevron-right.tsx';
import type { featuredListingsAttributes } from './featured-listings.attributes.ts';

type Props = ElementProps<typeof featuredListingsAttributes>;

const GRID = 'list-none m-0 p-0 grid gap-5 cq-sm:grid-cols-2 cq-lg:grid-cols-4';

function viewAllUrl(searchUrl: string, community: string, operation: Operation = 'sale'): string {
  if (!community && operation === 'sale') return searchUrl;
  const [path, query = ''] = searchUrl.split('?') as [string, string?];
  const params = new URLSearchParams(query);
  if (operation === 'rent') params.set('operation', 'rent');
  if (community) params.set('city', community);
  return `${path}?${params}`;
}

/** The rows the page carries for this question, or undefined. */
function givenAnswer(host: HTMLElement, q: FeaturedQuestion): Array<Record<string, unknown>> | undefined {
  const a = pageAnswer(host, FEATURED_ANSWER_MARK) as FeaturedAnswer | undefined;
  return a?.community === q.community && a.operation === q.operation && a.limit === q.limit && isRows(a.rows)
    ? a.rows
    : undefined;
}

export function FeaturedListings(props: Props) {
  const { community, operation, limit, searchUrl } = props;
  const { t, api, host } = useElement();
  const place = community?.trim() ?? '';
  const question: FeaturedQuestion = { community: place, operation: operation === 'rent' ? 'rent' : 'sale', limit };
  // the home page carries the block's first answer (server/pages/listed-pages.ts): taken when it answers this question
  const [given] = useState(() => givenAnswer(host, question));
  const [state, setState] = useState<{ status: 'loading' | 'ready' | 'error'; rows: Record<string, unknown>[] }>({
    status: given ? 'ready' : 'loading',
    rows: given ?? [],
  });
  const [open, setOpen] = useState<Property | null>(null);
  const rest = getClients(api).rest;
  const first = useRef(Boolean(given));

  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const controller = new AbortController();
    setState({ status: 'loading', rows: [] });
    getListingsPage(
      rest,
      featuredFilters({ community: place, operation, limit }),
      'newest',
      1,
      controller.signal,
      limit,
    )
      .then((rows) => setState({ status: 'ready', rows }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('[exp-featured-listings] could not load the listings:', error);
        setState({ status: 'error', rows: [] });
      });
    return () => controller.abort();
  }, [rest, place, limit, operation]);

  const defaults = useMemo(() => listingDefaults(t), [t]);
  // the cards render in the background (time-sliced, as the search's do): the skeletons stay until they are made
  const shown = useDeferredValue(state);
  const properties = useMemo(
    () => shown.rows.map((r) => mapListing(r, api.url, defaults)),
    [shown.rows, api.url, defaults],
  );
  const openProperty = (property: Property) => {
    // a host page may handle the listing itself (follow the link, its own page)
    if (emit(host, 'exp-property-open', { id: property.id, title: property.title }, { cancelable: true }))
      setOpen(property);
  };

  return (
    <section
      aria-labelledby="exp-featured-heading"
      aria-busy={shown.status === 'loading'}
      className="flex flex-col gap-6"
    >
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2
            id="exp-featured-heading"
            part="heading"
            className="m-0 text-[28px] cq-md:text-[34px] font-bold leading-tight text-ink"
          >
            {operation === 'rent'
              ? place
                ? t('featured.rentHeadingIn', { community: place })
                : t('featured.rentHeading')
              : place
                ? t('featured.headingIn', { community: place })
                : t('featured.heading')}
          </h2>
          <p part="subtitle" className="m-0 mt-1 text-ink-muted">
            {t(operation === 'rent' ? 'featured.rentSubtitle' : 'featured.subtitle')}
          </p>
        </div>
        <a
          href={viewAllUrl(searchUrl, place, operation)}
          part="view-all"
          className="inline-flex items-center gap-1 font-semibold text-primary no-underline hover:underline underline-offset-4"
        >
          {place ? t('featured.viewAllIn', { community: place }) : t('featured.viewAll')}
          <ChevronRight size={18} />
        </a>
      </div>
      {shown.status === 'loading' ? (
        <CardSkeletons className={GRID} count={Math.min(limit, 4)} />
      ) : shown.status === 'error' ? (
        <p part="empty" role="alert" className="m-0 py-8 text-center text-ink-muted">
          {t('featured.error')}
        </p>
      ) : properties.length ? (
        <ul className={GRID} part="grid">
          {properties.map((property) => (
            <li key={property.id} className="grid">
              <PropertyCard property={property} onOpen={openProperty} />
            </li>
          ))}
        </ul>
      ) : (
        <p part="empty" className="m-0 py-8 text-center text-ink-muted">
          {t('featured.empty')}
        </p>
      )}
      <PropertyDialog property={open} onClose={() => setOpen(null)} settings={props} />
    </section>
  );
}
