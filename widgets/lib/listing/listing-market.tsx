/**
 * The listing beside its market in the detail (docs/market.md): asked for when the detail opens,
 * its sector's (or nearest place's) median per m² for its type last month, drawn by
 * core/view/market-compare.tsx as the listing's page draws it. Nothing shows while it comes or
 * when it cannot come (the detail is whole without it).
 */
import { useEffect, useState } from 'react';
import type { Property } from '../../../core/protocol/listing.ts';
import { lastFullMonth, typeGroupOf, type MarketFigure } from '../../../core/protocol/market.ts';
import { marketPath } from '../../../core/routes.ts';
import { MarketComparison } from '../../../core/view/market-compare.tsx';
import { getClients } from '../data/client.ts';
import { getListingMarket } from '../data/listing-extras.ts';
import { useElement } from '../element.tsx';
import { siteUrl } from '../site-links.ts';

export function ListingMarket({ property: p }: { property: Property }) {
  const { t, api, lang, site } = useElement();
  const group = typeGroupOf(p.propertyType);
  const [figure, setFigure] = useState<{ id: string; figure: MarketFigure | undefined }>({ id: '', figure: undefined });
  useEffect(() => {
    if (!group) return;
    const controller = new AbortController();
    getListingMarket(getClients(api).rest, p.id, controller.signal)
      .then((figures) => setFigure({ id: p.id, figure: lastFullMonth(figures) }))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) console.warn('[exp] the market figure could not be loaded:', error);
      });
    return () => controller.abort();
  }, [api, p.id, group]);
  const shown = figure.id === p.id ? figure.figure : undefined;
  return (
    <MarketComparison
      listing={p}
      figure={shown}
      t={t}
      href={shown ? siteUrl(marketPath(shown.path), site, lang) : ''}
      className="m-0 text-sm text-ink-muted"
      linkClassName="text-primary underline"
    />
  );
}
