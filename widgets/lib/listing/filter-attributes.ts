/**
 * The listing filters an element can be given as attributes (the search presets them, the map is
 * fixed to them), and the filters they make. Written out (each attribute's comment is its reference
 * documentation), and held to the filter table (core/protocol/filters.ts) by filter-attributes.test.ts.
 */
import type { AttrSchema } from '../attributes.ts';
import { appliedFilters, FEATURE_FLAGS, parsePlace, type SearchFilters } from '../../../core/protocol/filters.ts';

export const filterAttributes = {
  /** `rent`: homes for rent, priced a month; `project`: new developments (proyectos), priced from; `sale` (the default): homes for sale. */
  operation: { type: 'enum', values: ['sale', 'rent', 'project'], default: 'sale' },
  /** City, sector or address filter (partial, case- and accent-insensitive). */
  city: { type: 'string', maxLength: 100 },
  /** A place exactly, as the location box names it: a city (`quito`), a sector (`cumbaya/santa-ines`) or a province (`provincia/pichincha`). */
  place: {
    type: 'string',
    maxLength: 170,
    format: { test: (text: string) => parsePlace(text) !== undefined, example: 'quito/inaquito' },
  },
  /** Only listings with every one of these features, comma-separated: pool, view, waterfront, garage, newConstruction, airConditioning. */
  features: {
    type: 'string',
    maxLength: 120,
    format: {
      test: (text: string) => text.split(',').every((f) => (FEATURE_FLAGS as readonly string[]).includes(f.trim())),
      example: 'pool,garage',
    },
  },
  /** Words in the title, features and description, in Spanish or English: `piscina "vista al mar" -ruido` (quotes for a phrase, a minus to leave a word out). */
  keywords: { type: 'string', maxLength: 200 },
  /** Property type: house, apartment, suite, quinta, land, office, business_premises, commercial_building (or another value of the data). */
  'property-type': { type: 'string', maxLength: 100 },
  /** Minimum price in USD. */
  'min-price': { type: 'number', min: 0, max: 999_999_999 },
  /** Maximum price in USD. */
  'max-price': { type: 'number', min: 0, max: 999_999_999 },
  /** Minimum bedrooms. */
  beds: { type: 'number', min: 0, max: 20, integer: true },
  /** Minimum bathrooms. */
  baths: { type: 'number', min: 0, max: 20 },
  /** The highest alícuota (the condominium's monthly fee) in USD; a listing that does not say one is kept. */
  'max-hoa-fee': { type: 'number', min: 0, max: 100_000 },
  /** Minimum parking spaces (parqueaderos). */
  parking: { type: 'number', min: 0, max: 20, integer: true },
  /** Only listings with a storage unit (bodega). */
  storage: { type: 'boolean', default: false },
  /** Only furnished listings. */
  furnished: { type: 'boolean', default: false },
  /** Only listings that allow pets (rentals say so). */
  pets: { type: 'boolean', default: false },
  /** New developments delivered by the end of this year (with `operation="project"`). */
  'delivery-by': { type: 'number', min: 0, max: 2100, integer: true },
  /** New developments at this stage: pre_sale, under_construction or delivered (with `operation="project"`). */
  stage: { type: 'enum', values: ['pre_sale', 'under_construction', 'delivered'] },
  /** Only listings with an open house in the next seven days. */
  'open-house': { type: 'boolean', default: false },
  /** Only this agent's listings (for an agent's own website). */
  'agent-id': { type: 'string', maxLength: 40 },
} as const satisfies AttrSchema;

/** What the attributes give, as the filter table names it (the features as the attribute's list). */
export type FilterValues = Pick<
  SearchFilters,
  | 'operation'
  | 'maxHoaFee'
  | 'parking'
  | 'storage'
  | 'furnished'
  | 'pets'
  | 'city'
  | 'place'
  | 'keywords'
  | 'propertyType'
  | 'minPrice'
  | 'maxPrice'
  | 'beds'
  | 'baths'
  | 'openHouse'
  | 'deliveryBy'
  | 'stage'
> & { features?: string };

/** The filters the attributes set, as the filter table applies them (agent-id is left to the element: a scope or a filter). */
export function filtersFrom(v: FilterValues): SearchFilters {
  const { features, ...rest } = v;
  const flags = FEATURE_FLAGS.filter((flag) => (features ?? '').split(',').some((x) => x.trim() === flag));
  return appliedFilters({
    ...rest,
    ...(flags.length ? { features: Object.fromEntries(flags.map((flag) => [flag, true])) } : {}),
  });
}
