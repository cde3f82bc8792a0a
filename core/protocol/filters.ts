/**
 * The search's filters (docs/product.md §3, §5, §7) as the browser holds them, which of them apply
 * (the ignored values of §5: 'any' type, a 0 minimum, the 999,999,999 maximum, blanks), and the
 * applied ones as named arguments: what public.listing_clusters takes and what a saved search keeps
 * (internal.listing_matches reads the same names). One home for the browser, the map, the alerts
 * function and the alert mails.
 */
import { formatPrice, formatPricePill } from './format.ts';
import { parsePlace } from './place-path.ts';
import { validPolygon, type LngLat } from './polygon.ts';
import { nowDate } from '../clock.ts';

export { parsePlace, type PlacePath } from './place-path.ts';

/** the spec's "any" maximum */
export const PRICE_MAX_ANY = 999_999_999;

export const FEATURE_FLAGS = ['pool', 'view', 'waterfront', 'garage', 'newConstruction', 'airConditioning'] as const;
export type FeatureFlag = (typeof FEATURE_FLAGS)[number];

/** A feature as the database names it (internal.listings.features): newConstruction -> new_construction. */
export const featureColumn = (flag: FeatureFlag): string => flag.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const FEATURE_BY_COLUMN = new Map(FEATURE_FLAGS.map((f) => [featureColumn(f), f]));
const featureFlag = (column: string): FeatureFlag | undefined => FEATURE_BY_COLUMN.get(column);

export interface SearchFilters {
  propertyType?: string;
  minPrice?: number;
  maxPrice?: number;
  beds?: number;
  baths?: number;
  minSqft?: number;
  maxSqft?: number;
  /** free text: a city, a sector or an address (partial, case- and accent-insensitive) */
  city?: string;
  /** a place picked in the location box (parsePlace) */
  place?: string;
  /** the place's name as the box showed it ('Iñaquito, Quito'), for the hero and an alert's words */
  placeName?: string;
  /** only this agent's listings (agents' own websites) */
  agentId?: string;
  /** 'Search this area': [west, south, east, north] in degrees */
  bbox?: [number, number, number, number];
  yearBuiltFrom?: number;
  yearBuiltTo?: number;
  minLotSize?: number;
  maxLotSize?: number;
  features?: Partial<Record<FeatureFlag, boolean>>;
  /** words in the title, the features and the description (public.words_query: "a phrase", -not, or) */
  keywords?: string;
  /** an area drawn on the map (core/protocol/polygon.ts validPolygon) */
  polygon?: LngLat[];
  /** only listings with an open house in the next seven days (docs/visits.md "Open houses") */
  openHouse?: boolean;
  /** for rent, or new developments; no operation: for sale (docs/product.md "Rent and buy", docs/projects.md) */
  operation?: Operation;
  /** new developments delivered by the end of this year */
  deliveryBy?: number;
  /** new developments at this stage */
  stage?: ProjectStage;
  /** the highest alícuota a month (a listing that does not say one is kept) */
  maxHoaFee?: number;
  /** at least this many parking spaces */
  parking?: number;
  /** with a storage unit (bodega) */
  storage?: boolean;
  /** furnished */
  furnished?: boolean;
  /** pets allowed (rentals) */
  pets?: boolean;
}

/** A new development's stage (docs/projects.md): the one list of them (the search's filter, the project pages, the feeds). */
export const PROJECT_STAGES = ['pre_sale', 'under_construction', 'delivered'] as const;
export type ProjectStage = (typeof PROJECT_STAGES)[number];

/** A listing's operation: for sale (what no operation means), for rent (its price a month) or a new development's (docs/projects.md). */
export const OPERATIONS = ['sale', 'rent', 'project'] as const;
export type Operation = (typeof OPERATIONS)[number];

/** the longest words a search keeps (public.words_query reads 200 characters) */
export const KEYWORDS_MAX = 200;

/** A search's words as it keeps them: every run of spaces one space, trimmed, at most KEYWORDS_MAX. */
export const cleanKeywords = (text: string | null | undefined): string =>
  (text ?? '').replace(/\s+/g, ' ').trim().slice(0, KEYWORDS_MAX);

/** The filters that apply, after docs/product.md §5's ignored values: one list for every call. */
export type AppliedFilters = SearchFilters;

/** The applied filters by the names of public.listing_clusters and internal.listing_matches. */
export interface FilterArgs {
  property_type?: string;
  price_min?: number;
  price_max?: number;
  beds_min?: number;
  baths_min?: number;
  area_min?: number;
  area_max?: number;
  city?: string;
  place?: string;
  /** the place's name, for words only (an alert's description); no condition */
  place_name?: string;
  /** the features every match has, by their database names */
  features?: string[];
  year_min?: number;
  year_max?: number;
  lot_min?: number;
  lot_max?: number;
  agent?: string;
  area_west?: number;
  area_south?: number;
  area_east?: number;
  area_north?: number;
  /** the search's words (public.words_query) */
  words?: string;
  /** a drawn area: [lng, lat] points (internal.area_polygon) */
  polygon?: LngLat[];
  /** an open house in the next seven days */
  open_house?: boolean;
  /** 'rent' or 'project'; absent: sale */
  operation?: Operation;
  /** a new development's year of delivery, at the latest */
  delivery_by?: number;
  /** a new development's stage */
  stage?: ProjectStage;
  hoa_max?: number;
  parking_min?: number;
  storage?: boolean;
  furnished?: boolean;
  pets?: boolean;
}

type Translate = (key: string, params?: Record<string, unknown>) => string;
export type FilterKey = keyof SearchFilters;

/** A control of the filter bar: in the bar itself or behind "More filters", its label and its choices. */
export interface FilterControl {
  in: 'bar' | 'more';
  /** its label (a key of search.filters) */
  label: string;
  /** a select's choices; none: a number field */
  options?: readonly number[];
  /** a choice in words */
  option?: (n: number, t: Translate) => string;
  /** a rent's choices, where they differ from a sale's (docs/product.md "Rent and buy") */
  rentOptions?: readonly number[];
  /** choices that are years: this one and the next `years - 1` (by the clock rules read) */
  years?: number;
  /** shown for this operation only (pets: rentals; the delivery: new developments) */
  only?: Operation;
}

/**
 * One filter, declared once (docs/architecture.md "Filters"): its name (the browser's, the search
 * page's URL parameter, an alert request's), what it holds and its bounds, its SQL argument
 * (internal.listing_matches), where a search's description says it (its words, in a module of their
 * own: core/protocol/filter-words.ts), which control of the filter bar shows it, and its embed
 * attribute. The URL state, the filter bar and sheet, the chips,
 * the alert words, the alert request's validation and the arguments are made from this table; the
 * embed attributes (widgets/lib/listing/filter-attributes.ts) are checked against it.
 */
export interface FilterSpec {
  key: FilterKey;
  kind:
    | 'operation'
    | 'type'
    | 'text'
    | 'place'
    | 'placeName'
    | 'id'
    | 'number'
    | 'features'
    | 'words'
    | 'bbox'
    | 'polygon'
    | 'flag'
    | 'choice';
  /** a choice's values */
  choices?: readonly string[];
  /** its argument; the map's box is four (area_west ...) */
  arg?: Exclude<keyof FilterArgs, 'area_west' | 'area_south' | 'area_east' | 'area_north'>;
  /** texts: the longest kept */
  maxLength?: number;
  /** numbers: the range a value must be in, whole or not; `any`: the value that means no limit */
  min?: number;
  max?: number;
  integer?: boolean;
  any?: number;
  /** where a search's description says it: what it is, where, then the rest (its words: core/protocol/filter-words.ts) */
  part?: 'what' | 'where' | 'rest';
  control?: FilterControl;
  /** the attribute that presets it on an element */
  attribute?: string;
}

const plus = (n: number, t: Translate) => t('search.filters.plus', { n });
const maxPriceOption = (n: number) => (n >= PRICE_MAX_ANY ? `${formatPricePill(10_000_000)}+` : formatPricePill(n));

// prettier-ignore
const TABLE = [
  { key: 'operation', kind: 'operation', arg: 'operation', part: 'where', attribute: 'operation' },
  { key: 'propertyType', kind: 'type', arg: 'property_type', maxLength: 100, part: 'what', attribute: 'property-type' },
  { key: 'place', kind: 'place', arg: 'place', maxLength: 170, part: 'where', attribute: 'place' },
  { key: 'placeName', kind: 'placeName', arg: 'place_name', maxLength: 100 },
  { key: 'city', kind: 'text', arg: 'city', maxLength: 100, part: 'where', attribute: 'city' },
  { key: 'bbox', kind: 'bbox', part: 'where' },
  { key: 'polygon', kind: 'polygon', arg: 'polygon', part: 'where' },
  { key: 'keywords', kind: 'words', arg: 'words', maxLength: KEYWORDS_MAX, part: 'rest', control: { in: 'more', label: 'keywords' }, attribute: 'keywords' },
  { key: 'beds', kind: 'number', arg: 'beds_min', max: 20, integer: true, part: 'rest', control: { in: 'bar', label: 'beds', options: [1, 2, 3, 4, 5], option: plus }, attribute: 'beds' },
  { key: 'baths', kind: 'number', arg: 'baths_min', max: 20, part: 'rest', control: { in: 'bar', label: 'baths', options: [1, 2, 3, 4, 5], option: plus }, attribute: 'baths' },
  { key: 'minSqft', kind: 'number', arg: 'area_min', max: 10_000_000, part: 'rest', control: { in: 'bar', label: 'minArea', options: [50, 100, 150, 200, 300], option: (n, t) => t('search.filters.areaPlus', { n }) } },
  { key: 'maxSqft', kind: 'number', arg: 'area_max', max: 10_000_000, part: 'rest' },
  { key: 'minPrice', kind: 'number', arg: 'price_min', max: PRICE_MAX_ANY, part: 'rest', control: { in: 'bar', label: 'minPrice', options: [100_000, 250_000, 500_000, 1_000_000, 2_000_000], rentOptions: [300, 500, 800, 1_200, 2_000], option: (n) => formatPricePill(n) }, attribute: 'min-price' },
  { key: 'maxPrice', kind: 'number', arg: 'price_max', max: PRICE_MAX_ANY, any: PRICE_MAX_ANY, part: 'rest', control: { in: 'bar', label: 'maxPrice', options: [500_000, 1_000_000, 2_000_000, 5_000_000, PRICE_MAX_ANY], rentOptions: [300, 500, 800, 1_200, 2_000], option: maxPriceOption }, attribute: 'max-price' },
  { key: 'yearBuiltFrom', kind: 'number', arg: 'year_min', min: 1500, max: 2100, integer: true, part: 'rest', control: { in: 'more', label: 'yearFrom' } },
  { key: 'yearBuiltTo', kind: 'number', arg: 'year_max', min: 1500, max: 2100, integer: true, part: 'rest', control: { in: 'more', label: 'yearTo' } },
  { key: 'minLotSize', kind: 'number', arg: 'lot_min', max: 10_000_000, part: 'rest', control: { in: 'more', label: 'minLot' } },
  { key: 'maxLotSize', kind: 'number', arg: 'lot_max', max: 10_000_000, part: 'rest', control: { in: 'more', label: 'maxLot' } },
  { key: 'features', kind: 'features', arg: 'features', part: 'rest', control: { in: 'more', label: 'features' }, attribute: 'features' },
  { key: 'maxHoaFee', kind: 'number', arg: 'hoa_max', max: 100_000, part: 'rest', control: { in: 'more', label: 'maxHoaFee', options: [50, 100, 150, 200, 300], option: (n) => formatPrice(n) }, attribute: 'max-hoa-fee' },
  { key: 'parking', kind: 'number', arg: 'parking_min', max: 20, integer: true, part: 'rest', control: { in: 'more', label: 'parking', options: [1, 2, 3], option: plus }, attribute: 'parking' },
  { key: 'storage', kind: 'flag', arg: 'storage', part: 'rest', control: { in: 'more', label: 'storage' }, attribute: 'storage' },
  { key: 'furnished', kind: 'flag', arg: 'furnished', part: 'rest', control: { in: 'more', label: 'furnished' }, attribute: 'furnished' },
  { key: 'pets', kind: 'flag', arg: 'pets', part: 'rest', control: { in: 'more', label: 'pets', only: 'rent' }, attribute: 'pets' },
  { key: 'deliveryBy', kind: 'number', arg: 'delivery_by', min: 2000, max: 2100, integer: true, part: 'rest', control: { in: 'more', label: 'deliveryBy', years: 5, only: 'project' }, attribute: 'delivery-by' },
  { key: 'stage', kind: 'choice', arg: 'stage', choices: PROJECT_STAGES, part: 'rest', control: { in: 'more', label: 'stage', only: 'project' }, attribute: 'stage' },
  { key: 'openHouse', kind: 'flag', arg: 'open_house', part: 'rest', control: { in: 'more', label: 'openHouse' }, attribute: 'open-house' },
  { key: 'agentId', kind: 'id', arg: 'agent', maxLength: 40, part: 'rest', attribute: 'agent-id' },
] as const satisfies readonly FilterSpec[];

/** The filters a search's description and its chips say (a `part`): each has its words in core/protocol/filter-words.ts. */
export type SaidFilter = Extract<(typeof TABLE)[number], { part: string }>['key'];

// the typings are checked against the table: a filter of SearchFilters without its row does not compile
const everyFilterHasItsRow: [Exclude<FilterKey, (typeof TABLE)[number]['key']>] extends [never] ? true : never = true;
void everyFilterHasItsRow;

export const FILTERS: readonly FilterSpec[] = TABLE;

export const FILTER = Object.fromEntries(FILTERS.map((f) => [f.key, f])) as Record<FilterKey, FilterSpec>;

export type NumberFilter =
  | 'minPrice'
  | 'maxPrice'
  | 'beds'
  | 'baths'
  | 'minSqft'
  | 'maxSqft'
  | 'yearBuiltFrom'
  | 'yearBuiltTo'
  | 'minLotSize'
  | 'maxLotSize'
  | 'maxHoaFee'
  | 'parking'
  | 'deliveryBy';

/** The filters of a few named values (a new development's stage), a select each behind "More filters". */
export type ChoiceFilter = 'stage';
export const CHOICE_FILTERS = FILTERS.filter((f) => f.kind === 'choice').map((f) => f.key) as ChoiceFilter[];

/** The yes-or-no filters, a checkbox each behind "More filters", in the table's order. */
export type FlagFilter = 'storage' | 'furnished' | 'pets' | 'openHouse';
export const FLAG_FILTERS = FILTERS.filter((f) => f.kind === 'flag' && f.control?.in === 'more').map(
  (f) => f.key,
) as FlagFilter[];

/** Whether a filter's control shows, and the filter applies, for the search's operation (pets: rentals only; the delivery: new developments). */
export const shownFor = (key: FilterKey, operation: Operation | undefined): boolean => {
  const only = FILTER[key].control?.only;
  return !only || only === operation;
};

/** A control's choices for the search's operation (a rent's prices are a month's; years from this one). */
export const controlOptions = (
  control: FilterControl | undefined,
  operation: Operation | undefined,
): readonly number[] =>
  control?.years
    ? Array.from({ length: control.years }, (_, i) => nowDate().getUTCFullYear() + i)
    : ((operation === 'rent' ? control?.rentOptions : undefined) ?? control?.options ?? []);

/** The number filters, in the table's order. */
export const NUMBER_FILTERS = FILTERS.filter((f) => f.kind === 'number').map((f) => f.key) as NumberFilter[];

/** One filter's value as it applies (docs/product.md §5: 'any', 0, 999,999,999 and blanks do not); undefined when it does not. */
function applied(spec: FilterSpec, value: unknown, all: SearchFilters): unknown {
  switch (spec.kind) {
    case 'operation':
      // a sale is what no operation means
      return value === 'rent' || value === 'project' ? value : undefined;
    case 'type': {
      const v = typeof value === 'string' ? value.trim() : '';
      return v && v.toLowerCase() !== 'any' ? v : undefined;
    }
    case 'text':
    case 'id': {
      const v = typeof value === 'string' ? value.trim() : '';
      return v || undefined;
    }
    case 'place':
      return typeof value === 'string' && parsePlace(value) ? value : undefined;
    case 'placeName': {
      const v = typeof value === 'string' ? value.trim() : '';
      return v && parsePlace(all.place) ? v : undefined;
    }
    case 'number':
      return typeof value === 'number' &&
        Number.isFinite(value) &&
        value > 0 &&
        (spec.any === undefined || value < spec.any)
        ? value
        : undefined;
    case 'features': {
      const flags = FEATURE_FLAGS.filter((flag) => (value as SearchFilters['features'])?.[flag] === true);
      return flags.length ? Object.fromEntries(flags.map((flag) => [flag, true])) : undefined;
    }
    case 'words':
      return cleanKeywords(value as string) || undefined;
    case 'bbox':
      return validBbox(value);
    case 'polygon':
      return validPolygon(value);
    case 'flag':
      return value === true ? true : undefined;
    case 'choice':
      return spec.choices?.includes(value as string) ? value : undefined;
  }
}

export function appliedFilters(f: SearchFilters): AppliedFilters {
  const out: Record<string, unknown> = {};
  for (const spec of FILTERS) {
    const v = applied(spec, f[spec.key], f);
    if (v !== undefined) out[spec.key] = v;
  }
  return out as AppliedFilters;
}

export function filterArgs(filters: SearchFilters): FilterArgs {
  const f = appliedFilters(filters);
  const args: Record<string, unknown> = {};
  for (const spec of FILTERS) {
    const v = f[spec.key];
    if (v === undefined) continue;
    if (spec.kind === 'features') args.features = FEATURE_FLAGS.filter((flag) => f.features?.[flag]).map(featureColumn);
    else if (spec.kind === 'bbox') [args.area_west, args.area_south, args.area_east, args.area_north] = v as number[];
    else if (spec.arg) args[spec.arg] = v;
  }
  return args as FilterArgs;
}

/** Back from the arguments (a saved search) to the filters the search page takes. */
export function filtersFromArgs(args: FilterArgs): AppliedFilters {
  const f: Record<string, unknown> = {};
  for (const spec of FILTERS) {
    if (spec.kind === 'features') {
      const flags = (args.features ?? []).map(featureFlag).filter((flag): flag is FeatureFlag => flag !== undefined);
      if (flags.length) f.features = Object.fromEntries(flags.map((flag) => [flag, true]));
    } else if (spec.kind === 'bbox') {
      const box = validBbox([args.area_west, args.area_south, args.area_east, args.area_north]);
      if (box) f.bbox = box;
    } else if (spec.arg && args[spec.arg] !== undefined && args[spec.arg] !== null && args[spec.arg] !== '')
      f[spec.key] = args[spec.arg];
  }
  return appliedFilters(f as SearchFilters);
}

/**
 * An area as [west, south, east, north] when it is one: four finite numbers, west before east and
 * south before north, within the world's degrees. The one rule for an area from an address or a
 * request body.
 */
export function validBbox(value: unknown): [number, number, number, number] | undefined {
  if (!Array.isArray(value) || value.length !== 4 || !value.every((n) => typeof n === 'number' && Number.isFinite(n)))
    return undefined;
  const [w, s, e, n] = value as [number, number, number, number];
  if (w >= e || s >= n || Math.abs(s) > 90 || Math.abs(n) > 90 || Math.abs(w) > 180 || Math.abs(e) > 180)
    return undefined;
  return [w, s, e, n];
}

/**
 * The same search, whatever order its filters came in and however its words are cased: what a
 * saved search is unique by (with its address), and what tells the search page that its count
 * must be asked again.
 */
export function filtersKey(args: FilterArgs): string {
  const sorted = Object.fromEntries(
    Object.entries(args)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, typeof v === 'string' ? v.trim().toLowerCase() : v])
      .sort(([a], [b]) => a.localeCompare(b)),
  );
  return JSON.stringify(sorted);
}
