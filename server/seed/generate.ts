/**
 * The deterministic seed: the same rows on every machine and in every test (fixed random seed,
 * fixed reference date). Realistic listings over the places of places.ts, plus the rows that
 * exercise the rules: inactive and foreign listings that must never show, coordinates that are
 * missing, empty, non-numeric or numeric strings, missing title / price / type, odd types, HTML in
 * text, every shape of the images field, and agent fields partly empty.
 */
import { generateAgents, type AgentRow } from './agents.ts';
import { AREA, findPlace, PLACES, PRICE_PER_M2, type Place, type PropertyType } from './places.ts';
import { descriptionFor, titleFor, type Pick } from './text.ts';
import type { Operation } from '../../core/protocol/filters.ts';

export interface ListingRow {
  id: number;
  title: string | null;
  address: string | null;
  price: number | null;
  bedrooms: number | null;
  bathrooms: number | null;
  square_feet: number | null;
  property_type: string | null;
  city: string | null;
  state: string | null;
  images: unknown;
  geo_lat: string | null;
  geo_lon: string | null;
  description: string | null;
  created_at: string;
  status: string;
  country_code: string;
  agent_id: number | null;
  agent_first_name: string | null;
  agent_last_name: string | null;
  agent_email: string | null;
  agent_phone: string | null;
  agent_picture: string | null;
  sector: string | null;
  features: string[];
  year_built: number | null;
  lot_size: number | null;
  /** when it came on the market (its creation, for the seed); the database's default is now */
  listed_at?: string | null;
  /** when it appeared here (the alerts' new): when it came on the market, for the seed; the default is now */
  appeared_at?: string | null;
  /** its last price cut and the price before it (priceHistoryFor) */
  price_cut_at?: string | null;
  price_before_cut?: number | null;
  hoa_fee?: number | null;
  parking_spaces?: number | null;
  storage_unit?: boolean | null;
  furnished?: 'yes' | 'partly' | 'no' | null;
  pets_allowed?: boolean | null;
  /** 'rent': the price is a month's (rentalsFor); the database's default is 'sale' */
  operation?: Operation;
}

/** One kept price change (internal.listing_price_changes). */
export interface PriceChangeRow {
  listing_id: number;
  old_price: number;
  new_price: number;
  changed_at: string;
}

// prettier-ignore
export const LISTING_COLUMNS = [
  'id', 'title', 'address', 'price', 'bedrooms', 'bathrooms', 'square_feet', 'property_type', 'city', 'state', 'images', 'geo_lat', 'geo_lon',
  'description', 'created_at', 'status', 'country_code', 'agent_id', 'agent_first_name', 'agent_last_name', 'agent_email', 'agent_phone', 'agent_picture',
  'sector', 'features', 'year_built', 'lot_size', 'listed_at', 'price_cut_at', 'price_before_cut',
  'hoa_fee', 'parking_spaces', 'storage_unit', 'furnished', 'pets_allowed', 'operation', 'appeared_at',
] as const satisfies ReadonlyArray<keyof ListingRow>;

export const PRICE_CHANGE_COLUMNS = ['listing_id', 'old_price', 'new_price', 'changed_at'] as const satisfies ReadonlyArray<keyof PriceChangeRow>;

/** One open house (internal.open_houses; docs/visits.md "Open houses"). */
export interface OpenHouseRow {
  listing_id: number;
  source: string;
  source_key: string;
  starts_at: string;
  ends_at: string;
  remarks: string | null;
  livestream_url: string | null;
  appointment_required: boolean;
}

export const OPEN_HOUSE_COLUMNS = ['listing_id', 'source', 'source_key', 'starts_at', 'ends_at', 'remarks', 'livestream_url', 'appointment_required'] as const satisfies ReadonlyArray<
  keyof OpenHouseRow
>;

// prettier-ignore
export const AGENT_COLUMNS = [
  'id', 'first_name', 'last_name', 'email', 'phone', 'picture', 'country_code', 'location', 'about', 'languages', 'specializations', 'certifications',
  'locations_served', 'facebook', 'instagram', 'linkedin', 'website', 'private_notes', 'created_at',
] as const satisfies ReadonlyArray<keyof AgentRow>;

const SEED = 20261121;
/** created_at spreads over the two years before this date */
const REFERENCE_DATE = Date.UTC(2026, 10, 1);
export const DEFAULT_LISTINGS = 1800;

/** mulberry32: small, fast, and the same sequence everywhere */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const MEDIA = '/media/listings';
const EXTERIOR: Record<PropertyType, [string, number]> = {
  house: ['house', 8],
  apartment: ['apartment', 8],
  land: ['land', 6],
  office: ['office', 5],
  business_premises: ['business', 5],
  commercial_building: ['commercial', 5],
};
const INTERIOR: Record<PropertyType, Array<[string, number]>> = {
  house: [
    ['living', 6],
    ['kitchen', 5],
    ['bedroom', 5],
    ['bathroom', 4],
    ['garden', 4],
  ],
  apartment: [
    ['living', 6],
    ['kitchen', 5],
    ['bedroom', 5],
    ['bathroom', 4],
    ['view', 4],
  ],
  land: [
    ['view', 4],
    ['garden', 4],
  ],
  office: [
    ['office-interior', 4],
    ['view', 4],
  ],
  business_premises: [['shop-interior', 4]],
  commercial_building: [
    ['office-interior', 4],
    ['shop-interior', 4],
  ],
};

function imagesFor(type: PropertyType, rand: () => number, pick: Pick): unknown {
  const [ext, extCount] = EXTERIOR[type];
  const count = 1 + Math.floor(rand() * 6);
  const urls = [`${MEDIA}/${ext}-${1 + Math.floor(rand() * extCount)}.svg`];
  const pool = INTERIOR[type];
  while (urls.length < count) {
    const [name, n] = pick(pool);
    const url = `${MEDIA}/${name}-${1 + Math.floor(rand() * n)}.svg`;
    if (!urls.includes(url)) urls.push(url);
    else if (urls.length >= pool.reduce((s, [, k]) => s + k, 1)) break;
  }
  const shape = rand();
  if (shape < 0.45) return urls;
  if (shape < 0.75) {
    // objects; the cover is flagged but not always first, as some feeds send it
    const objects = urls.map((url, i) => ({ url, is_front_cover: i === 0 }));
    if (objects.length > 2 && rand() < 0.5) objects.push(objects.shift() as (typeof objects)[number]);
    return objects;
  }
  if (shape < 0.87) return urls.map((src) => ({ src }));
  if (shape < 0.93) return { url: urls[0] };
  return urls.map((u, i) => (i % 2 ? { url: u } : u));
}

function pointNear(place: Place, rand: () => number): [number, number] {
  // uniform in a disc of radiusKm (1° latitude ≈ 110.6 km; longitude shrinks with cos(lat))
  const r = place.radiusKm * Math.sqrt(rand());
  const theta = rand() * 2 * Math.PI;
  const lat = place.lat + (r * Math.sin(theta)) / 110.6;
  const lng = place.lng + (r * Math.cos(theta)) / (111.3 * Math.cos((place.lat * Math.PI) / 180));
  return [lat, lng];
}

/** A number in [0, 1) from a text, the same everywhere (FNV-1a): where a sector lies in its city. */
function hashUnit(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h / 2 ** 32;
}

/**
 * A sector of a city as a small place of its own: its centre somewhere in the city's disc (the same
 * for every listing of the sector) and about a third of the city's radius, so a sector's listings are
 * together on the map, as real ones are.
 */
function sectorPlace(place: Place, sector: string): Place {
  const angle = hashUnit(`${place.city}|${sector}`) * 2 * Math.PI;
  // the centre within 60% of the city's radius and the sector's own 35%: every listing stays inside the city's disc
  const r = place.radiusKm * (0.1 + 0.5 * Math.sqrt(hashUnit(`${sector}|${place.city}`)));
  return {
    ...place,
    lat: place.lat + (r * Math.sin(angle)) / 110.6,
    lng: place.lng + (r * Math.cos(angle)) / (111.3 * Math.cos((place.lat * Math.PI) / 180)),
    radiusKm: place.radiusKm * 0.35,
  };
}

const FEATURE_WORDS: Array<[string, RegExp]> = [
  ['pool', /piscina|\bpool\b/i],
  ['view', /\bvista|\bview/i],
  ['waterfront', /frente al mar|frente a la playa|malec[oó]n|beachfront|oceanfront|waterfront/i],
  ['garage', /parqueadero|garaje|parking|garage/i],
  ['air_conditioning', /aire acondicionado|air conditioning|\ba\/c\b/i],
];

/**
 * The facts a feed carries beside the text: features (what the text says, and what such homes
 * here often have), the year built and the lot size. From a random stream of the listing's own,
 * so adding them left every other seeded value as it was.
 */
function listingExtras(id: number, type: string, place: Place | undefined, area: number | null, text: string): { features: string[]; year_built: number | null; lot_size: number | null } {
  const rand = random(SEED ^ Math.imul(id, 0x9e3779b1));
  const features = new Set(FEATURE_WORDS.filter(([, re]) => re.test(text)).map(([f]) => f));
  const building = type !== 'land';
  const costa = place?.region === 'costa';
  const beach = place?.mix === PLACES.find((p) => p.city === 'Salinas')?.mix;
  if (building && type !== 'office' && rand() < (type === 'house' ? 0.55 : 0.7)) features.add('garage');
  if (building && rand() < (costa ? 0.6 : 0.08)) features.add('air_conditioning');
  if ((type === 'house' || type === 'apartment') && rand() < (beach ? 0.35 : costa ? 0.18 : 0.07)) features.add('pool');
  if (beach && rand() < 0.3) features.add('waterfront');
  if (rand() < 0.12) features.add('view');
  let year_built: number | null = null;
  if (building) {
    // most stock is from the last forty years; a few colonial or mid-century buildings
    const u = rand();
    year_built = u < 0.05 ? 1900 + Math.floor(rand() * 50) : u < 0.2 ? 1950 + Math.floor(rand() * 30) : 1980 + Math.floor(Math.pow(rand(), 0.7) * 47);
    if (year_built >= 2025) features.add('new_construction');
  }
  const lot_size = type === 'land' ? area : type === 'house' && area ? Math.round((area * (1.2 + rand() * 2.3)) / 10) * 10 : null;
  return { features: [...features].sort(), year_built, lot_size };
}

/**
 * What an Ecuadorian asks first of a home (docs/import.md "The mapping"), as the seed's market has
 * it, from a stream of its own per listing (the other draws stay as they were): a flat's alícuota
 * about USD 0.6-1.4 a m² a month, dearer in dearer sectors (at least 35), a gated house's one in
 * three about half that; parking (a flat one, two from 100 m²; a house one to three); a storage
 * unit for half the flats; a few flats furnished or partly; and what its own words say (its
 * description's parking spaces, a bodega, furnished) over what was drawn.
 */
function listingFacts(
  id: number,
  type: string,
  area: number | null,
  level: number,
  text: string,
): { hoa_fee: number | null; parking_spaces: number | null; storage_unit: boolean | null; furnished: ListingRow['furnished'] } {
  const facts = drawnFacts(id, type, area, level);
  // what the listing's own words say wins: "3 parqueaderos cubiertos y bodega", "2 parking spaces and storage"
  const parking = /(\d+)\s+(?:parqueaderos|(?:covered\s+)?parking)/i.exec(text);
  if (parking) facts.parking_spaces = Number(parking[1]);
  if (/\bbodega\b|\bstorage\b/i.test(text) && type !== 'land') facts.storage_unit = true;
  if (/amoblad[oa]|furnished/i.test(text) && type === 'apartment') facts.furnished = 'yes';
  return facts;
}

function drawnFacts(
  id: number,
  type: string,
  area: number | null,
  level: number,
): { hoa_fee: number | null; parking_spaces: number | null; storage_unit: boolean | null; furnished: ListingRow['furnished'] } {
  const rand = random(SEED ^ Math.imul(id, 0x85ebca6b));
  const m2 = area ?? 0;
  if (type === 'apartment') {
    const u = rand();
    return {
      hoa_fee: Math.max(35, Math.round(m2 * (0.6 + rand() * 0.8) * level)),
      parking_spaces: m2 >= 100 ? 2 : rand() < 0.85 ? 1 : 0,
      storage_unit: rand() < 0.5,
      furnished: u < 0.1 ? 'yes' : u < 0.16 ? 'partly' : 'no',
    };
  }
  if (type === 'house') {
    const gated = rand() < 0.35;
    return { hoa_fee: gated ? Math.max(30, Math.round(m2 * (0.3 + rand() * 0.4) * level)) : null, parking_spaces: 1 + Math.floor(rand() * 3), storage_unit: null, furnished: null };
  }
  return { hoa_fee: null, parking_spaces: type === 'land' ? null : Math.floor(rand() * 3), storage_unit: null, furnished: null };
}

/** A sector's price level against its city's, 0.8 to 1.25, the same in every run: some sectors are dearer than others. */
function sectorFactor(city: string, sector: string): number {
  let h = 0x811c9dc5;
  for (const c of `${city}/${sector}`) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
  return 0.8 + 0.45 * (h / 0xffffffff);
}

/** What the home's features add to its price per m² (docs/valuation.md reads the same kind of differences). */
const FEATURE_PREMIUM: Record<string, number> = { pool: 1.05, view: 1.06, waterfront: 1.1, garage: 1.02, air_conditioning: 1.02, new_construction: 1.04 };

/**
 * A listing's asking price as a market makes it: the type's price per m² at its city's and its
 * sector's level, a little less per m² for a larger home (and much less for a large lot of land),
 * more for a newer one, for its features and for more garden, times what is the home's own.
 */
function askingPrice(
  type: PropertyType,
  place: Place,
  sector: string,
  home: { square_feet: number | null; year_built: number | null; lot_size: number | null; features: string[] },
  own: number,
): number {
  const area = home.square_feet ?? 0;
  const [pLo, pHi] = PRICE_PER_M2[type];
  const [aLo, aHi] = AREA[type];
  const size = type === 'land' ? (area > 800 ? Math.sqrt(800 / area) : 1) : Math.pow(area / Math.sqrt(aLo * aHi), -0.12);
  const age = home.year_built ? 1 + 0.025 * Math.max(-4, Math.min(3, (home.year_built - 1995) / 10)) : 1;
  const features = home.features.reduce((f, k) => f * (FEATURE_PREMIUM[k] ?? 1), 1);
  const garden = type === 'house' && home.lot_size && area ? Math.pow(home.lot_size / area / 2.35, 0.08) : 1;
  const ppm2 = Math.sqrt(pLo * pHi) * place.priceFactor * sectorFactor(place.city, sector) * size * age * features * garden * own;
  return Math.max(roundPrice(area * ppm2), type === 'land' ? 8000 : 25_000);
}

function weighted<T extends string>(weights: Record<T, number>, rand: () => number): T {
  const entries = Object.entries(weights) as Array<[T, number]>;
  let x = rand() * entries.reduce((s, [, w]) => s + w, 0);
  for (const [k, w] of entries) {
    x -= w;
    if (x <= 0) return k;
  }
  return entries[entries.length - 1]![0];
}

/** The listing's copy of its agent (the feed denormalises the agent onto each listing). */
function agentColumns(agent: AgentRow) {
  return {
    agent_id: agent.id,
    agent_first_name: agent.first_name,
    agent_last_name: agent.last_name,
    agent_email: agent.email,
    agent_phone: agent.phone,
    agent_picture: agent.picture,
  };
}

/** What a home's row says of the home and where it stands (no draws: the callers drew it all). */
function homeColumns(home: { place: Place; sector: string; type: string; area: number; bedrooms: number | null; bathrooms: number | null; lat: number; lng: number }) {
  return {
    bedrooms: home.bedrooms,
    bathrooms: home.bathrooms,
    square_feet: home.area,
    property_type: home.type,
    city: home.place.city,
    state: home.place.state,
    geo_lat: home.lat.toFixed(6),
    geo_lon: home.lng.toFixed(6),
    sector: home.sector,
    country_code: 'EC',
    features: [],
    year_built: null,
    lot_size: null,
  };
}

function roundPrice(p: number): number {
  const step = p < 100_000 ? 500 : p < 1_000_000 ? 1000 : 5000;
  return Math.round(p / step) * step;
}

/** A time a listing was on the market that is over (internal.listing_spells; the open ones the database writes). */
export interface SpellRow {
  listing_id: number;
  on_at: string;
  off_at: string;
}

export const SPELL_COLUMNS = ['listing_id', 'on_at', 'off_at'] as const satisfies ReadonlyArray<keyof SpellRow>;

export interface Seed {
  agents: AgentRow[];
  listings: ListingRow[];
  priceChanges: PriceChangeRow[];
  spells: SpellRow[];
  openHouses: OpenHouseRow[];
}

const HOUR = 3_600_000;

/**
 * Open houses over the next two weekends, as agents hold them: every 29th active house or
 * apartment on Saturday 10:00-12:00 in Ecuador (UTC-5), some on Sunday 11:00-13:00 too, a few on a
 * weekday evening this week, a few streamed, one by appointment. From `now` (the seed's day), so
 * "this week" always has some.
 */
function openHousesFor(listings: readonly ListingRow[], now: number): OpenHouseRow[] {
  const out: OpenHouseRow[] = [];
  const day = Math.floor(now / DAY) * DAY;
  // the next Saturday (or today's) and the one after, at 00:00 in Ecuador
  const saturday = day + ((6 - new Date(day).getUTCDay() + 7) % 7) * DAY + 5 * HOUR;
  const chosen = listings.filter((l) => l.status === '1' && l.country_code === 'EC' && (l.property_type === 'house' || l.property_type === 'apartment')).filter((_, i) => i % 29 === 3);
  for (const [i, l] of chosen.entries()) {
    const week = i % 3 === 2 ? 7 * DAY : 0;
    const at = (start: number, hours: number, n: number, extra: Partial<OpenHouseRow> = {}) =>
      out.push({
        listing_id: l.id,
        source: 'seed',
        source_key: `seed-${l.id}-${n}`,
        starts_at: new Date(start).toISOString(),
        ends_at: new Date(start + hours * HOUR).toISOString(),
        remarks: null,
        livestream_url: null,
        appointment_required: false,
        ...extra,
      });
    at(saturday + week + 10 * HOUR, 2, 1, i % 5 === 0 ? { livestream_url: `https://live.expecuador.example/open-house/${l.id}` } : {});
    if (i % 4 === 1) at(saturday + week + DAY + 11 * HOUR, 2, 2, { remarks: 'Café y recorrido guiado por el agente.' });
    // a weekday evening within the next days
    if (i % 7 === 4) at(day + 2 * DAY + 5 * HOUR + 17 * HOUR, 2, 3, { appointment_required: i % 14 === 4 });
  }
  return out;
}

/**
 * How asking prices moved over the seed's two years, a year (docs/market.md, "The seed"): each
 * city its own trend (the valleys of Quito and the coast's beach towns up, Guayaquil and Bahía
 * down), each sector a point or three either side of its city's.
 */
const ANNUAL_TREND: Record<string, number> = {
  Quito: 0.03,
  Cumbayá: 0.07,
  Tumbaco: 0.06,
  Guayaquil: -0.01,
  Samborondón: 0.04,
  Cuenca: 0.025,
  Manta: 0.05,
  Salinas: 0.03,
  Montañita: 0.08,
  Olón: 0.06,
  Cotacachi: 0.01,
  Vilcabamba: 0,
  Loja: 0.01,
  Ambato: 0.02,
  Ibarra: 0.015,
  'Bahía de Caráquez': -0.02,
};

function sectorShift(sector: string): number {
  let h = 0;
  for (const c of sector) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return ((h % 7) - 3) / 100;
}

/** What a price asked at `at` was worth in the seed's market of `reference`, in this city and sector. */
function marketFactor(city: string | null, sector: string | null, at: number, reference: number): number {
  const trend = (ANNUAL_TREND[city ?? ''] ?? 0.02) + sectorShift(sector ?? '');
  return Math.pow(1 + trend, (at - reference) / (365 * DAY));
}

const DAY = 86_400_000;

/**
 * A listing's price before now, as the market makes it: about one in ten active listings was cut
 * once (3-10%), one in twenty-five twice, one in fifty raised; the latest change within the last
 * 90 days (a third of them within 30, when cards say "Price reduced"), never before it was listed.
 * Its own random sequence (from its id), so the rest of the seed is the same with or without it.
 */
function priceHistoryFor(row: ListingRow, now: number, seed: number): PriceChangeRow[] {
  if (row.status !== '1' || !row.price || row.price <= 0) return [];
  const rand = random(seed * 31 + row.id);
  const kind = rand();
  const ageDays = Math.floor((now - Date.parse(row.created_at)) / DAY) - 1;
  if (kind >= 0.16 || ageDays < 3) return [];
  const at = (daysAgo: number) => new Date(now - daysAgo * DAY - Math.floor(rand() * DAY)).toISOString();
  const latest = 1 + Math.floor(rand() * Math.min(90, ageDays - 1));
  const raise = (price: number, pct: number) => Math.max(roundPrice(price / (1 - pct)), price + 500);
  if (kind < 0.1) {
    return [{ listing_id: row.id, old_price: raise(row.price, 0.03 + rand() * 0.07), new_price: row.price, changed_at: at(latest) }];
  }
  if (kind < 0.14) {
    const between = raise(row.price, 0.03 + rand() * 0.05);
    const earlier = Math.min(ageDays, latest + 10 + Math.floor(rand() * 60));
    return [
      { listing_id: row.id, old_price: raise(between, 0.03 + rand() * 0.05), new_price: between, changed_at: at(earlier) },
      { listing_id: row.id, old_price: between, new_price: row.price, changed_at: at(latest) },
    ];
  }
  return [{ listing_id: row.id, old_price: Math.min(roundPrice(row.price * 0.95), row.price - 500), new_price: row.price, changed_at: at(latest) }];
}

/**
 * `now` places the price changes (relative to it: the server passes the time it seeds); without
 * it, the reference date and three weeks, so the seed is the same on every call.
 */
export function generateSeed(options: { listings?: number; seed?: number; now?: number } = {}): Seed {
  const total = options.listings ?? DEFAULT_LISTINGS;
  const rand = random(options.seed ?? SEED);
  const pick: Pick = (items) => items[Math.floor(rand() * items.length)] as (typeof items)[number];
  const agents = generateAgents(rand);
  const ecAgents = agents.filter((a) => a.country_code === 'EC');
  const byCity = new Map<string, AgentRow[]>();
  for (const a of ecAgents) for (const c of a.home) byCity.set(c, [...(byCity.get(c) ?? []), a]);
  const placeWeights = Object.fromEntries(PLACES.map((p, i) => [String(i), p.weight])) as Record<string, number>;

  const listings: ListingRow[] = [];
  const span = 730 * 86_400_000;
  for (let i = 0; i < total; i++) {
    const place = PLACES[Number(weighted(placeWeights, rand))] as Place;
    const type = weighted(place.mix, rand);
    const [aLo, aHi] = AREA[type];
    // areas cluster at the low end, as real stock does
    let area = Math.round(aLo + (aHi - aLo) * Math.pow(rand(), type === 'land' ? 3 : 2.2));
    if (type === 'land' && area > 2000) area = Math.round(area / 50) * 50;
    // what is the home's own in its price (finishes, condition, the owner's hopes): about 13%, lognormal
    const own = Math.exp(0.13 * Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand()));
    let bedrooms = 0;
    let bathrooms = type === 'land' ? 0 : 1;
    if (type === 'apartment') {
      bedrooms = Math.max(1, Math.min(4, Math.round(area / 55 + rand() * 0.8)));
      bathrooms = Math.min(4, bedrooms === 1 ? 1 + (rand() < 0.4 ? 0.5 : 0) : bedrooms - (rand() < 0.5 ? 0.5 : 0));
    } else if (type === 'house') {
      bedrooms = Math.max(2, Math.min(6, Math.round(area / 85 + rand())));
      bathrooms = Math.min(6, bedrooms + (rand() < 0.5 ? -0.5 : rand() < 0.5 ? 0.5 : 0));
    } else if (type === 'office' || type === 'business_premises') {
      bathrooms = 1 + (area > 150 ? 1 : 0) + (area > 300 ? 1 : 0);
    } else if (type === 'commercial_building') {
      bathrooms = 4 + Math.floor(area / 600);
    }
    const neighbourhood = pick(place.neighbourhoods);
    const english = rand() < place.expat;
    const facts = { type, city: place.city, neighbourhood, bedrooms, bathrooms, area, region: place.region, english };
    const [lat, lng] = pointNear(sectorPlace(place, neighbourhood), rand);
    const street = pick(place.streets);
    const number =
      place.city === 'Quito' || place.city === 'Cumbayá' || place.city === 'Tumbaco'
        ? `${pick(['N', 'E', 'S', 'Oe'])}${10 + Math.floor(rand() * 70)}-${100 + Math.floor(rand() * 300)}`
        : String(100 + Math.floor(rand() * 1900));
    const candidates = byCity.get(place.city) ?? ecAgents;
    const agent = rand() < 0.85 ? pick(candidates) : pick(ecAgents);
    const created = new Date(REFERENCE_DATE - Math.floor(rand() * span) - i).toISOString();
    const status = rand() < 0.05 ? pick(['0', '2', '3']) : '1';

    const row: ListingRow = {
      id: i + 1,
      title: titleFor(facts, pick),
      address: `${street} ${number}, ${neighbourhood}`,
      price: null,
      ...homeColumns({ place, sector: neighbourhood, type, area, bedrooms, bathrooms, lat, lng }),
      images: imagesFor(type, rand, pick),
      description: descriptionFor(facts, pick, rand),
      created_at: created,
      status,
      ...agentColumns(agent),
    };
    Object.assign(row, listingExtras(row.id, type, place, area, `${row.title} ${row.description}`));
    Object.assign(row, listingFacts(row.id, type, area, sectorFactor(row.city ?? '', neighbourhood ?? ''), `${row.title} ${row.description}`));
    row.price = askingPrice(type, place, neighbourhood, row, own);
    // feeds are imperfect: a sprinkle of the real-world defects on ordinary rows
    const defect = rand();
    if (defect < 0.012) row.agent_email = null;
    else if (defect < 0.02) row.agent_phone = null;
    else if (defect < 0.03) Object.assign(row, { agent_id: null, agent_first_name: null, agent_last_name: null, agent_email: null, agent_phone: null, agent_picture: null });
    else if (defect < 0.036) Object.assign(row, { geo_lat: null, geo_lon: null });
    else if (defect < 0.04) row.geo_lat = ` ${row.geo_lat} `;
    listings.push(row);
  }
  // each asking price as the market stood when the listing came on it (marketFactor)
  for (const row of listings)
    if (row.price) row.price = Math.max(roundPrice(row.price * marketFactor(row.city, row.sector, Date.parse(row.created_at), REFERENCE_DATE)), row.property_type === 'land' ? 8000 : 25_000);
  listings.push(...specialRows(listings.length + 1, ecAgents, rand));
  // the start of that day (UTC): two databases seeded the same day hold the same rows
  const now = Math.floor((options.now ?? REFERENCE_DATE + 21 * DAY) / DAY) * DAY;
  const priceChanges: PriceChangeRow[] = [];
  for (const row of listings) {
    row.listed_at = row.created_at;
    const changes = priceHistoryFor(row, now, options.seed ?? SEED);
    priceChanges.push(...changes);
    const last = changes.at(-1);
    if (last && last.new_price < last.old_price) Object.assign(row, { price_cut_at: last.changed_at, price_before_cut: last.old_price });
  }
  const past = pastListings(listings, now, options.seed ?? SEED);
  // the next id after every row (a loop: 200,000 arguments to Math.max overflow the stack)
  const nextId = [...listings, ...past.listings].reduce((max, l) => Math.max(max, l.id), 0) + 1;
  const rentals = rentalsFor(listings, nextId, byCity, now, options.seed ?? SEED);
  // every row says its operation (the column is not null; a sale is the database's default)
  for (const l of [...listings, ...past.listings]) l.operation ??= 'sale';
  // each appeared here when it came on the market (the seed's history is this site's)
  const all = [...listings, ...past.listings, ...rentals].map((row) => ({ ...row, appeared_at: row.listed_at }));
  return { agents, listings: all, priceChanges, spells: [...spellsOfInactive(listings, now), ...past.spells], openHouses: openHousesFor(listings, now) };
}

/** Rent a month per m² at Quito's mid-range (priceFactor 1.0), as [low, high]: a suite's dearer per m², a house's cheaper. */
const RENT_PER_M2: Record<'suite' | 'apartment' | 'house', [number, number]> = { suite: [7.5, 12], apartment: [5, 9], house: [3.5, 6.5] };
const RENT_AREA: Record<'suite' | 'apartment' | 'house', [number, number]> = { suite: [28, 60], apartment: [55, 190], house: [110, 380] };
const RENT_CITIES: Record<string, number> = { Quito: 0.3, Guayaquil: 0.28, Cuenca: 0.25, Cumbayá: 0.15, Samborondón: 0.15, Salinas: 0.1, Manta: 0.1 };

/**
 * The homes for rent (docs/product.md "Rent and buy"): in Quito, Guayaquil and Cuenca about a
 * quarter as many as the homes for sale there (fewer in the valleys and on the coast), flats,
 * suites and houses at a month's rent that fits their sector (the sale's sector levels), listed
 * over the last four months; a suite furnished more often than not, pets allowed in about half,
 * the alícuota and parking of the homes for sale. Their own random stream, after every other row.
 */
function rentalsFor(current: ListingRow[], firstId: number, byCity: Map<string, AgentRow[]>, now: number, seed: number): ListingRow[] {
  const rand = random(seed * 13 + 5);
  const pick: Pick = (items) => items[Math.floor(rand() * items.length)] as (typeof items)[number];
  const out: ListingRow[] = [];
  let id = firstId;
  for (const place of PLACES) {
    const share = RENT_CITIES[place.city];
    if (!share) continue;
    const sales = current.filter((l) => l.city === place.city && l.status === '1').length;
    const agents = byCity.get(place.city) ?? [...byCity.values()].flat();
    for (let i = 0; i < Math.round(sales * share); i++) {
      const type = weighted({ apartment: 58, suite: 20, house: 22 }, rand);
      const [aLo, aHi] = RENT_AREA[type];
      const area = Math.round(aLo + (aHi - aLo) * Math.pow(rand(), 1.8));
      const hood = pick(place.neighbourhoods);
      const bedrooms = type === 'suite' ? 1 : type === 'apartment' ? Math.max(1, Math.min(4, Math.round(area / 50 + rand() * 0.6))) : Math.max(2, Math.min(5, Math.round(area / 80 + rand())));
      const bathrooms = type === 'suite' ? 1 : Math.min(5, bedrooms + (rand() < 0.5 ? -0.5 : 0.5));
      const [pLo, pHi] = RENT_PER_M2[type];
      const own = 0.88 + rand() * 0.24;
      const rent = Math.max(180, Math.round((area * Math.sqrt(pLo * pHi) * place.priceFactor * sectorFactor(place.city, hood) * Math.pow(area / Math.sqrt(aLo * aHi), -0.15) * own) / 10) * 10);
      const english = rand() < place.expat;
      const [lat, lng] = pointNear(sectorPlace(place, hood), rand);
      const furnishedDraw = rand();
      const furnished = type === 'suite' ? (furnishedDraw < 0.6 ? 'yes' : furnishedDraw < 0.75 ? 'partly' : 'no') : furnishedDraw < 0.18 ? 'yes' : furnishedDraw < 0.28 ? 'partly' : 'no';
      const petsDraw = rand();
      const pets = petsDraw < 0.45 ? true : petsDraw < 0.8 ? false : null;
      const words = rentalWords(type, { beds: bedrooms, hood, city: place.city, area, furnished: furnished === 'yes', pets: pets === true }, english, pick);
      const created = new Date(now - Math.floor(rand() * 120 * DAY) - 3 * HOUR).toISOString();
      const agent = pick(agents);
      const row: ListingRow = {
        id,
        title: words.title,
        address: `${pick(place.streets)} ${100 + Math.floor(rand() * 900)}, ${hood}`,
        price: rent,
        ...homeColumns({ place, sector: hood, type, area, bedrooms, bathrooms, lat, lng }),
        images: imagesFor(type === 'house' ? 'house' : 'apartment', rand, pick),
        description: words.description,
        created_at: created,
        listed_at: created,
        status: rand() < 0.05 ? '2' : '1',
        ...(agent ? agentColumns(agent) : { agent_id: null, agent_first_name: null, agent_last_name: null, agent_email: null, agent_phone: null, agent_picture: null }),
        operation: 'rent',
        pets_allowed: pets,
      };
      Object.assign(row, listingExtras(id, type === 'house' ? 'house' : 'apartment', place, area, `${row.title} ${row.description}`));
      Object.assign(row, drawnFacts(id, type === 'house' ? 'house' : 'apartment', area, sectorFactor(place.city, hood)), { furnished });
      out.push(row);
      id++;
    }
  }
  return out;
}

/** A rental's title and description, as agents write them (Spanish, or English where foreigners rent). */
function rentalWords(
  type: 'suite' | 'apartment' | 'house',
  f: { beds: number; hood: string; city: string; area: number; furnished: boolean; pets: boolean },
  english: boolean,
  pick: Pick,
): { title: string; description: string } {
  const values: Record<string, string> = { beds: String(f.beds), hood: f.hood, city: f.city, area: String(f.area) };
  const fill = (text: string) => text.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? '');
  const titles = english
    ? {
        suite: ['Studio suite in {hood}, monthly lease', 'Suite near {hood}, {city}: long-term lease'],
        apartment: ['{beds}-bedroom apartment to lease in {hood}', 'Bright apartment on lease in {hood}, {city}'],
        house: ['{beds}-bedroom house to lease in {hood}', 'Family home to lease in a gated community, {hood}'],
      }
    : {
        suite: ['Suite en arriendo en {hood}', 'Arriendo suite cerca de {hood}, {city}', 'Suite de {area} m² en arriendo, {hood}'],
        apartment: ['Departamento de {beds} dormitorios en arriendo, {hood}', 'Arriendo departamento en {hood}, {city}', 'Departamento en arriendo con balcón en {hood}'],
        house: ['Casa de {beds} dormitorios en arriendo, {hood}', 'Arriendo casa en conjunto privado, {hood}', 'Casa en arriendo con jardín en {hood}, {city}'],
      };
  const about = english
    ? [
        `${f.area} m² in ${f.hood}, ${f.city}, close to shops and transport.`,
        f.furnished ? 'Comes fully equipped, ready to move in.' : 'Unfurnished.',
        f.pets ? 'Pets welcome.' : '',
        'Minimum one-year lease, one month deposit.',
      ]
    : [
        `${f.area} m² en ${f.hood}, ${f.city}, cerca de comercios y transporte.`,
        f.furnished ? 'Amoblado, listo para habitar.' : 'Sin amoblar.',
        f.pets ? 'Se aceptan mascotas.' : '',
        'Contrato mínimo de un año, un mes de garantía.',
      ];
  return { title: fill(pick(titles[type])), description: about.filter(Boolean).join(' ') };
}

/** The listings seeded off the market were on it for a while before: from their creation, 1 to 8 months. */
function spellsOfInactive(listings: ListingRow[], now: number): SpellRow[] {
  return listings
    .filter((l) => l.status !== '1')
    .map((l) => {
      const on = Date.parse(l.created_at);
      const off = Math.min(now - DAY, on + (30 + (l.id % 210)) * DAY);
      return { listing_id: l.id, on_at: new Date(on).toISOString(), off_at: new Date(Math.max(on, off)).toISOString() };
    });
}

/**
 * The market's last two years (docs/market.md, "The seed"): as many listings again, like the ones
 * on the market now (the same places, types and sizes), that came on it at some time in the last
 * 24 months, stayed 3 weeks to 8 months and were sold or withdrawn, each asked at the price of its
 * place and time (marketFactor). Its own random sequence: the rest of the seed is the same.
 */
function pastListings(current: ListingRow[], now: number, seed: number): { listings: ListingRow[]; spells: SpellRow[] } {
  const rand = random(seed * 17 + 3);
  const models = current.filter((l) => l.status === '1' && l.price && l.price > 0 && l.city && !/[<>]/.test(`${l.title ?? ''}${l.description ?? ''}`));
  const listings: ListingRow[] = [];
  const spells: SpellRow[] = [];
  let id = current.reduce((max, l) => Math.max(max, l.id), 0) + 1;
  for (let i = 0; i < models.length; i++) {
    const model = models[Math.floor(rand() * models.length)] as ListingRow;
    const stay = (21 + Math.floor(rand() * 220)) * DAY;
    const on = now - Math.floor(rand() * 730 * DAY) - stay;
    const off = Math.min(on + stay, now - DAY);
    if (off <= on) continue;
    const today = (model.price as number) / marketFactor(model.city, model.sector, Date.parse(model.created_at), REFERENCE_DATE);
    const price = Math.max(roundPrice(today * marketFactor(model.city, model.sector, on, REFERENCE_DATE) * (0.9 + rand() * 0.2)), model.property_type === 'land' ? 8000 : 25_000);
    const created = new Date(on).toISOString();
    listings.push({ ...model, id, price, status: rand() < 0.7 ? '2' : '0', created_at: created, listed_at: created, price_cut_at: null, price_before_cut: null });
    spells.push({ listing_id: id, on_at: created, off_at: new Date(off).toISOString() });
    id++;
  }
  return { listings, spells };
}

/** Rows that exercise every rule of the spec; they are ordinary listings otherwise. */
function specialRows(firstId: number, agents: AgentRow[], rand: () => number): ListingRow[] {
  const quito = PLACES[0] as Place;
  let id = firstId;
  const base = (over: Partial<ListingRow>): ListingRow => {
    const agent = agents[(id * 7) % agents.length] as AgentRow;
    // near the sector the row names, as the ordinary rows are
    const home = findPlace(over.city) ?? quito;
    const [lat, lng] = pointNear(sectorPlace(home, over.city === undefined ? 'Iñaquito' : (home.neighbourhoods[0] ?? '')), rand);
    return {
      id: id++,
      title: 'Departamento de 2 dormitorios en La Carolina',
      address: 'Av. Naciones Unidas E5-120, Iñaquito',
      price: 145000,
      bedrooms: 2,
      bathrooms: 2,
      square_feet: 92,
      property_type: 'apartment',
      city: 'Quito',
      state: 'Pichincha',
      images: [`${MEDIA}/apartment-2.svg`, `${MEDIA}/living-3.svg`],
      geo_lat: lat.toFixed(6),
      geo_lon: lng.toFixed(6),
      description: 'Departamento luminoso a dos cuadras del Parque La Carolina.',
      created_at: new Date(REFERENCE_DATE - Math.floor(rand() * 600) * 86_400_000).toISOString(),
      status: '1',
      country_code: 'EC',
      ...agentColumns(agent),
      // the default address is in Iñaquito; another city's row is in its first sector, an unknown place in none
      sector: over.city === undefined ? 'Iñaquito' : (findPlace(over.city)?.neighbourhoods[0] ?? null),
      features: [],
      year_built: null,
      lot_size: null,
      ...over,
    };
  };
  const rows: ListingRow[] = [
    // coordinates: missing, empty, not numeric, numeric strings with spaces, out of range
    base({ title: 'Casa en Cumbayá sin coordenadas', city: 'Cumbayá', property_type: 'house', bedrooms: 4, bathrooms: 3.5, square_feet: 280, price: 385000, geo_lat: null, geo_lon: null }),
    base({ title: 'Departamento en Guayaquil con coordenadas vacías', city: 'Guayaquil', state: 'Guayas', geo_lat: '', geo_lon: '' }),
    base({
      title: 'Terreno en Loja con coordenadas por confirmar',
      city: 'Loja',
      state: 'Loja',
      property_type: 'land',
      bedrooms: 0,
      bathrooms: 0,
      square_feet: 900,
      price: 42000,
      geo_lat: 'N/A',
      geo_lon: 'pendiente',
    }),
    base({ title: 'Casa en un pueblo sin ubicación conocida', city: 'Pueblo Nuevo', state: 'Manabí', property_type: 'house', geo_lat: 'abc', geo_lon: '-80.1' }),
    base({ title: 'Suite con coordenadas como texto', property_type: 'apartment', bedrooms: 1, bathrooms: 1, square_feet: 48, price: 79000, geo_lat: ' -0.176200 ', geo_lon: '-78.480100' }),
    base({ title: 'Oficina con coordenadas fuera de rango', property_type: 'office', bedrooms: 0, square_feet: 120, price: 190000, geo_lat: '123.45', geo_lon: '-78.48' }),
    // missing fields: the spec's defaults apply (title, price 0, Residential)
    base({ title: null, description: null }),
    base({ price: null, title: 'Casa en Tumbaco, precio a consultar', city: 'Tumbaco', property_type: 'house', bedrooms: 3, bathrooms: 2.5, square_feet: 210 }),
    base({ property_type: null, title: 'Propiedad en Ibarra', city: 'Ibarra', state: 'Imbabura', bedrooms: null, bathrooms: null, square_feet: null }),
    base({ city: null, state: 'Pichincha', title: 'Departamento sin ciudad registrada' }),
    base({ city: null, state: null, address: null, title: 'Listado sin dirección' }),
    // types outside the six: shown as given, title-cased in the filter
    base({ property_type: 'quinta', title: 'Quinta con huerto en Cotacachi', city: 'Cotacachi', state: 'Imbabura', bedrooms: 4, bathrooms: 3, square_feet: 5200, price: 265000 }),
    base({
      property_type: 'hotel_boutique',
      title: 'Hotel boutique de 9 habitaciones en Montañita',
      city: 'Montañita',
      state: 'Santa Elena',
      bedrooms: 9,
      bathrooms: 10,
      square_feet: 640,
      price: 720000,
    }),
    // text is data: markup must render as text
    base({ title: 'Departamento <b>amoblado</b> & listo <img src=x onerror="alert(1)">', description: '<script>alert("xss")</script> Vista al parque, 2 parqueaderos & bodega.' }),
    // images in every shape, including broken, unsafe and empty
    base({ title: 'Casa con imagen rota', images: [`${MEDIA}/missing-photo.svg`, `${MEDIA}/house-3.svg`] }),
    base({ title: 'Casa con enlace de imagen inseguro', images: ['javascript:alert(1)', `${MEDIA}/house-4.svg`] }),
    base({ title: 'Departamento sin fotos', images: [] }),
    base({ title: 'Departamento sin campo de fotos', images: null }),
    base({
      title: 'Departamento con portada marcada al final',
      images: [{ url: `${MEDIA}/living-1.svg` }, { src: `${MEDIA}/kitchen-2.svg` }, { url: `${MEDIA}/apartment-5.svg`, is_front_cover: true }],
    }),
    // agent fields partly empty: name only, e-mail only, phone only, nothing
    base({ title: 'Casa con agente sin contacto', agent_email: null, agent_phone: null, agent_picture: null }),
    base({ title: 'Departamento con solo el correo del agente', agent_first_name: null, agent_last_name: null, agent_phone: null }),
    base({ title: 'Departamento con solo el teléfono del agente', agent_first_name: null, agent_last_name: null, agent_email: null, agent_phone: '02 245 6789' }),
    base({ title: 'Departamento sin datos de agente', agent_id: null, agent_first_name: null, agent_last_name: null, agent_email: null, agent_phone: null, agent_picture: null }),
  ];
  // rows that must never show: inactive listings and other countries' listings
  const foreign: Array<[string, string, string, number, number]> = [
    ['PE', 'Lima', 'Lima', -12.0464, -77.0428],
    ['CO', 'Bogotá', 'Cundinamarca', 4.711, -74.0721],
    ['US', 'Miami', 'Florida', 25.7617, -80.1918],
  ];
  for (let i = 0; i < 45; i++) {
    const [country, city, state, lat, lng] = foreign[i % foreign.length] as [string, string, string, number, number];
    rows.push(
      base({ country_code: country, city, state, title: `Apartment in ${city} (${country})`, geo_lat: (lat + rand() * 0.05).toFixed(6), geo_lon: (lng + rand() * 0.05).toFixed(6), agent_id: null }),
    );
  }
  for (let i = 0; i < 12; i++) rows.push(base({ status: i % 2 ? '0' : '2', title: `Casa vendida en Quito ${i + 1}`, property_type: 'house', price: 250000 + i * 1000 }));
  return rows;
}
