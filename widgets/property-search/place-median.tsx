/**
 * Beside the count of a picked place's search: its median asking price per m² of last month, from
 * the market index (docs/market.md), for the type searched when it has a group of its own, and the
 * way to its report. The figure of the place the index gives (its parent's, named, when the place
 * had too few listings). Nothing while it loads, when the index has no figure or does not answer:
 * it adds to the search, it never stands in its way.
 */
import { useEffect, useState } from 'react';
import { formatPrice } from '../../core/protocol/format.ts';
import { lastFullMonth, parseMarketFigures, typeGroupOf, type MarketFigure } from '../../core/protocol/market.ts';
import { marketPath } from '../../core/routes.ts';
import { getClients } from '../lib/data/client.ts';
import { useElement } from '../lib/element.tsx';
import { siteUrl } from '../lib/site-links.ts';
import { addTexts } from '../lib/i18n.ts';
import texts from 'virtual:exp-texts/lazy/property-search/place-median';

await addTexts(texts);

export function PlaceMedian({ place, propertyType }: { place: string | undefined; propertyType: string | undefined }) {
  const { t, api, site, lang } = useElement();
  const [figure, setFigure] = useState<MarketFigure>();
  useEffect(() => {
    setFigure(undefined);
    if (!place) return;
    const controller = new AbortController();
    getClients(api)
      .rest.rpc('market_index', { place, type_group: typeGroupOf(propertyType ?? '') ?? 'all', months: 2 })
      .abortSignal(controller.signal)
      .then(
        ({ data }) => setFigure(lastFullMonth(parseMarketFigures(Array.isArray(data) ? data : []))),
        () => {},
      );
    return () => controller.abort();
  }, [api, place, propertyType]);
  if (!figure) return null;
  return (
    <p className="m-0 text-sm text-ink-muted" part="place-median">
      {t('placeMedian.text', { place: figure.name, price: formatPrice(figure.median) })}{' '}
      <a href={siteUrl(marketPath(figure.path), site, lang)} className="text-primary underline">
        {t('placeMedian.link')}
      </a>
    </p>
  );
}
