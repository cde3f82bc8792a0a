/**
 * The searches the contract suites hold the data API to (tests/contract/rest-widget-calls.test.ts,
 * and privileges-data-api.test.ts on a database prepared as a hosted project's): each a search's
 * filters as the widget sends them, and the same conditions written apart in SQL over active EC
 * listings.
 */
import type { SearchFilters } from '../../widgets/lib/data/listings.ts';
import { FOR_SALE, PLACE_TEXT, POOL, WORDS_TEXT } from './independent-sql.ts';

export interface Scenario {
  name: string;
  filters: SearchFilters;
  /** the same conditions in SQL, over active EC listings (for sale, unless the filters say rent) */
  where: string;
  params?: unknown[];
}

/** a triangle over part of Quito, and the same by the sides of its three edges (x = lng, y = lat) */
const TRIANGLE: [number, number][] = [
  [-78.5, -0.22],
  [-78.46, -0.12],
  [-78.44, -0.2],
];
const side = ([ax, ay]: [number, number], [bx, by]: [number, number]) =>
  `((${bx} - (${ax})) * (lat - (${ay})) - (${by} - (${ay})) * (lng - (${ax})))`;
const [T1, T2, T3] = [
  side(TRIANGLE[0]!, TRIANGLE[1]!),
  side(TRIANGLE[1]!, TRIANGLE[2]!),
  side(TRIANGLE[2]!, TRIANGLE[0]!),
];
const IN_TRIANGLE = `lat is not null and lng is not null and ((${T1} >= 0 and ${T2} >= 0 and ${T3} >= 0) or (${T1} <= 0 and ${T2} <= 0 and ${T3} <= 0))`;

const SALES: Scenario[] = [
  { name: 'no filter', filters: {}, where: 'true' },
  { name: 'property type', filters: { propertyType: 'apartment' }, where: "property_type ilike '%apartment%'" },
  { name: "property type 'any' is ignored", filters: { propertyType: 'any' }, where: 'true' },
  {
    name: 'property type with an underscore taken literally',
    filters: { propertyType: 'business_premises' },
    where: "property_type ilike '%business\\_premises%'",
  },
  { name: 'minimum price', filters: { minPrice: 250000 }, where: 'price >= 250000' },
  { name: 'minimum price 0 is ignored', filters: { minPrice: 0 }, where: 'true' },
  { name: 'maximum price', filters: { maxPrice: 500000 }, where: 'price <= 500000' },
  { name: 'maximum price 999999999 is ignored', filters: { maxPrice: 999999999 }, where: 'true' },
  { name: 'beds', filters: { beds: 3 }, where: 'bedrooms >= 3' },
  { name: 'beds 0 is ignored', filters: { beds: 0 }, where: 'true' },
  { name: 'baths', filters: { baths: 2 }, where: 'bathrooms >= 2' },
  { name: 'minimum area', filters: { minSqft: 150 }, where: 'square_feet >= 150' },
  { name: 'maximum area', filters: { maxSqft: 100 }, where: 'square_feet <= 100' },
  {
    name: 'city without accents finds the accented city',
    filters: { city: 'cumbaya' },
    where: `${PLACE_TEXT} like '%cumbaya%'`,
  },
  {
    name: 'city with accents, capitals and spaces',
    filters: { city: '  CUMBAYÁ ' },
    where: `${PLACE_TEXT} like '%cumbaya%'`,
  },
  { name: 'partial city', filters: { city: 'guaya' }, where: `${PLACE_TEXT} like '%guaya%'` },
  {
    name: 'the free text finds a sector (no city is called so)',
    filters: { city: 'Iñaquito' },
    where: `${PLACE_TEXT} like '%inaquito%'`,
  },
  { name: 'blank city is ignored', filters: { city: '   ' }, where: 'true' },
  {
    name: 'city text with LIKE wildcards taken literally',
    filters: { city: '100%_' },
    where: `${PLACE_TEXT} like '%100\\%\\_%'`,
  },
  {
    name: 'a sector picked in the box',
    filters: { place: 'quito/la-carolina' },
    where: "public.search_fold(city) = 'quito' and public.search_fold(sector) = 'la carolina'",
  },
  {
    name: 'a province picked in the box',
    filters: { place: 'provincia/santa-elena' },
    where: "public.search_fold(state) = 'santa elena'",
  },
  {
    name: 'new construction with a garage and air conditioning',
    filters: { features: { newConstruction: true, garage: true, airConditioning: true, view: false } },
    where: "'new_construction' = any(features) and 'garage' = any(features) and 'air_conditioning' = any(features)",
  },
  {
    name: 'built between, on a lot between',
    filters: { yearBuiltFrom: 1990, yearBuiltTo: 2015, minLotSize: 500, maxLotSize: 2000 },
    where: 'year_built between 1990 and 2015 and lot_size between 500 and 2000',
  },
  { name: 'agent', filters: { agentId: '1' }, where: 'agent_id = 1' },
  {
    name: 'visible area',
    filters: { bbox: [-78.5, -0.25, -78.4, -0.1] },
    where: 'lat between -0.25 and -0.1 and lng between -78.5 and -78.4',
  },
  // words: Spanish and English stems, accents folded (a pool's words are piscina and pool)
  { name: 'a word: piscina', filters: { keywords: 'piscina' }, where: POOL },
  { name: 'a word excluded: -piscina', filters: { keywords: '-piscina' }, where: `not ${POOL}` },
  {
    name: 'two words, one with an accent written without it',
    filters: { keywords: 'jardin PISCINA' },
    where: `${WORDS_TEXT} ~ '\\mjardin(es)?\\M' and ${POOL}`,
  },
  { name: 'an English word', filters: { keywords: 'pool' }, where: POOL },
  { name: 'only stop words and signs ask for nothing', filters: { keywords: 'a - "" ! (' }, where: 'true' },
  { name: 'a drawn area', filters: { polygon: TRIANGLE }, where: IN_TRIANGLE },
  {
    name: 'a drawn area, words and a type',
    filters: { polygon: TRIANGLE, keywords: 'piscina', propertyType: 'house' },
    where: `${IN_TRIANGLE} and ${POOL} and property_type ilike '%house%'`,
  },
  {
    name: 'every filter at once',
    filters: {
      propertyType: 'house',
      minPrice: 100000,
      maxPrice: 1000000,
      beds: 3,
      baths: 2,
      minSqft: 150,
      maxSqft: 600,
      city: 'quito',
      place: 'provincia/pichincha',
      features: { garage: true },
      yearBuiltFrom: 1990,
      minLotSize: 200,
    },
    where: `property_type ilike '%house%' and price >= 100000 and price <= 1000000 and bedrooms >= 3 and bathrooms >= 2 and square_feet >= 150 and square_feet <= 600 and ${PLACE_TEXT} like '%quito%' and public.search_fold(state) = 'pichincha' and 'garage' = any(features) and year_built >= 1990 and lot_size >= 200`,
  },
];

/** Rentals (docs/product.md "Rent and buy") and the facts of an Ecuadorian listing. */
const RENTALS: Scenario[] = [
  {
    name: 'for rent in Quito (Arrendar)',
    filters: { operation: 'rent', place: 'quito' },
    where: "operation = 'rent' and public.search_fold(city) = 'quito'",
  },
  {
    name: 'for rent, from 500 to 1,200 a month',
    filters: { operation: 'rent', minPrice: 500, maxPrice: 1200 },
    where: "operation = 'rent' and price between 500 and 1200",
  },
  {
    name: 'for rent in Quito, alícuota up to 150',
    filters: { operation: 'rent', place: 'quito', maxHoaFee: 150 },
    where: "operation = 'rent' and public.search_fold(city) = 'quito' and (hoa_fee is null or hoa_fee <= 150)",
  },
  {
    name: 'for rent in Quito, 2+ parking spaces',
    filters: { operation: 'rent', place: 'quito', parking: 2 },
    where: "operation = 'rent' and public.search_fold(city) = 'quito' and parking_spaces >= 2",
  },
  {
    name: 'for rent: furnished, pets allowed',
    filters: { operation: 'rent', furnished: true, pets: true },
    where: "operation = 'rent' and furnished = 'yes' and pets_allowed",
  },
  {
    name: 'for sale: a storage unit, alícuota up to 100, 1+ parking',
    filters: { storage: true, maxHoaFee: 100, parking: 1 },
    where: `${FOR_SALE} and storage_unit and coalesce(hoa_fee, 0) <= 100 and parking_spaces >= 1`,
  },
  { name: "operation 'sale' is the default's", filters: { operation: 'sale' }, where: FOR_SALE },
];

export const SCENARIOS: Scenario[] = [
  ...SALES.map((s) => ({ ...s, where: `${FOR_SALE} and (${s.where})` })),
  ...RENTALS,
];
