/**
 * How the seed prices a home as a market does (docs/valuation.md reads the same differences): its
 * sector's level, its features, and the market's drift since it was listed; and the price changes
 * a listing made.
 */
import { AREA, PRICE_PER_M2, type Place, type PropertyType } from './places.ts';
import type { ListingRow, PriceChangeRow } from './rows.ts';
import { random, roundPrice, DAY } from './draw.ts';

/** A sector's price level against its city's, 0.8 to 1.25, the same in every run: some sectors are dearer than others. */
export function sectorFactor(city: string, sector: string): number {
  let h = 0x811c9dc5;
  for (const c of `${city}/${sector}`) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
  return 0.8 + 0.45 * (h / 0xffffffff);
}

/** What the home's features add to its price per m² (docs/valuation.md reads the same kind of differences). */
const FEATURE_PREMIUM: Record<string, number> = {
  pool: 1.05,
  view: 1.06,
  waterfront: 1.1,
  garage: 1.02,
  air_conditioning: 1.02,
  new_construction: 1.04,
};

/**
 * A listing's asking price as a market makes it: the type's price per m² at its city's and its
 * sector's level, a little less per m² for a larger home (and much less for a large lot of land),
 * more for a newer one, for its features and for more garden, times what is the home's own.
 */
export function askingPrice(
  type: PropertyType,
  place: Place,
  sector: string,
  home: { square_feet: number | null; year_built: number | null; lot_size: number | null; features: string[] },
  own: number,
): number {
  const area = home.square_feet ?? 0;
  const [pLo, pHi] = PRICE_PER_M2[type];
  const [aLo, aHi] = AREA[type];
  const size =
    type === 'land' ? (area > 800 ? Math.sqrt(800 / area) : 1) : Math.pow(area / Math.sqrt(aLo * aHi), -0.12);
  const age = home.year_built ? 1 + 0.025 * Math.max(-4, Math.min(3, (home.year_built - 1995) / 10)) : 1;
  const features = home.features.reduce((f, k) => f * (FEATURE_PREMIUM[k] ?? 1), 1);
  const garden = type === 'house' && home.lot_size && area ? Math.pow(home.lot_size / area / 2.35, 0.08) : 1;
  const ppm2 =
    Math.sqrt(pLo * pHi) * place.priceFactor * sectorFactor(place.city, sector) * size * age * features * garden * own;
  return Math.max(roundPrice(area * ppm2), type === 'land' ? 8000 : 25_000);
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
export function marketFactor(city: string | null, sector: string | null, at: number, reference: number): number {
  const trend = (ANNUAL_TREND[city ?? ''] ?? 0.02) + sectorShift(sector ?? '');
  return Math.pow(1 + trend, (at - reference) / (365 * DAY));
}

/**
 * A listing's price before now, as the market makes it: about one in ten active listings was cut
 * once (3-10%), one in twenty-five twice, one in fifty raised; the latest change within the last
 * 90 days (a third of them within 30, when cards say "Price reduced"), never before it was listed.
 * Its own random sequence (from its id), so the rest of the seed is the same with or without it.
 */
export function priceHistoryFor(row: ListingRow, now: number, seed: number): PriceChangeRow[] {
  if (row.status !== '1' || !row.price || row.price <= 0) return [];
  const rand = random(seed * 31 + row.id);
  const kind = rand();
  const ageDays = Math.floor((now - Date.parse(row.created_at)) / DAY) - 1;
  if (kind >= 0.16 || ageDays < 3) return [];
  const at = (daysAgo: number) => new Date(now - daysAgo * DAY - Math.floor(rand() * DAY)).toISOString();
  const latest = 1 + Math.floor(rand() * Math.min(90, ageDays - 1));
  const raise = (price: number, pct: number) => Math.max(roundPrice(price / (1 - pct)), price + 500);
  if (kind < 0.1) {
    return [
      {
        listing_id: row.id,
        old_price: raise(row.price, 0.03 + rand() * 0.07),
        new_price: row.price,
        changed_at: at(latest),
      },
    ];
  }
  if (kind < 0.14) {
    const between = raise(row.price, 0.03 + rand() * 0.05);
    const earlier = Math.min(ageDays, latest + 10 + Math.floor(rand() * 60));
    return [
      {
        listing_id: row.id,
        old_price: raise(between, 0.03 + rand() * 0.05),
        new_price: between,
        changed_at: at(earlier),
      },
      { listing_id: row.id, old_price: between, new_price: row.price, changed_at: at(latest) },
    ];
  }
  return [
    {
      listing_id: row.id,
      old_price: Math.min(roundPrice(row.price * 0.95), row.price - 500),
      new_price: row.price,
      changed_at: at(latest),
    },
  ];
}
