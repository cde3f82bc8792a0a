/**
 * A listing's price history and time on the market (docs/product.md §2, "Price history"): how long
 * it has been listed, and since then each price change and the listing itself, newest first, as a
 * table (date, event, price, change). Asked for when the detail opens; while it comes, the days on
 * the market (from the listing's own row) already show.
 */
import { useEffect, useState } from 'react';
import { formatCount, formatPrice } from '../../../core/protocol/format.ts';
import { daysOnMarket, type Property } from '../../../core/protocol/listing.ts';
import { formatChange, formatEventDate, type PriceEvent } from '../../../core/protocol/price-history.ts';
import { getClients } from '../data/client.ts';
import { getPriceHistory } from '../data/listing-extras.ts';
import { useElement } from '../element.tsx';

export function PriceHistory({ property: p, headingLevel }: { property: Property; headingLevel: 'h2' | 'h3' }) {
  const { t, api, lang } = useElement();
  const [state, setState] = useState<{ id: string; events: PriceEvent[] | null; failed: boolean }>({ id: p.id, events: null, failed: false });
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
  const days = daysOnMarket(p);
  const events = state.id === p.id ? state.events : null;
  // a listing that only says when it was listed needs no table: the days say it
  const table = events && events.some((e) => e.event !== 'listed') ? events : null;
  if (days === null && !table && !state.failed) return null;
  const Heading = headingLevel;
  return (
    <section part="price-history" className="flex flex-col gap-2">
      <Heading className="m-0 text-base font-semibold text-ink">{t('history.heading')}</Heading>
      {days !== null ? (
        <p className="m-0 text-sm text-ink-muted">{days === 0 ? t('history.onMarketToday') : t('history.onMarket', { count: days, formatted: formatCount(days) })}</p>
      ) : null}
      {table ? (
        <div>
          <table className="w-full border-collapse text-sm">
            <thead>
              <tr className="border-b border-line text-left text-xs uppercase tracking-wide text-ink-muted">
                <th scope="col" className="py-1.5 pr-2 font-medium">{t('history.date')}</th>
                <th scope="col" className="py-1.5 pr-3 font-medium">{t('history.event')}</th>
                <th scope="col" className="py-1.5 pr-2 text-right font-medium">{t('history.price')}</th>
                <th scope="col" className="py-1.5 text-right font-medium">{t('history.change')}</th>
              </tr>
            </thead>
            <tbody>
              {table.map((e) => (
                <tr key={`${e.at}-${e.event}-${e.price}`} className="border-b border-line last:border-0">
                  <td className="py-1.5 pr-3 text-ink">{formatEventDate(e.at, lang)}</td>
                  <td className="py-1.5 pr-3 text-ink">{t(`history.${e.event}`)}</td>
                  <td className="py-1.5 pr-2 text-right whitespace-nowrap font-semibold text-ink">{formatPrice(e.price)}</td>
                  <td className={`py-1.5 text-right whitespace-nowrap ${e.change !== null && e.change < 0 ? 'text-danger' : 'text-ink'}`}>{formatChange(e.change)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {state.failed && state.id === p.id ? <p className="m-0 text-sm text-ink-muted">{t('history.error')}</p> : null}
    </section>
  );
}
