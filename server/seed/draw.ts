/**
 * What the seed draws a home with, the same in every run (fixed random seed, fixed reference date):
 * its random numbers, photos, point in its place and sector, facts and features, and the columns
 * its row takes from the home and its agent.
 */
import { type AgentRow } from './agents.ts';
import { PLACES, type Place, type PropertyType } from './places.ts';
import { type Pick } from './text.ts';
import type { ListingRow } from './rows.ts';

export const SEED = 20261121;

/** created_at spreads over the two years before this date */
export const REFERENCE_DATE = Date.UTC(2026, 10, 1);

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

export const MEDIA = '/media/listings';

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

export function imagesFor(type: PropertyType, rand: () => number, pick: Pick): unknown {
  const [ext, extCount] = EXTERIOR[type];
  const count = 1 + Math.floor(rand() * 6);
  const urls = [`${MEDIA}/${ext}-${1 + Math.floor(rand() * extCount)}.webp`];
  const pool = INTERIOR[type];
  while (urls.length < count) {
    const [name, n] = pick(pool);
    const url = `${MEDIA}/${name}-${1 + Math.floor(rand() * n)}.webp`;
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

export function pointNear(place: Place, rand: () => number): [number, number] {
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
export function sectorPlace(place: Place, sector: string): Place {
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
export function listingExtras(
  id: number,
  type: string,
  place: Place | undefined,
  area: number | null,
  text: string,
): { features: string[]; year_built: number | null; lot_size: number | null } {
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
    year_built =
      u < 0.05
        ? 1900 + Math.floor(rand() * 50)
        : u < 0.2
          ? 1950 + Math.floor(rand() * 30)
          : 1980 + Math.floor(Math.pow(rand(), 0.7) * 47);
    if (year_built >= 2025) features.add('new_construction');
  }
  const lot_size =
    type === 'land' ? area : type === 'house' && area ? Math.round((area * (1.2 + rand() * 2.3)) / 10) * 10 : null;
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
export function listingFacts(
  id: number,
  type: string,
  area: number | null,
  level: number,
  text: string,
): {
  hoa_fee: number | null;
  parking_spaces: number | null;
  storage_unit: boolean | null;
  furnished: ListingRow['furnished'];
} {
  const facts = drawnFacts(id, type, area, level);
  // what the listing's own words say wins: "3 parqueaderos cubiertos y bodega", "2 parking spaces and storage"
  const parking = /(\d+)\s+(?:parqueaderos|(?:covered\s+)?parking)/i.exec(text);
  if (parking) facts.parking_spaces = Number(parking[1]);
  if (/\bbodega\b|\bstorage\b/i.test(text) && type !== 'land') facts.storage_unit = true;
  if (/amoblad[oa]|furnished/i.test(text) && type === 'apartment') facts.furnished = 'yes';
  return facts;
}

export function drawnFacts(
  id: number,
  type: string,
  area: number | null,
  level: number,
): {
  hoa_fee: number | null;
  parking_spaces: number | null;
  storage_unit: boolean | null;
  furnished: ListingRow['furnished'];
} {
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
    return {
      hoa_fee: gated ? Math.max(30, Math.round(m2 * (0.3 + rand() * 0.4) * level)) : null,
      parking_spaces: 1 + Math.floor(rand() * 3),
      storage_unit: null,
      furnished: null,
    };
  }
  return {
    hoa_fee: null,
    parking_spaces: type === 'land' ? null : Math.floor(rand() * 3),
    storage_unit: null,
    furnished: null,
  };
}

export function weighted<T extends string>(weights: Record<T, number>, rand: () => number): T {
  const entries = Object.entries(weights) as Array<[T, number]>;
  let x = rand() * entries.reduce((s, [, w]) => s + w, 0);
  for (const [k, w] of entries) {
    x -= w;
    if (x <= 0) return k;
  }
  return entries[entries.length - 1]![0];
}

/** The listing's copy of its agent (the feed denormalises the agent onto each listing). */
export function agentColumns(agent: AgentRow) {
  return {
    agent_id: agent.id,
    agent_first_name: agent.first_name,
    agent_last_name: agent.last_name,
    agent_email: agent.email,
    agent_phone: agent.phone,
    agent_picture: agent.picture,
  };
}

/** The same columns of a listing without an agent. */
export const NO_AGENT = {
  agent_id: null,
  agent_first_name: null,
  agent_last_name: null,
  agent_email: null,
  agent_phone: null,
  agent_picture: null,
} as const;

/** What a home's row says of the home and where it stands (no draws: the callers drew it all). */
export function homeColumns(home: {
  place: Place;
  sector: string;
  type: string;
  area: number;
  bedrooms: number | null;
  bathrooms: number | null;
  lat: number;
  lng: number;
}) {
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

export function roundPrice(p: number): number {
  const step = p < 100_000 ? 500 : p < 1_000_000 ? 1000 : 5000;
  return Math.round(p / step) * step;
}

export const HOUR = 3_600_000;

export const DAY = 86_400_000;
