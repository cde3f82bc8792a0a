/**
 * What a home may ask (docs/valuation.md), as both sides see it: the facts a seller gives (the form
 * checks them as public.estimate_value does, so it never sends what the database refuses), the
 * estimate it answers, and a seller's lead (when they plan to sell, whether they also buy).
 */
import { isKnownType, type KnownType } from './listing.ts';
import { num, optNum, records, str } from './read.ts';
import { ecuadorYear } from './calendar.ts';
import { formatCount } from './format.ts';

/** The facts of a home, as public.estimate_value(facts) takes them: only what is known. */
export interface HomeFacts {
  /** where: a point in Ecuador, or a place of the location box ('quito/cumbaya') */
  lat?: number;
  lng?: number;
  place?: string;
  property_type: KnownType;
  /** built area; the lot for land */
  area_m2?: number;
  lot_m2?: number;
  bedrooms?: number;
  bathrooms?: number;
  year_built?: number;
  features?: string[];
  /** the home's own listing, when it is on the market: left out of its comparables, and the estimate made as of the day it was listed */
  listing_id?: number;
}

/** The numbers' ranges, as the SQL function refuses what is outside them (tests/contract/valuation-estimate.test.ts holds the two together). */
export const HOME_LIMITS = {
  area_m2: [15, 20000],
  lot_m2: [15, 2000000],
  bedrooms: [0, 30],
  bathrooms: [0, 30],
  year_built: [1800, ecuadorYear() + 3],
} as const satisfies Record<string, readonly [number, number]>;

export type HomeNumber = keyof typeof HOME_LIMITS;

/** The features a home may have (the listings' own list, supabase/schemas/20_listings.sql). */
export const HOME_FEATURES = ['pool', 'view', 'waterfront', 'garage', 'new_construction', 'air_conditioning'] as const;

/** What the form says of a field: a number outside its range, or a needed one missing. */
export function checkHomeFacts(
  facts: Partial<HomeFacts>,
): Partial<Record<HomeNumber | 'property_type' | 'place', 'required' | 'invalid'>> {
  const out: Partial<Record<HomeNumber | 'property_type' | 'place', 'required' | 'invalid'>> = {};
  if (!isKnownType(facts.property_type)) out.property_type = 'required';
  for (const [key, [lo, hi]] of Object.entries(HOME_LIMITS) as Array<[HomeNumber, readonly [number, number]]>) {
    const v = facts[key];
    if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v) || v < lo || v > hi)) out[key] = 'invalid';
  }
  const priced: HomeNumber = facts.property_type === 'land' ? 'lot_m2' : 'area_m2';
  if (facts[priced] === undefined) out[priced] ??= 'required';
  if (facts.place === undefined && (facts.lat === undefined || facts.lng === undefined)) out.place = 'required';
  return out;
}

/** A comparable as the estimate lists it: an active listing near the home, what it asks and what it says the home asks. */
export interface Comparable {
  id: string;
  title: string;
  price: number;
  area: number;
  lot: number | null;
  bedrooms: number | null;
  bathrooms: number | null;
  propertyType: string;
  city: string;
  sector: string;
  images: unknown;
  distance: number;
  usdM2: number;
  /** its price adjusted to the home (size, age, rooms, lot, features) */
  adjusted: number;
}

export interface Estimate {
  /** null (with `reason`) when too few listings like it are near */
  value: number | null;
  low: number | null;
  high: number | null;
  usdM2: number | null;
  confidence: 'high' | 'medium' | 'low' | 'none';
  reason: string | null;
  comparables: Comparable[];
  place: { path: string; name: string } | null;
  /** the place's market figure of last month (docs/market.md), and a year before */
  market: {
    path: string;
    name: string;
    month: string;
    median: number;
    listings: number;
    yearBefore: number | null;
  } | null;
  /** the agent who serves the place (a seller's lead goes to them) */
  agent: { id: string; name: string; picture: string | null } | null;
  /**
   * confirmed saved searches a home like it would match: a count from a floor, else `demandFewerThan`
   * the floor; neither for facts no home near it has (internal.buyer_demand)
   */
  demand: number | null;
  demandFewerThan: number | null;
}

/** public.estimate_value's answer, read once for the element, the mails and the report. */
export function parseEstimate(value: unknown): Estimate {
  const o = (value ?? {}) as Record<string, unknown>;
  const m = o.market as Record<string, unknown> | null | undefined;
  const p = o.place as Record<string, unknown> | null | undefined;
  const a = o.agent as Record<string, unknown> | null | undefined;
  return {
    value: optNum(o.value),
    low: optNum(o.low),
    high: optNum(o.high),
    usdM2: optNum(o.usd_m2),
    confidence: (['high', 'medium', 'low'].includes(str(o.confidence))
      ? o.confidence
      : 'none') as Estimate['confidence'],
    reason: o.reason ? str(o.reason) : null,
    comparables: records(o.comparables).map((r) => ({
      id: str(r.id),
      title: str(r.title),
      price: num(r.price),
      area: num(r.area_m2),
      lot: optNum(r.lot_m2),
      bedrooms: optNum(r.bedrooms),
      bathrooms: optNum(r.bathrooms),
      propertyType: str(r.property_type),
      city: str(r.city),
      sector: str(r.sector),
      images: r.images,
      distance: num(r.distance_m),
      usdM2: num(r.usd_m2),
      adjusted: num(r.adjusted),
    })),
    place: p ? { path: str(p.path), name: str(p.name) } : null,
    market: m
      ? {
          path: str(m.path),
          name: str(m.name),
          month: str(m.month).slice(0, 10),
          median: num(m.median),
          listings: num(m.listings),
          yearBefore: optNum(m.year_before),
        }
      : null,
    agent: a ? { id: str(a.id), name: str(a.name), picture: a.picture ? str(a.picture) : null } : null,
    demand: optNum(o.demand),
    demandFewerThan: optNum(o.demand_fewer_than),
  };
}

/** Buyer demand in one sentence, as the estimate's element and the home's monthly report say it. */
export function demandText(
  e: Pick<Estimate, 'demand' | 'demandFewerThan'>,
  t: (key: string, options?: Record<string, unknown>) => string,
): string {
  if (e.demand !== null) return t('valuation.demand', { count: e.demand, formatted: formatCount(e.demand) });
  if (e.demandFewerThan !== null)
    return t('valuation.demandFewer', { count: e.demandFewerThan, formatted: formatCount(e.demandFewerThan) });
  return t('valuation.demandUnlike');
}

/** When a seller plans to sell, as the lead form offers it. */
export const SELLER_TIMELINES = ['now', 'months3', 'months6', 'year', 'exploring'] as const;
export type SellerTimeline = (typeof SELLER_TIMELINES)[number];

/** A seller's lead, as the inquiry carries it beside the contact: the home, when, and whether they also buy. */
export interface SellerRequest {
  facts: HomeFacts;
  timeline: SellerTimeline;
  alsoBuying: boolean;
}
