/**
 * The listing filters an element can be given as attributes (the search presets them, the map is
 * fixed to them), and the filters they make.
 */
import type { AttrSchema } from '../attributes.ts';
import type { SearchFilters } from '../data/listings.ts';

export const filterAttributes = {
  /** City filter (partial, case- and accent-insensitive). */
  city: { type: 'string', maxLength: 100 },
  /** Property type: house, apartment, land, office, business_premises, commercial_building (or another value of the data). */
  'property-type': { type: 'string', maxLength: 100 },
  /** Minimum price in USD. */
  'min-price': { type: 'number', min: 0, max: 1_000_000_000 },
  /** Maximum price in USD. */
  'max-price': { type: 'number', min: 0, max: 1_000_000_000 },
  /** Minimum bedrooms. */
  beds: { type: 'number', min: 0, max: 20, integer: true },
  /** Minimum bathrooms. */
  baths: { type: 'number', min: 0, max: 20 },
  /** Only this agent's listings (for an agent's own website). */
  'agent-id': { type: 'string', maxLength: 40 },
} as const satisfies AttrSchema;

export interface FilterValues {
  city?: string;
  propertyType?: string;
  minPrice?: number;
  maxPrice?: number;
  beds?: number;
  baths?: number;
}

/** The filters the attributes set (agent-id is left to the element: a scope or a filter). */
export function filtersFrom(v: FilterValues): SearchFilters {
  const f: SearchFilters = {};
  if (v.city) f.city = v.city;
  if (v.propertyType) f.propertyType = v.propertyType;
  if (v.minPrice) f.minPrice = v.minPrice;
  if (v.maxPrice) f.maxPrice = v.maxPrice;
  if (v.beds) f.beds = v.beds;
  if (v.baths) f.baths = v.baths;
  return f;
}
