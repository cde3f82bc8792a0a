/**
 * A listing's price history and time on the market (docs/product.md §2, "Price history"): how long
 * it has been listed, and since then each price change and the listing itself, newest first, as a
 * table (date, event, price, change), drawn by core/view/price-history.tsx as the listing's page
 * draws it. Asked for when the detail opens; while it comes, the days on the market (from the
 * listing's own row) already show.
 */
import { useEffect, useState } from 'react';
import { daysOnMarket, type Property } from '../../../core/protocol/listing.ts';
import type { PriceEvent } from '../../../core/protocol/price-history.ts';
import { PriceHistoryView, type PriceHistoryClasses } from '../../../core/view/price-history.tsx';
import { getClients } from '../data/client.ts';
import { getPriceHistory } from '../data/listing-extras.ts';
import { useElement } from '../element.tsx';

export function PriceHistory({ property: p, headingLevel }: { property: Property; headingLevel: 'h2' | 'h3' }) {
  const { t, api, lang } = useElement();
  const [state, setState] = useState<{ id: string; events: PriceEvent[] | null; failed: boolean }>({
    id: p.id,
    events: null,
    failed: false,
  });
  useEffect(() => {
    const controller = new AbortController();
    getPriceHistory(getClients(api).rest, p.id, controller.signal)
      .then((events) => setState({ id: p.id, events, failed: false }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.warn('[exp] the price history could not be loaded:', error);
        setState({ id: p.id, events: null, failed: true });
      });
    return () => controller.abort();
  }, [api, p.id]);
  const failed = state.failed && state.id === p.id;
  return (
    <PriceHistoryView
      days={daysOnMarket(p)}
      events={state.id === p.id ? state.events : null}
      t={t}
      lang={lang}
      heading={headingLevel}
      classes={CLASSES}
      part="price-history"
    >
      {failed ? <p className="m-0 text-sm text-ink-muted">{t('history.error')}</p> : null}
    </PriceHistoryView>
  );
}

const CLASSES: PriceHistoryClasses = {
  section: 'flex flex-col gap-2',
  heading: 'm-0 text-base font-semibold text-ink',
  days: 'm-0 text-sm text-ink-muted',
  table: 'w-full border-collapse text-sm',
  headRow: 'border-b border-line text-left text-xs uppercase tracking-wide text-ink-muted',
  th: 'py-1.5 pr-3 font-medium',
  thNumber: 'py-1.5 pl-2 text-right font-medium',
  row: 'border-b border-line last:border-0',
  td: 'py-1.5 pr-3 text-ink',
  price: 'py-1.5 pl-2 text-right whitespace-nowrap font-semibold text-ink',
  change: 'py-1.5 pl-2 text-right whitespace-nowrap text-ink',
  drop: 'py-1.5 pl-2 text-right whitespace-nowrap text-danger',
};
