/**
 * The search in the address bar (docs/product.md §4): every filter name of the spec, feature flags only
 * when true, plus our own sort, page, the open property and the searched map area. Keys of other
 * owners (lang, utm_*, the host page's own) are left as they are.
 */
import { cleanKeywords, filterArgs, filtersKey, formatBbox, parseBbox, parsePlace } from '../../core/protocol/filters.ts';
import { decodePolygon, encodePolygon } from '../../core/protocol/polygon.ts';
import { FEATURE_FLAGS, SORT_KEYS, type FeatureFlag, type SearchFilters, type SortKey } from '../lib/data/listings.ts';

export interface SearchState {
  filters: SearchFilters;
  sort: SortKey;
  page: number;
  /** the property whose detail is open */
  property?: string;
}

const NUMBER_KEYS = ['minPrice', 'maxPrice', 'beds', 'baths', 'minSqft', 'maxSqft', 'yearBuiltFrom', 'yearBuiltTo', 'minLotSize', 'maxLotSize'] as const;
type NumberKey = (typeof NUMBER_KEYS)[number];

/** every key this element reads and writes */
export const OWN_KEYS = ['propertyType', 'city', 'keywords', 'place', 'placeName', ...NUMBER_KEYS, ...FEATURE_FLAGS, 'sort', 'page', 'property', 'bbox', 'polygon'] as const;

function positiveNumber(text: string | null): number | undefined {
  if (text === null || text.trim() === '') return undefined;
  const n = Number(text);
  return Number.isFinite(n) && n >= 0 && n <= 1e12 ? n : undefined;
}

/** Reads what the URL says; anything malformed is ignored, never an error. */
export function readSearchParams(params: URLSearchParams): Partial<SearchState> & { filters: SearchFilters } {
  const filters: SearchFilters = {};
  const type = params.get('propertyType')?.trim();
  if (type) filters.propertyType = type.slice(0, 100);
  const city = params.get('city')?.trim();
  if (city) filters.city = city.slice(0, 100);
  const keywords = cleanKeywords(params.get('keywords'));
  if (keywords) filters.keywords = keywords;
  // a place picked in the location box: 'quito/inaquito', and the words the box showed
  const place = params.get('place')?.trim().toLowerCase();
  if (place && parsePlace(place)) {
    filters.place = place;
    const name = params.get('placeName')?.trim();
    if (name) filters.placeName = name.slice(0, 100);
  }
  for (const key of NUMBER_KEYS) {
    const n = positiveNumber(params.get(key));
    if (n !== undefined) (filters as Record<NumberKey, number>)[key] = n;
  }
  const features: Partial<Record<FeatureFlag, boolean>> = {};
  for (const flag of FEATURE_FLAGS) if (params.get(flag) === 'true') features[flag] = true;
  if (Object.keys(features).length) filters.features = features;
  const bbox = parseBbox(params.get('bbox'));
  if (bbox) filters.bbox = bbox;
  const polygon = decodePolygon(params.get('polygon'));
  if (polygon) filters.polygon = polygon;
  const state: Partial<SearchState> & { filters: SearchFilters } = { filters };
  const sort = params.get('sort');
  if (sort && (SORT_KEYS as readonly string[]).includes(sort)) state.sort = sort as SortKey;
  const page = Number(params.get('page'));
  if (Number.isInteger(page) && page >= 1 && page <= 100000) state.page = page;
  const property = params.get('property')?.trim();
  if (property && /^[\w-]{1,64}$/.test(property)) state.property = property;
  return state;
}

/** Writes every non-empty value (flags only when true) over the other keys of the URL. */
export function writeSearchParams(current: URLSearchParams, state: SearchState): URLSearchParams {
  const next = new URLSearchParams();
  for (const [k, v] of current) if (!(OWN_KEYS as readonly string[]).includes(k)) next.append(k, v);
  const f = state.filters;
  if (f.propertyType?.trim()) next.set('propertyType', f.propertyType.trim());
  if (f.city?.trim()) next.set('city', f.city.trim());
  if (f.keywords?.trim()) next.set('keywords', f.keywords.trim());
  if (f.place && parsePlace(f.place)) {
    next.set('place', f.place);
    if (f.placeName?.trim()) next.set('placeName', f.placeName.trim());
  }
  for (const key of NUMBER_KEYS) {
    const v = f[key];
    if (typeof v === 'number' && Number.isFinite(v) && v > 0) next.set(key, String(v));
  }
  for (const flag of FEATURE_FLAGS) if (f.features?.[flag]) next.set(flag, 'true');
  if (f.bbox) next.set('bbox', formatBbox(f.bbox));
  if (f.polygon) next.set('polygon', encodePolygon(f.polygon));
  if (state.sort !== 'featured') next.set('sort', state.sort);
  if (state.page > 1) next.set('page', String(state.page));
  if (state.property) next.set('property', state.property);
  return next;
}

/** The same search? (what decides whether the count must be fetched again): the applied filters' key. */
export const searchFiltersKey = (f: SearchFilters): string => filtersKey(filterArgs(f));
