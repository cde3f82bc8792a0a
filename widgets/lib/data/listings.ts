/**
 * The listing calls of docs/product.md §7 (1: count, 2: page, 3: property types) and the map's light
 * call, as plain functions over a PostgREST client. The filter mapping and the ignored values of
 * docs/product.md §5 live here, once, for the count, the page and the map alike.
 */
import type { PostgrestClient } from '@supabase/postgrest-js';
import { filterArgs, type SearchFilters } from '../../../core/protocol/filters.ts';
import { PUBLIC_LISTING } from '../../../core/protocol/listing.ts';
import { PAGE_SIZE, searchArgs, type SortKey } from '../../../core/protocol/search-args.ts';
import { answer, fail } from './client.ts';

export {
  appliedFilters,
  cleanKeywords,
  FEATURE_FLAGS,
  KEYWORDS_MAX,
  filterArgs,
  filtersFromArgs,
  PRICE_MAX_ANY,
  type AppliedFilters,
  type FeatureFlag,
  type SearchFilters,
} from '../../../core/protocol/filters.ts';
export { searchPageQuery } from '../../../core/protocol/filter-params.ts';
export { PAGE_SIZE, SORT_KEYS, searchArgs, type SortKey } from '../../../core/protocol/search-args.ts';

export const MAP_POINTS_LIMIT = 5000;
const BLOCK = 1000;

/**
 * Call 1: the exact count of matching listings (public.search_listings_count). POSTed, as every call
 * that carries a visitor's text: in a JSON body it is always an argument.
 */
export async function getListingsCount(
  rest: PostgrestClient,
  filters: SearchFilters,
  signal?: AbortSignal,
): Promise<number> {
  const data = await answer(rest.rpc('search_listings_count', { filters: filterArgs(filters) }), 'count', signal);
  return Number(data ?? 0);
}

/** Call 2: one page of 24 listings (or `size`, for the featured block), all columns (public.search_listings). */
export async function getListingsPage(
  rest: PostgrestClient,
  filters: SearchFilters,
  sort: SortKey,
  page: number,
  signal?: AbortSignal,
  size = PAGE_SIZE,
): Promise<Record<string, unknown>[]> {
  const data = await answer(rest.rpc('search_listings', searchArgs(filters, sort, page, size)), 'page', signal);
  return (data ?? []) as Record<string, unknown>[];
}

/** One listing by id (a shared ?property= link); null when it is not an active EC listing. */
export async function getListing(
  rest: PostgrestClient,
  id: string | number,
  signal?: AbortSignal,
): Promise<Record<string, unknown> | null> {
  const data = await answer(
    rest.from('listings').select('*').eq('id', id).match(PUBLIC_LISTING).limit(1),
    'listing',
    signal,
  );
  return (((data ?? []) as unknown[])[0] as Record<string, unknown> | undefined) ?? null;
}

/**
 * Listings by id (a visitor's saved listings): the active ones, every column. The rest are no longer
 * on the market (or never were): the saved page shows what it kept of them.
 */
export async function getListingsByIds(
  rest: PostgrestClient,
  ids: readonly string[],
  signal?: AbortSignal,
): Promise<Record<string, unknown>[]> {
  const wanted = ids.filter((id) => /^\d{1,15}$/.test(id));
  if (!wanted.length) return [];
  const rows: Record<string, unknown>[] = [];
  // the server's row limit and a short address: 100 ids a call
  for (let i = 0; i < wanted.length; i += 100) {
    const data = await answer(
      rest
        .from('listings')
        .select('*')
        .in('id', wanted.slice(i, i + 100))
        .match(PUBLIC_LISTING),
      'saved listings',
      signal,
    );
    rows.push(...((data ?? []) as Record<string, unknown>[]));
  }
  return rows;
}

/**
 * Call 3: the distinct property types, in one call to the view (docs/decisions.md #7). If the view is
 * missing, the spec's block reader: 1000-row ranges until a block is empty (a block may come back
 * shorter, cut by the project's Max Rows: the next starts after what came); on an error the
 * dropdown keeps what was read.
 */
export async function getPropertyTypes(rest: PostgrestClient): Promise<string[]> {
  const view = await rest
    .from('listing_property_types')
    .select('property_type', { count: 'exact' })
    .order('property_type');
  if (!view.error) {
    // all in one answer, unless the project's Max Rows cut it: then the rest, from where it stopped
    const types = (view.data ?? []).map((r) => (r as { property_type: unknown }).property_type);
    while (view.count !== null && types.length < view.count) {
      const more = await rest
        .from('listing_property_types')
        .select('property_type')
        .order('property_type')
        .range(types.length, view.count - 1);
      if (more.error) fail(more.error, 'property types');
      if (!more.data?.length) break;
      types.push(...more.data.map((r) => (r as { property_type: unknown }).property_type));
    }
    return distinct(types);
  }
  if (view.error.code !== 'PGRST205' && view.error.code !== '42P01') fail(view.error, 'property types');
  const found: unknown[] = [];
  for (let from = 0; ; from += BLOCK) {
    const { data, error } = await rest
      .from('listings')
      .select('property_type')
      .not('property_type', 'is', null)
      .match(PUBLIC_LISTING)
      .range(from, from + BLOCK - 1);
    if (error) {
      console.error('[exp] property types:', error.message);
      break;
    }
    if (!data?.length) break;
    found.push(...data.map((r) => (r as { property_type: unknown }).property_type));
    from += data.length - BLOCK;
  }
  return distinct(found);
}

/** in code-point order, as the view sorts them: a page's first `localeCompare` builds a collator, a long task on a phone */
function distinct(values: unknown[]): string[] {
  return [...new Set(values.filter((v): v is string => typeof v === 'string' && v.trim() !== ''))].sort((a, b) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
}

export interface MapPoint {
  id: number;
  lat: number | null;
  lng: number | null;
  geo_lat: string | null;
  geo_lon: string | null;
  city: string | null;
  price: number | null;
  price_cut_at: string | null;
  price_before_cut: number | null;
  /** its open houses (a multirange's text: core/protocol/open-houses.ts) */
  open_houses?: string | null;
  /** 'rent': its price is a month's */
  operation?: string;
}

/**
 * The map's light call: every matching listing, not only the page (id, position, price), in
 * parallel blocks of 1000 up to 5000; `capped` when there are more. A block that comes back
 * shorter than asked (a project whose Max Rows is lower) is read on from where it stopped.
 */
export async function getMapPoints(
  rest: PostgrestClient,
  filters: SearchFilters,
  total: number,
  signal?: AbortSignal,
): Promise<{ points: MapPoint[]; capped: boolean }> {
  const wanted = Math.min(total, MAP_POINTS_LIMIT);
  const blocks = Math.ceil(wanted / BLOCK);
  const block = async (offset: number, size: number): Promise<MapPoint[]> => {
    const rows: MapPoint[] = [];
    while (rows.length < size) {
      const data = await answer(
        rest
          .rpc('search_listings', {
            ...searchArgs(filters, 'newest', 1, size - rows.length),
            page_offset: offset + rows.length,
          })
          .select('id,lat,lng,geo_lat,geo_lon,city,price,price_cut_at,price_before_cut,open_houses,operation'),
        'map points',
        signal,
      );
      const page = (data ?? []) as unknown as MapPoint[];
      if (!page.length) break;
      rows.push(...page);
    }
    return rows;
  };
  // block i holds listings i * BLOCK onward, the last one cut at `wanted`
  const results = await Promise.all(
    Array.from({ length: blocks }, (_, i) => block(i * BLOCK, Math.min(BLOCK, wanted - i * BLOCK))),
  );
  return { points: results.flat(), capped: total > MAP_POINTS_LIMIT };
}

/** Above this many matches the map shows the database's clusters instead of loading every point. */
export const SERVER_CLUSTERS_ABOVE = 500;

/** A grid cell of the map (public.listing_clusters): its listings' count, mean position, bounds and prices. */
export interface ClusterRow {
  count: number;
  lat: number;
  lng: number;
  lat_min: number;
  lat_max: number;
  lng_min: number;
  lng_max: number;
  price_from: number | null;
  price_to: number | null;
  /** the cell's only listing */
  id: number | null;
  approximate: boolean;
}

/** The visible area of the map and its zoom, for the clusters. */
export interface MapView {
  zoom: number;
  /** [west, south, east, north] in degrees */
  bbox: [number, number, number, number];
}

/** The arguments of public.listing_clusters: the view, and the filters that apply as one object (FilterArgs). */
export function clusterArgs(filters: SearchFilters, view: MapView): Record<string, unknown> {
  const [west, south, east, north] = view.bbox;
  return {
    zoom: Math.round(view.zoom),
    view_west: west,
    view_south: south,
    view_east: east,
    view_north: north,
    filters: filterArgs(filters),
  };
}

/**
 * The map's clusters for a view: every matching listing in it, counted in 64 px cells by the
 * database. POSTed: as JSON, a visitor's text is always an argument (in a GET query string,
 * PostgREST would read a city typed as "eq.x" as a filter).
 */
export async function getMapClusters(
  rest: PostgrestClient,
  filters: SearchFilters,
  view: MapView,
  signal?: AbortSignal,
): Promise<ClusterRow[]> {
  const data = await answer(rest.rpc('listing_clusters', clusterArgs(filters, view)), 'map clusters', signal);
  return ((data ?? []) as Record<string, unknown>[]).map((c) => ({
    count: Number(c.count),
    lat: Number(c.lat),
    lng: Number(c.lng),
    lat_min: Number(c.lat_min),
    lat_max: Number(c.lat_max),
    lng_min: Number(c.lng_min),
    lng_max: Number(c.lng_max),
    price_from: c.price_from === null ? null : Number(c.price_from),
    price_to: c.price_to === null ? null : Number(c.price_to),
    id: c.id === null ? null : Number(c.id),
    approximate: Boolean(c.approximate),
  }));
}
