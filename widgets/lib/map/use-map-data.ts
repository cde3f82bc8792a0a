/**
 * What the map shows for a search (docs/product.md §9; docs/decisions.md #20): every matching
 * listing as pins, loaded once per search (the light call), up to 2,000; above that, a loader of the
 * database's clusters for the visible area (public.listing_clusters), and pins again if the
 * clusters cannot be had. Nothing here knows OpenLayers.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { formatPricePill } from '../../../core/protocol/format.ts';
import { listingPosition, listingPrice, recentPriceCut, type Property } from '../../../core/protocol/listing.ts';
import type { Translate } from '../../../core/translate.ts';
import { parseOpenHouses, upcomingOpenHouses } from '../../../core/protocol/open-houses.ts';
import { getClients } from '../data/client.ts';
import {
  getMapClusters,
  getMapPoints,
  SERVER_CLUSTERS_ABOVE,
  type MapPoint,
  type SearchFilters,
} from '../data/listings.ts';
import { useElement } from '../element.tsx';
import type { CellLoader } from './cell-loader.ts';
import type { MapPin } from './ol-map.ts';

/** A rental's or a new development's pill on the map, a pin or a cell of one ("$850/month", "From $98K"); a sale's is its price alone. */
const pill = (price: number, operation: string | undefined, t: Translate) =>
  operation && operation !== 'sale' ? { priceLabel: listingPrice({ price, operation }, t, formatPricePill) } : {};

/** A listing's pin: its position (approximate when it has no usable coordinates) and price (a rent's a month's). */
export function pinFor(point: MapPoint, t?: Translate): MapPin {
  const price = Number(point.price) || 0;
  const cut =
    point.price_cut_at && Number(point.price_before_cut) > 0
      ? { at: point.price_cut_at, before: Number(point.price_before_cut) }
      : null;
  return {
    id: String(point.id),
    price,
    reduced: recentPriceCut({ price, priceCut: cut }) !== null,
    openHouse: upcomingOpenHouses(parseOpenHouses(point.open_houses)).length > 0,
    ...(t ? pill(price, point.operation, t) : {}),
    ...listingPosition(point as unknown as Record<string, unknown>),
  };
}

/**
 * The count of the search for these filters: while a page of the same search loads, the element's
 * count is briefly unknown, and the one already known still holds.
 */
function useCountOf(filtersKey: string, total: number | null): number | null {
  const [known, setKnown] = useState<{ key: string; total: number } | null>(null);
  if (total !== null && (known?.key !== filtersKey || known.total !== total)) setKnown({ key: filtersKey, total });
  return total ?? (known?.key === filtersKey ? known.total : null);
}

export interface MapData {
  total: number | null;
  /** every match as pins (null: none loaded, or the clusters are drawn instead) */
  pins: MapPin[] | null;
  /** more matches than pins loaded */
  capped: boolean;
  /** many matches: the database's clusters, asked for per view */
  cells: CellLoader | null;
  /** the listings of a cluster on one spot, to spread them out */
  expand: (bounds: [number, number, number, number]) => Promise<MapPin[]>;
  /** the clusters failed: pins from then on */
  cellsError: (error: unknown) => void;
  /** the search is in and has nothing to draw */
  noPins: boolean;
}

/** `filtersKey` is the filters as JSON (the search's identity); `properties` the page's, for pins when the map's own call fails. */
/** The topic of the toast that says a search found nothing to draw (a toast that says why replaces it). */
export const EMPTY_SEARCH = 'empty-search';

export function useMapData(
  filtersKey: string,
  givenTotal: number | null,
  properties: Property[],
  quiet = false,
  /** false while the map is not shown (a phone's folded map): nothing is asked for */
  wanted = true,
): MapData {
  const { toaster, api, t } = useElement();
  const [pins, setPins] = useState<MapPin[] | null>(null);
  const [capped, setCapped] = useState(false);
  // the clusters failed once (a backend without the function): pins from then on
  const [cellsFailed, setCellsFailed] = useState(false);
  const filters = useMemo(() => JSON.parse(filtersKey) as SearchFilters, [filtersKey]);
  const total = useCountOf(filtersKey, givenTotal);
  const rest = getClients(api).rest;
  // the test build lets a test lower the threshold, so the default seed can show the clusters
  const above = import.meta.env.EXP_TEST_HOOKS
    ? Number((globalThis as { expClustersAbove?: number }).expClustersAbove ?? SERVER_CLUSTERS_ABOVE)
    : SERVER_CLUSTERS_ABOVE;
  const many = total !== null && total > above && !cellsFailed;
  const cells = useMemo<CellLoader | null>(
    () =>
      many
        ? (view, signal) =>
            getMapClusters(rest, filters, view, signal).then((list) =>
              list.map((c) => ({
                count: c.count,
                lat: c.lat,
                lng: c.lng,
                bounds: [c.lng_min, c.lat_min, c.lng_max, c.lat_max],
                priceFrom: c.price_from,
                priceTo: c.price_to,
                id: c.id === null ? null : String(c.id),
                approximate: c.approximate,
                // a cell of one rental says its month, as its pin does
                ...pill(c.price_from ?? 0, filters.operation, t),
              })),
            )
        : null,
    [many, rest, filters, t],
  );
  // the listings of a cluster on one spot, to spread them out
  const expand = useMemo(
    () => (bounds: [number, number, number, number]) => {
      const [w, s, e, n] = bounds;
      return getMapPoints(rest, { ...filters, bbox: [w - 1e-6, s - 1e-6, e + 1e-6, n + 1e-6] }, 50).then(({ points }) =>
        points.map((p) => pinFor(p, t)),
      );
    },
    [rest, filters, t],
  );
  const cellsError = useMemo(
    () => (error: unknown) => {
      console.error('[exp] map clusters:', error);
      setCellsFailed(true);
    },
    [],
  );
  // the page's properties, for the pins when the map's own call fails
  const pageProperties = useRef(properties);
  pageProperties.current = properties;

  // every matching listing, not only the page (the light call): once per search
  useEffect(() => {
    if (total === null || !wanted) return;
    if (many) {
      setPins(null);
      setCapped(false);
      return;
    }
    const controller = new AbortController();
    getMapPoints(rest, filters, total, controller.signal)
      .then(({ points, capped: more }) => {
        setPins(points.map((p) => pinFor(p, t)));
        setCapped(more);
      })
      .catch((error: unknown) => {
        if ((error as Error)?.name === 'AbortError' || controller.signal.aborted) return;
        console.error('[exp] map points:', error);
        setPins(
          pageProperties.current.map((p) => ({
            id: p.id,
            lat: p.lat,
            lng: p.lng,
            price: p.price,
            approximate: p.approximate,
          })),
        );
        setCapped(false);
      });
    return () => controller.abort();
  }, [rest, filters, total, many, t, wanted]);

  // nothing to draw once the data is in: the message and a toast, once per search (none when the
  // search has said why already: a place that is no place)
  const noPins = pins !== null && pins.length === 0;
  useEffect(() => {
    if (noPins && !quiet)
      toaster.show({
        title: { key: 'map.noPropertiesTitle' },
        description: { key: 'map.noPropertiesText' },
        topic: EMPTY_SEARCH,
      });
  }, [noPins, filtersKey, toaster, quiet]);

  return { total, pins: many ? null : pins, capped, cells, expand, cellsError, noPins };
}
