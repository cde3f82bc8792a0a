/**
 * The estimate's constants chosen out of sample (docs/valuation.md "Constants"): on each market,
 * every sampled home's comparables found once (itself left out, as of its own listing day), then
 * valued with each set of constants of the grid through internal.valuation_of, the stages
 * public.estimate_value runs; nested cross-validation across the training markets: for each in
 * turn, the constants (and then the range's widening) chosen on the others and measured on it.
 * Markets brought later count only as held out: they are measured with the constants chosen on
 * all the training markets, never shape them.
 */
import type { Database } from '../server/db/database.ts';

/** The constants the estimate reads (supabase/schemas/34_valuation_method.sql internal.valuation_constants). */
export interface Constants {
  count: number;
  bandwidth_rank: number;
  size_sigma: number;
  sector_weight: number;
  ridge: number;
  prior: number;
  median_k: number;
  lean: number;
  wide: number;
  widen: number;
}

type Choice = Omit<Constants, 'widen'>;

const CHOICES: { [K in keyof Choice]: number[] } = {
  count: [80],
  bandwidth_rank: [12, 24],
  size_sigma: [0.3, 0.5],
  sector_weight: [1, 2],
  ridge: [0.05, 0.2],
  prior: [0.5, 1],
  median_k: [12, 24],
  lean: [0, 1],
  wide: [0, 2],
};

/** Every combination of CHOICES. */
export const GRID: Choice[] = Object.entries(CHOICES).reduce<Choice[]>(
  (sets, [key, values]) => sets.flatMap((set) => values.map((v) => ({ ...set, [key]: v }))),
  [{} as Choice],
);

/** The range's widenings tried (1: the conformal range as it is). */
const WIDENINGS = Array.from({ length: 25 }, (_, i) => Math.round((0.6 + i * 0.05) * 100) / 100);

/** The range's aim: the price within it for four homes in five. */
const COVERAGE = 0.8;

/** A sampled home: its facts as the element sends them (its own listing left out), its price (the truth) and the baseline's figure. */
export interface Sampled extends Record<string, unknown> {
  id: string;
  price: number;
  facts: Record<string, unknown>;
  /** the median USD/m² of its 8 nearest listings of the type (itself left out) times its area */
  baseline: number | null;
}

/** What one set of constants made of one home: the value and the range's ends in ln before the widening. */
interface Outcome extends Record<string, unknown> {
  value: number;
  lo: number;
  hi: number;
}

/** How near the truth, over the homes valued; the range's figures for the estimate only. */
export interface Figures {
  homes: number;
  medianError: number;
  within10: number;
  within20: number;
  rangeHolds?: number;
  medianWidth?: number;
  /** the range's hold in each fifth of the homes by price, cheapest first */
  holdsByPriceFifth?: number[];
  errorByPriceFifth?: number[];
  /**
   * the same by fifth of the estimate, cheapest first: what is known when the range is given. Fifths
   * of the price pick homes by their miss (the cheapest fifth holds those sold below their
   * neighbours), so their ends hold less even where the range holds what it says for every estimate
   */
  holdsByValueFifth?: number[];
}

export const median = (a: number[]) => {
  const s = [...a].sort((x, y) => x - y);
  return s.length ? (s[Math.floor((s.length - 1) / 2)] as number) : NaN;
};
export const share = <T>(a: T[], f: (x: T) => boolean) => (a.length ? a.filter(f).length / a.length : NaN);
const mean = (a: number[]) => a.reduce((x, y) => x + y, 0) / a.length;

/**
 * A fixed sample of the market's active listings for sale with a position, each with the facts the
 * element would send for it and the baseline; their comparables kept in bench_valuation_homes.
 */
export async function sampleHomes(db: Database, size: number): Promise<Sampled[]> {
  await db.admin.query('drop table if exists bench_valuation_homes');
  await db.admin.query(
    `create table bench_valuation_homes as
     select h.id, h.price::float8 as price, f.facts, hh.area, c.n, c.d, c.xs, c.same, c.y,
            (select percentile_cont(0.5) within group (order by n.usd)
               from (select o.price / (case when h.property_type = 'land' then o.lot_size else o.square_feet end) as usd
                       from internal.listings o
                      where o.is_public and o.operation = 'sale' and o.location is not null and o.property_type = h.property_type and o.id <> h.id and o.price > 0
                        and (case when h.property_type = 'land' then o.lot_size else o.square_feet end) >= 15
                      order by o.location <-> h.location, o.id limit 8) n
            ) * (case when h.property_type = 'land' then h.lot_size else h.square_feet end) as baseline
       from (select * from internal.listings l
              where l.is_public and l.operation = 'sale' and l.location is not null and l.price > 0
                and (case when l.property_type = 'land' then l.lot_size else l.square_feet end) >= 15
              order by md5(l.id::text) limit $1) h,
            lateral (select pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object(
                       'lat', h.lat, 'lng', h.lng, 'property_type', h.property_type,
                       'area_m2', case when h.square_feet >= 15 then h.square_feet end, 'lot_m2', case when h.lot_size >= 15 then h.lot_size end,
                       'bedrooms', h.bedrooms, 'bathrooms', h.bathrooms, 'year_built', nullif(h.year_built, 0),
                       'features', case when pg_catalog.cardinality(h.features) > 0 then pg_catalog.to_jsonb(h.features) end,
                       'listing_id', h.id)) as facts) f,
            lateral internal.valuation_home(f.facts) hh,
            lateral internal.valuation_point(f.facts) pt,
            lateral internal.valuation_comparables(hh.kind, hh.kinds, hh.area, hh.built_year, hh.beds, hh.baths, hh.lot, hh.has_feats, hh.feats,
                                                   pt.at_lat, pt.at_lng, pt.place, hh.own) c`,
    [size],
  );
  return db.admin.query<Sampled>(
    'select id::text as id, price, facts, baseline from bench_valuation_homes order by md5(id::text)',
  );
}

/** Each sampled home valued with the constants `k` (widen 1). */
async function valued(db: Database, k: Choice): Promise<Map<string, Outcome>> {
  // the jobs pool: a benchmark's work, not a request's (the service's 10 s limit cut a set short on a busy machine)
  const rows = await db.jobs.query<{ id: string } & Outcome>(
    `select h.id::text as id, v.value, v.lo, v.hi
       from bench_valuation_homes h, lateral internal.valuation_of(h.n, h.d, h.xs, h.same, h.y, h.area, $1::jsonb) v
      where h.n >= 5`,
    [JSON.stringify({ ...k, widen: 1 })],
  );
  return new Map(rows.map((r) => [r.id, { value: r.value, lo: r.lo, hi: r.hi }]));
}

/** A market's homes valued with every set of constants of the grid. */
export async function valueGrid(db: Database, homes: Sampled[], log: (line: string) => void): Promise<MarketRuns> {
  const runs: Array<Map<string, Outcome>> = [];
  // two sets at a time: each is one query, and the machine has two cores
  for (let i = 0; i < GRID.length; i += 2) {
    runs.push(...(await Promise.all(GRID.slice(i, i + 2).map((k) => valued(db, k)))));
    if (runs.length % 32 === 0) log(`${runs.length} of ${GRID.length} sets of constants`);
  }
  return { homes, runs };
}

export interface MarketRuns {
  homes: Sampled[];
  /** one per set of constants of GRID, in its order */
  runs: Array<Map<string, Outcome>>;
}

/** The range with the widening `widen`, as internal.valuation_range makes it (at least ±4%). */
const rangeOf = (o: Outcome, widen: number) =>
  [o.value * Math.exp(Math.min(o.lo * widen, -0.04)), o.value * Math.exp(Math.max(o.hi * widen, 0.04))] as const;

/** The figures of relative errors alone (a rule without a range: the baseline). */
export function errorFigures(errors: number[]): Figures {
  return {
    homes: errors.length,
    medianError: median(errors),
    within10: share(errors, (x) => x <= 0.1),
    within20: share(errors, (x) => x <= 0.2),
  };
}

/** A home valued: its price, the estimate and the range's ends. */
export interface Valued {
  price: number;
  value: number;
  low: number;
  high: number;
}

/** The figures of homes valued (the grid's runs and the API's answers alike). */
export function accuracy(valued: Valued[]): Required<Figures> {
  const rows = valued.map((v) => ({
    ...v,
    error: Math.abs(v.value - v.price) / v.price,
    holds: v.price >= v.low && v.price <= v.high,
    width: (v.high - v.low) / v.value,
  }));
  const fifths = (by: (r: (typeof rows)[number]) => number) => {
    const sorted = [...rows].sort((a, b) => by(a) - by(b));
    return [0, 1, 2, 3, 4].map((q) =>
      sorted.slice(Math.floor((q * sorted.length) / 5), Math.floor(((q + 1) * sorted.length) / 5)),
    );
  };
  const byPrice = fifths((r) => r.price);
  return {
    ...errorFigures(rows.map((r) => r.error)),
    rangeHolds: share(rows, (r) => r.holds),
    medianWidth: median(rows.map((r) => r.width)),
    holdsByPriceFifth: byPrice.map((f) => share(f, (r) => r.holds)),
    errorByPriceFifth: byPrice.map((f) => median(f.map((r) => r.error))),
    holdsByValueFifth: fifths((r) => r.value).map((f) => share(f, (r) => r.holds)),
  };
}

/** The figures of one market's homes valued by one run with the widening `widen`. */
export function figures(market: MarketRuns, run: number, widen: number): Figures {
  return accuracy(
    market.homes.flatMap((h) => {
      const o = market.runs[run]?.get(h.id);
      if (!o) return [];
      const [low, high] = rangeOf(o, widen);
      return [{ price: h.price, value: o.value, low, high }];
    }),
  );
}

/** The baseline's figures on the same homes as `run` valued. */
export function baselineFigures(market: MarketRuns, run: number): Figures {
  return errorFigures(
    market.homes
      .filter((h) => h.baseline && market.runs[run]?.has(h.id))
      .map((h) => Math.abs((h.baseline as number) - h.price) / h.price),
  );
}

/**
 * The constants chosen on `markets`: the set whose median error is least against each market's
 * baseline, on average (so that a market whose homes are harder to value counts as much as an
 * easy one), then the widening whose range holds the price for four homes in five, on average.
 */
export function choose(
  markets: MarketRuns[],
  among: (k: Choice) => boolean = () => true,
): { run: number; constants: Constants } {
  const score = (run: number) =>
    mean(markets.map((m) => figures(m, run, 1).medianError / baselineFigures(m, run).medianError));
  const runs = GRID.flatMap((k, i) => (among(k) ? [i] : []));
  let run = runs[0] as number;
  for (const i of runs) if (score(i) < score(run)) run = i;
  const miss = (widen: number) =>
    Math.abs(mean(markets.map((m) => figures(m, run, widen).rangeHolds as number)) - COVERAGE);
  const widen = WIDENINGS.reduce((best, w) => (miss(w) < miss(best) ? w : best), 1);
  return { run, constants: { ...(GRID[run] as Choice), widen } };
}

export interface HeldOut {
  market: string;
  /** measured with the constants chosen on the other training markets */
  heldOut: Figures & { constants: Constants };
  heldOutBaseline: Figures;
  /** measured with the constants chosen on every training market, itself included */
  inSample: Figures;
}

/**
 * Nested cross-validation: each training market measured with what the others choose; and what all
 * of them choose. `among`: the sets of the grid it may choose from (all of them; the method before a
 * new constant is the grid with that constant at its old value).
 */
export function crossValidate(
  train: Array<[string, MarketRuns]>,
  among?: (k: Choice) => boolean,
): {
  folds: HeldOut[];
  chosen: { run: number; constants: Constants };
} {
  const chosen = choose(
    train.map(([, m]) => m),
    among,
  );
  const folds = train.map(([name, market]) => {
    const picked = choose(
      train.filter(([other]) => other !== name).map(([, m]) => m),
      among,
    );
    return {
      market: name,
      heldOut: { ...figures(market, picked.run, picked.constants.widen), constants: picked.constants },
      heldOutBaseline: baselineFigures(market, picked.run),
      inSample: figures(market, chosen.run, chosen.constants.widen),
    };
  });
  return { folds, chosen };
}
