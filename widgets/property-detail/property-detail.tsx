/**
 * <exp-property-detail>: one listing's detail, on the listing's own page or embedded anywhere. The
 * server's listing page puts the listing's row in a JSON script inside the element (no second
 * request) and its readable content beside it, shown (slotted) until the element has drawn itself.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { getClients } from '../lib/data/client.ts';
import { getListing } from '../lib/data/listings.ts';
import { useElement, type ElementProps } from '../lib/element.tsx';
import { LISTING_ANSWER_MARK, listingDefaults, mapListing } from '../../core/protocol/listing.ts';
import { PriceAndShare, PropertyDetail } from '../lib/listing/property-detail.tsx';
import { siteUrl } from '../lib/site-links.ts';
import { pageAnswer } from '../lib/page-answer.ts';
import type { propertyDetailAttributes } from './property-detail.attributes.ts';

type Row = Record<string, unknown>;

/** The row the page gave the element, when it is for this listing. */
function embeddedRow(host: HTMLElement, id: string): Row | null {
  const row = pageAnswer(host, LISTING_ANSWER_MARK) as Row | null | undefined;
  return row && typeof row == 'object' && String(row.id) === id ? row : null;
}

export function PropertyDetailElement({
  listingId,
  phoneCountryCode,
  showPayment,
  showSimilar,
  showLocation,
  tileUrl,
  tileAttribution,
}: ElementProps<typeof propertyDetailAttributes>) {
  const { t, api, host, site, lang } = useElement();
  // the test build counts the detail's renders (tests/browser/language-switch.test.ts)
  if (import.meta.env.EXP_TEST_HOOKS) host.dataset.renders = String(Number(host.dataset.renders ?? 0) + 1);
  const id = listingId?.trim() ?? '';
  const [state, setState] = useState<{
    id: string;
    row: Row | null;
    status: 'loading' | 'ready' | 'missing' | 'error';
  }>(() => {
    const row = id ? embeddedRow(host, id) : null;
    return { id, row, status: row ? 'ready' : 'loading' };
  });
  const titleId = useId();
  // the listing already drawn from the page's own data: not asked for again
  const readyFor = useRef(state.status === 'ready' ? id : '');

  useEffect(() => {
    if (!id) {
      setState({ id, row: null, status: 'missing' });
      return;
    }
    if (readyFor.current === id) return;
    let live = true;
    getListing(getClients(api).rest, id)
      .then((row) => {
        if (!live) return;
        readyFor.current = row ? id : '';
        setState({ id, row, status: row ? 'ready' : 'missing' });
      })
      .catch((error: unknown) => {
        console.error('[exp-property-detail] could not load the listing:', error);
        if (live) setState({ id, row: null, status: 'error' });
      });
    return () => {
      live = false;
    };
  }, [api, id]);

  if (state.status === 'loading' || state.id !== id) return <slot />;
  if (!state.row) {
    return (
      <div className="flex flex-col items-center gap-3 py-16 text-center" part="not-found" role="status">
        <p className="m-0 text-xl font-bold text-ink">
          {t(state.status === 'error' ? 'detail.error' : 'detail.notFound')}
        </p>
        <a href={siteUrl('/search-properties', site, lang)} className="font-semibold text-primary hover:underline">
          {t('detail.searchOthers')}
        </a>
      </div>
    );
  }
  const property = mapListing(state.row, api.url, listingDefaults(t));
  return (
    <article
      className="overflow-hidden rounded-brand border border-line bg-surface"
      part="detail-page"
      aria-labelledby={titleId}
    >
      <div className="flex items-center justify-between gap-3 border-b border-line px-4 py-3">
        <PriceAndShare property={property} />
      </div>
      <PropertyDetail
        property={property}
        headingLevel="h1"
        titleId={titleId}
        {...{ phoneCountryCode, showPayment, showSimilar, showLocation, tileUrl, tileAttribution }}
      />
    </article>
  );
}
