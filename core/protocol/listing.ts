/**
 * A listing row as the data comes (docs/product.md §3) turned into the property the map, the cards and
 * the dialog read: defaults for missing fields, numbers for text numbers, coordinates or an
 * approximate position (docs/decisions.md #3), images in one shape and only from safe URLs, and an
 * agent only when there is something to show of them.
 */
import { parseOpenHouses, type OpenHouseTime } from './open-houses.ts';
import { safeMediaUrl } from './safe-urls.ts';
import { formatCount, formatPrice, priceValue } from './format.ts';
import { cityCentroid, jitter, QUITO } from './places.ts';
import { parseCoordinate } from './text.ts';
import type { Translate } from '../translate.ts';
import { now as clockNow } from '../clock.ts';

/**
 * An active listing of the Ecuador site, as a REST filter (country_code=eq.EC&status=eq.1, the
 * spec's calls): the twin of the database's internal.listings.is_public, which the public view
 * applies anyway, so a backend that serves only the view answers the same.
 */
export const PUBLIC_LISTING = { country_code: 'EC', status: '1' } as const;

/** The mark of the row a listing's page gives its <exp-property-detail> (server/pages/listing-page.tsx), read by the element. */
export const LISTING_ANSWER_MARK = 'data-exp-listing';

export interface PropertyAgent {
  id: string | null;
  name: string;
  photo: string | undefined;
  /** city, else state */
  location: string;
  email: string;
  phone: string;
}

export interface Property {
  id: string;
  title: string;
  address: string;
  price: number;
  bedrooms: number;
  bathrooms: number;
  /** square metres (the source calls the field square_feet) */
  area: number;
  /** the raw type, '' when missing */
  propertyType: string;
  city: string;
  state: string;
  description: string;
  images: string[];
  lat: number;
  lng: number;
  /** true when the position is a fallback near the city (or Quito), not the listing's own */
  approximate: boolean;
  createdAt: string;
  /** when it came on the market ('' when the data does not say) */
  listedAt: string;
  /** its last price cut, when its last change was one */
  priceCut: { at: string; before: number } | null;
  agent: PropertyAgent | undefined;
  /** its lot in m² (0 when the data does not say) */
  lot: number;
  /** the place it is in, as the market index names it: 'quito/cumbaya', or 'quito' without a sector ('' when unknown) */
  marketPlace: string;
  /** its sector's name ('' when none) */
  sector: string;
  /** its open houses as the row had them (those ended included: upcomingOpenHouses tells) */
  openHouses: OpenHouseTime[];
  /** what an Ecuadorian asks first (docs/product.md §3): the alícuota (USD a month), parking spaces, a storage unit, furnished, pets; null: unsaid */
  facts: ListingFactsData;
  /** for sale, for rent at `price` a month (docs/product.md "Rent and buy"), or a new development from `price` (docs/projects.md) */
  operation: 'sale' | 'rent' | 'project';
  /** a new development's listing: its project as the listing's row keeps it (47_projects.sql; read by widgets/lib/listing/project-card.tsx) */
  project?: ListingProject;
  /** a unit of a new development for sale: its project and model (internal.unit_of; docs/projects.md "Its units") */
  unitOf?: ListingUnitOf;
}

/** What a unit for sale says of its project (internal.unit_of): read by core/view/unit-of-project.tsx and the card's badge. */
export interface ListingUnitOf {
  slug: string;
  name: string;
  developer?: string | null;
  stage?: string;
  progress?: number | null;
  /** the month it is delivered, YYYY-MM-DD */
  delivery?: string | null;
  model?: string | null;
}

/** What a new development's listing says of its project (internal.project_listing_sync). */
export interface ListingProject {
  slug: string;
  developer?: string | null;
  stage?: string;
  progress?: number | null;
  /** the month it is delivered, YYYY-MM-DD */
  delivery?: string | null;
  bedrooms_min?: number | null;
  units_available?: number | null;
}

export interface ListingFactsData {
  hoaFee: number | null;
  parking: number | null;
  storage: boolean | null;
  furnished: 'yes' | 'partly' | 'no' | null;
  pets: boolean | null;
}

const orNull = (v: unknown): number | null =>
  v === null || v === undefined || v === '' || !Number.isFinite(Number(v)) ? null : Number(v);
const flag = (v: unknown): boolean | null => (typeof v === 'boolean' ? v : null);

/** A cut at most this many days old is news: "Price reduced" on cards, pins and popups. */
export const PRICE_CUT_DAYS = 30;

const DAY = 86_400_000;

/** The listing's price cut, when it is recent enough to announce (and the price did go down). */
export function recentPriceCut(
  p: Pick<Property, 'priceCut' | 'price'>,
  now = clockNow(),
): { at: string; by: number } | null {
  const cut = p.priceCut;
  if (!cut || !(cut.before > p.price) || p.price <= 0) return null;
  const at = Date.parse(cut.at);
  if (!Number.isFinite(at) || at > now + DAY || now - at > PRICE_CUT_DAYS * DAY) return null;
  return { at: cut.at, by: cut.before - p.price };
}

/** Whole days since the listing came on the market; null when the data does not say. */
export function daysOnMarket(p: Pick<Property, 'listedAt'>, now = clockNow()): number | null {
  const at = Date.parse(p.listedAt);
  return Number.isFinite(at) ? Math.max(0, Math.floor((now - at) / DAY)) : null;
}

/**
 * Directions to the listing in the visitor's maps app (docs/product.md §2, "Location"): Google Maps'
 * cross-platform directions URL, which phones hand to the maps app. An exact position goes as
 * coordinates; an approximate one (a city's centre, decision 3) as the address, so the app finds
 * the street rather than guiding the visitor to a made-up point.
 */
export function directionsUrl(p: Pick<Property, 'lat' | 'lng' | 'approximate' | 'address' | 'city' | 'state'>): string {
  const destination = p.approximate
    ? [p.address, p.city, p.state, 'Ecuador'].filter(Boolean).join(', ')
    : `${p.lat.toFixed(6)},${p.lng.toFixed(6)}`;
  return `https://www.google.com/maps/dir/?api=1&destination=${encodeURIComponent(destination)}`;
}

/** The visible defaults of docs/product.md §3, translated by the caller. */
export interface MappingDefaults {
  title: string;
  agentName: string;
}

export const ENGLISH_DEFAULTS: MappingDefaults = { title: 'Property Listing', agentName: 'Real Estate Agent' };

/** The defaults in the page's language (listing.defaultTitle, listing.defaultAgent): every element and page maps rows with them. */
export const listingDefaults = (t: (key: string) => string): MappingDefaults => ({
  title: t('listing.defaultTitle'),
  agentName: t('listing.defaultAgent'),
});

const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');

const count = (v: unknown): number => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : 0;
  return Number.isFinite(n) && n > 0 ? n : 0;
};

/** The approximate position of a listing without usable coordinates. */
export function fallbackPosition(id: string, city: string | null | undefined, state?: string | null): [number, number] {
  const [lat, lng] = cityCentroid(city) ?? cityCentroid(state) ?? QUITO;
  const [dLat, dLng] = jitter(id);
  return [lat + dLat, lng + dLng];
}

interface ImageObject {
  url?: unknown;
  src?: unknown;
  is_front_cover?: unknown;
}

/**
 * Strings, objects with url/src/is_front_cover, a single object or a single string: the front cover
 * first, unsafe and duplicate URLs dropped, relative paths resolved against the data server.
 */
export function normaliseImages(value: unknown, apiBase: string): string[] {
  const items: unknown[] = Array.isArray(value) ? value : value === null || value === undefined ? [] : [value];
  const entries = items.map((item, index) => {
    if (typeof item === 'string') return { url: item, cover: false, index };
    if (item && typeof item === 'object') {
      const o = item as ImageObject;
      const url = typeof o.url === 'string' && o.url.trim() ? o.url : typeof o.src === 'string' ? o.src : '';
      return { url, cover: o.is_front_cover === true || o.is_front_cover === 'true', index };
    }
    return { url: '', cover: false, index };
  });
  entries.sort((a, b) => Number(b.cover) - Number(a.cover) || a.index - b.index);
  const out: string[] = [];
  for (const e of entries) {
    const safe = safeMediaUrl(e.url, apiBase);
    if (safe && !out.includes(safe)) out.push(safe);
  }
  return out;
}

/**
 * Where a listing is drawn: its coordinates when they are usable (the columns the database parsed,
 * else the feed's text by the same rule), else near its city, marked approximate (decision 3).
 */
export function listingPosition(row: Record<string, unknown>): { lat: number; lng: number; approximate: boolean } {
  const lat = parseCoordinate(row.lat, 90) ?? parseCoordinate(row.geo_lat, 90);
  const lng = parseCoordinate(row.lng, 180) ?? parseCoordinate(row.geo_lon, 180);
  if (lat !== null && lng !== null) return { lat, lng, approximate: false };
  const [fLat, fLng] = fallbackPosition(text(row.id), text(row.city), text(row.state));
  return { lat: fLat, lng: fLng, approximate: true };
}

export function mapListing(
  row: Record<string, unknown>,
  apiBase: string,
  defaults: MappingDefaults = ENGLISH_DEFAULTS,
): Property {
  const id = text(row.id);
  const city = text(row.city);
  const state = text(row.state);
  const { lat: fLat, lng: fLng, approximate } = listingPosition(row);

  const first = text(row.agent_first_name);
  const last = text(row.agent_last_name);
  const email = text(row.agent_email);
  const phone = text(row.agent_phone);
  const name = [first, last].filter(Boolean).join(' ').trim();
  const agent: PropertyAgent | undefined =
    name || email || phone
      ? {
          id: text(row.agent_id) || null,
          name: name || defaults.agentName,
          photo: safeMediaUrl(row.agent_picture, apiBase),
          location: city || state,
          email,
          phone,
        }
      : undefined;

  return {
    id,
    title: text(row.title) || defaults.title,
    address: text(row.address),
    price: priceValue(row.price),
    bedrooms: count(row.bedrooms ?? row.beds),
    bathrooms: count(row.bathrooms ?? row.baths),
    area: count(row.square_feet ?? row.sqft),
    propertyType: text(row.property_type),
    city,
    state,
    description: text(row.description),
    images: normaliseImages(row.images ?? row.image, apiBase),
    lat: fLat,
    lng: fLng,
    approximate,
    createdAt: text(row.created_at),
    listedAt: text(row.listed_at),
    priceCut:
      text(row.price_cut_at) && priceValue(row.price_before_cut) > 0
        ? { at: text(row.price_cut_at), before: priceValue(row.price_before_cut) }
        : null,
    agent,
    lot: count(row.lot_size),
    marketPlace: text(row.city_slug) ? [text(row.city_slug), text(row.sector_slug)].filter(Boolean).join('/') : '',
    sector: text(row.sector),
    openHouses: parseOpenHouses(row.open_houses),
    facts: {
      hoaFee: orNull(row.hoa_fee),
      parking: orNull(row.parking_spaces),
      storage: flag(row.storage_unit),
      furnished: row.furnished === 'yes' || row.furnished === 'partly' || row.furnished === 'no' ? row.furnished : null,
      pets: flag(row.pets_allowed),
    },
    operation: row.operation === 'rent' || row.operation === 'project' ? row.operation : 'sale',
    ...(row.operation === 'project' && typeof (row.project as ListingProject | null)?.slug === 'string'
      ? { project: row.project as ListingProject }
      : {}),
    // internal.unit_of's object, or null
    ...(row.unit_of ? { unitOf: row.unit_of as ListingUnitOf } : {}),
  };
}

/**
 * A listing's price as cards, pages and mails say it, a rent's a month ("$850/month",
 * listing.perMonth); `format` formatPricePill for a map's pin ("$250K", "$850/month").
 */
export function listingPrice(
  p: { price: number; operation?: string },
  t: Translate,
  format: (price: number) => string = formatPrice,
): string {
  return p.operation === 'rent' || p.operation === 'project'
    ? t(p.operation === 'rent' ? 'listing.perMonth' : 'listing.from', { price: format(p.price) })
    : format(p.price);
}

/** What a rent's price is per, as the page says it ("/month", "/mes"): the structured data's unit. */
export const monthUnit = (t: Translate): string => t('listing.perMonth', { price: '' }).trim();

/** Our property types, the one list (the import maps a feed's to these; the seed makes these; labels listing.types.*). */
export const KNOWN_TYPES = [
  'house',
  'apartment',
  'land',
  'office',
  'business_premises',
  'commercial_building',
  'suite',
  'quinta',
] as const;
export type KnownType = (typeof KNOWN_TYPES)[number];
export const isKnownType = (value: unknown): value is KnownType => (KNOWN_TYPES as readonly unknown[]).includes(value);

/**
 * The label of a property type: the known ones translated (keys listing.types.*), other values
 * shown as given with underscores as spaces and title case; missing is 'Residential'.
 */
export function typeLabel(type: string, t: (key: string) => string): string {
  const key = type.trim().toLowerCase().replace(/\s+/g, '_');
  if (!key) return t('listing.types.residential');
  if (isKnownType(key)) return t(`listing.types.${key}`);
  return type
    .replace(/_/g, ' ')
    .trim()
    .toLowerCase()
    .replace(/(^|\s)(\p{L})/gu, (_, space: string, letter: string) => space + letter.toUpperCase());
}

/** Which placeholder a property shows when its image fails: id mod 5 (docs/product.md §5). */
export function placeholderIndex(id: string): number {
  const n = Number.parseInt(id.replace(/\D/g, '') || '0', 10);
  return Number.isFinite(n) ? n % 5 : 0;
}

/**
 * A listing's rooms as they are said beside its price (a card, its page's description, an alert's
 * mail): those it has, so a lot or a shop says no "0 beds".
 */
export function roomTexts(
  p: { bedrooms: number; bathrooms: number },
  t: Translate,
): Array<{ room: 'beds' | 'baths'; text: string }> {
  return (['beds', 'baths'] as const).flatMap((room) => {
    const n = room === 'beds' ? p.bedrooms : p.bathrooms;
    return n > 0 ? [{ room, text: t(`listing.${room}`, { count: n, formatted: formatCount(n) }) }] : [];
  });
}
