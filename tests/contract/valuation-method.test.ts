/**
 * The estimate's method, stage by stage (docs/valuation.md "The method"), each against an oracle
 * written here apart from the SQL: the regression's leave-one-out errors against the fit made
 * again without each comparable; the median rule's against the nearest others counted here; the
 * blend against its weights worked by hand; the conformal range against the textbook rank of the
 * scores; and, whole, a market where the plain median is exact: the estimate takes it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { parseEstimate } from '../../core/protocol/valuation.ts';
import { migratedDatabase } from '../support/postgres.ts';

const P = 10;

/** A small seeded random generator (mulberry32), so each run draws the same numbers. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Weighted least squares by the normal equations, solved by Gaussian elimination: the coefficients. */
function leastSquares(rows: number[][], y: number[], w: number[]): number[] {
  const p = rows[0]!.length;
  const a = Array.from({ length: p }, (_, j) => [
    ...Array.from({ length: p }, (_, k) => rows.reduce((s, x, i) => s + w[i]! * x[j]! * x[k]!, 0)),
    rows.reduce((s, x, i) => s + w[i]! * x[j]! * y[i]!, 0),
  ]);
  for (let c = 0; c < p; c++) {
    const best = a.slice(c).reduce((b, row, i) => (Math.abs(row[c]!) > Math.abs(a[b]![c]!) ? c + i : b), c);
    [a[c], a[best]] = [a[best]!, a[c]!];
    for (let r = 0; r < p; r++) {
      if (r === c) continue;
      const f = a[r]![c]! / a[c]![c]!;
      for (let k = c; k <= p; k++) a[r]![k]! -= f * a[c]![k]!;
    }
  }
  return a.map((row, j) => row[p]! / row[j]!);
}

const medianOf = (v: number[]) => {
  const s = [...v].sort((x, y) => x - y);
  const h = Math.floor(s.length / 2);
  return s.length % 2 ? s[h]! : (s[h - 1]! + s[h]!) / 2;
};

const K = {
  count: 80,
  bandwidth_rank: 25,
  size_sigma: 0.5,
  sector_weight: 1,
  ridge: 0,
  prior: 1,
  median_k: 5,
  lean: 0,
  wide: 0,
  widen: 1,
};

describe('the estimate, stage by stage (docs/valuation.md "The method")', () => {
  let db: Database;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ db, close } = await migratedDatabase());
  }, 180_000);
  afterAll(async () => close?.());

  const one = async <T extends Record<string, unknown>>(sql: string, params: unknown[]) =>
    (await db.admin.query<T>(sql, params))[0] as T;

  it("the regression's leave-one-out errors are what the fit made again without each comparable misses it by", async () => {
    const rand = random(62);
    const n = 60;
    const rows = Array.from({ length: n }, () => [1, ...Array.from({ length: P - 1 }, () => rand() * 2 - 1)]);
    const y = rows.map((x) => 7 + 0.3 * x[1]! - 0.2 * x[3]! + (rand() - 0.5) * 0.4);
    const w = rows.map(() => 0.2 + rand() * 0.8);
    const fit = await one<{ b: number[]; a: number[] }>(
      'select b, a from internal.valuation_ridge($1, $2::float8[], $3::float8[], $4::float8[], $5::jsonb)',
      [n, rows.flat(), y, w, JSON.stringify(K)],
    );
    const r = rows.map((x, i) => y[i]! - x.reduce((s, v, j) => s + v * fit.b[j]!, 0));
    const { e } = await one<{ e: number[] }>(
      'select internal.valuation_loo($1, $2::float8[], $3::float8[], $4::float8[], $5::float8[]) as e',
      [n, rows.flat(), w, r, fit.a],
    );
    const apart = rows.map((x, i) => {
      const b = leastSquares(
        rows.filter((_, k) => k !== i),
        y.filter((_, k) => k !== i),
        w.filter((_, k) => k !== i),
      );
      return y[i]! - x.reduce((s, v, j) => s + v * b[j]!, 0);
    });
    expect(e).toHaveLength(n);
    for (const [i, v] of e.entries()) expect(v).toBeCloseTo(apart[i]!, 4);
    // and not the in-sample misfits: leaving a comparable out makes each miss larger
    expect(e.reduce((s, v) => s + v * v, 0)).toBeGreaterThan(r.reduce((s, v) => s + v * v, 0) * 1.1);
  });

  it("the median rule: the median of the home's nearest comparables, and each comparable valued by its own nearest others, none the fit weighed down to nothing", async () => {
    const rand = random(7);
    const n = 25;
    const m = 10;
    const east = Array.from({ length: n }, () => rand() * 4 - 2);
    const north = Array.from({ length: n }, () => rand() * 4 - 2);
    const y = Array.from({ length: n }, () => 7 + rand());
    const rows = Array.from({ length: n }, (_, i) => [1, 0, 0, 0, 0, 0, 0, 0, east[i]!, north[i]!]);
    // the fourth was weighed down to nothing by the fit: it counts in no median
    const w = y.map((_, i) => (i === 3 ? 0 : 1));
    const got = await one<{ med: number; e_med: number[] }>(
      'select med, e_med from internal.valuation_median_rule($1, $2, $3::float8[], $4::float8[], $5::float8[], $6::jsonb)',
      [n, m, rows.flat(), y, w, JSON.stringify(K)],
    );
    // the comparables come nearest first: the home's five nearest that count are the first six but the fourth
    expect(got.med).toBeCloseTo(medianOf(y.filter((_, j) => j !== 3).slice(0, K.median_k)), 10);
    const expected = Array.from({ length: m }, (_, i) => {
      const others = y
        .map((v, j) => ({ v, j, d: (east[j]! - east[i]!) ** 2 + (north[j]! - north[i]!) ** 2 }))
        .filter((o) => o.j !== i && o.j !== 3)
        .sort((a, b) => a.d - b.d || a.j - b.j)
        .slice(0, K.median_k);
      return y[i]! - medianOf(others.map((o) => o.v));
    });
    expect(got.e_med).toHaveLength(m);
    for (const [i, v] of got.e_med.entries()) expect(v).toBeCloseTo(expected[i]!, 10);
  });

  it('blends the two by the inverse of their mean squared misses: all to the one that never misses, half and half where they miss alike', async () => {
    const blend = (eReg: number[], eMed: number[], lean = 0) =>
      one<{ alpha: number; at: number; s: number[] }>(
        'select alpha, at, s from internal.valuation_blend($1, $2::float8[], $3::float8[], $4::float8[], 7.0, 6.0, $5)',
        [eReg.length, eReg.map(() => 1), eReg, eMed, lean],
      );
    const median = await blend([0.3, -0.2, 0.25, -0.3], [0, 0, 0, 0]);
    expect(median.alpha).toBe(0);
    expect(median.at).toBe(6);
    const regression = await blend([0, 0, 0, 0], [0.3, -0.2, 0.25, -0.3]);
    expect(regression.alpha).toBe(1);
    expect(regression.at).toBe(7);
    // misses of equal size: mm / (rr + mm) = 4 / 8
    const even = await blend([1, -1, 1, -1], [1, 1, -1, -1]);
    expect(even.alpha).toBe(0.5);
    expect(even.at).toBe(6.5);
    expect(even.s).toEqual([1, 0, 0, -1]);
    // leaning toward the regression: the median's misses counted 1 + lean times, so misses of equal
    // size give the regression (1 + lean) / (2 + lean), and a rule that never misses still takes all
    const leaning = await blend([1, -1, 1, -1], [1, 1, -1, -1], 1);
    expect(leaning.alpha).toBeCloseTo(2 / 3, 12);
    expect(leaning.at).toBeCloseTo(6 + 2 / 3, 12);
    expect((await blend([0.3, -0.2, 0.25, -0.3], [0, 0, 0, 0], 1)).alpha).toBe(0);
    expect((await blend([0, 0, 0, 0], [0.3, -0.2, 0.25, -0.3], 1)).alpha).toBe(1);
  });

  it("takes the wider regression (a bandwidth `wide` times wider, a ridge `wide`² times firmer) only where it misses the comparables by less than the home's own, out of sample", async () => {
    type Regression = { b: number[]; r: number[]; w: number[]; e: number[] };
    const taken = { near: 0, far: 0 };
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const rand = random(seed);
      const n = 60;
      // half the markets with a steep local slope eastward (the home's own regression follows it),
      // half with noise only (the firmer ridge's draw to the prior pays)
      const slope = seed % 2 ? 2 : 0;
      const rows = Array.from({ length: n }, (_, i) => {
        const east = (i + 1) * 0.05 * Math.cos(i * 2.3);
        const north = (i + 1) * 0.05 * Math.sin(i * 2.3);
        return [
          1,
          (rand() - 0.5) * 0.8,
          (rand() - 0.5) * 2,
          Math.round((rand() - 0.5) * 4),
          (rand() - 0.5) * 2,
          0,
          Math.round(rand() * 3),
          0,
          east,
          north,
        ];
      });
      const d = rows.map((x) => Math.hypot(x[8]!, x[9]!) * 1000);
      const y = rows.map((x) => 7.2 + slope * x[8]! * x[8]! * Math.sign(x[8]!) + (rand() - 0.5) * 0.4);
      const k = { ...K, bandwidth_rank: 20, ridge: 0.05, median_k: 12 };
      const args = [n, 40, d, rows.flat(), rows.map(() => true), y];
      const regression = (c: typeof k) =>
        one<Regression>(
          'select b, r, w, e from internal.valuation_regression($1, $2, $3::float8[], $4::float8[], $5::boolean[], $6::float8[], $7::jsonb)',
          [...args, JSON.stringify(c)],
        );
      const near = await regression(k);
      const far = await regression({ ...k, bandwidth_rank: 40, ridge: 0.2 });
      // the oracle: each regression's leave-one-out misses squared, weighed as the home's own weighs each comparable
      const miss = (e: number[]) => e.reduce((s, v, i) => s + near.w[i]! * v * v, 0);
      const expected = miss(far.e) < miss(near.e) ? far : near;
      taken[expected === far ? 'far' : 'near'] += 1;
      const estimate = (wide: number) =>
        one<{ b: number[]; w: number[]; value: number }>(
          'select b, w, value from internal.valuation_of($1, $2::float8[], $3::float8[], $4::boolean[], $5::float8[], 120, $6::jsonb)',
          [n, d, rows.flat(), rows.map(() => true), y, JSON.stringify({ ...k, wide })],
        );
      const [own, either] = [await estimate(0), await estimate(2)];
      expect(own.b).toEqual(near.b);
      expect(either.b).toEqual(expected.b);
      expect(either.w).toEqual(expected.w);
      if (expected === near) expect(either.value).toBe(own.value);
      else expect(either.value).not.toBe(own.value);
    }
    // each way at least three times among the eight markets (four and four when written), so both branches are what the test holds
    expect(taken.near).toBeGreaterThanOrEqual(3);
    expect(taken.far).toBeGreaterThanOrEqual(3);
  });

  it('makes an 80% range from the scores as split conformal prediction does: the ⌈0.9(n+1)⌉-th and ⌊0.1(n+1)⌋-th of n, the whole span when n is too small', async () => {
    const range = (s: number[], widen = 1) =>
      one<{ value: number; low: number; high: number; lo: number; hi: number }>(
        'select value, low, high, lo, hi from internal.valuation_range($1, $2::float8[], $3::float8[], ln(1000), 100, $4::jsonb)',
        // every comparable at the home's own point: each weighs 1, as the home does
        [s.length, s, s.map(() => 0), JSON.stringify({ ...K, widen })],
      );
    // out of order, as the comparables' scores come
    const scores = Array.from({ length: 40 }, (_, i) => ((i * 17) % 40) + 1).map((i) => (i - 20.5) / 100);
    const sorted = [...scores].sort((a, b) => a - b);
    const r = await range(scores);
    expect(r.value).toBeCloseTo(100_000, 6);
    expect(r.hi).toBe(sorted[Math.ceil(0.9 * 41) - 1]);
    expect(r.lo).toBe(sorted[Math.floor(0.1 * 41) - 1]);
    expect(r.high).toBeCloseTo(100_000 * Math.exp(r.hi), 6);
    expect(r.low).toBeCloseTo(100_000 * Math.exp(r.lo), 6);
    const wider = await range(scores, 1.5);
    expect(wider.high).toBeCloseTo(100_000 * Math.exp(1.5 * r.hi), 6);
    const few = await range([-0.1, 0.02, 0.05, 0.2, -0.3]);
    expect([few.lo, few.hi]).toEqual([-0.3, 0.2]);
  });

  it('counts a comparable priced ten times its neighbours as if it were not there: the value within 0.2% of the one made without it', async () => {
    const rand = random(5);
    const n = 60;
    // comparables nearest first, each a few hundred metres further, asking one price per m² with a spread of their own
    const rows = Array.from({ length: n }, (_, i) => {
      const east = (i + 1) * 0.1 * Math.cos(i);
      const north = (i + 1) * 0.1 * Math.sin(i);
      return [1, (rand() - 0.5) * 0.8, (rand() - 0.5) * 2, Math.round((rand() - 0.5) * 4), 0, 0, 0, 0, east, north];
    });
    const d = rows.map((x) => Math.hypot(x[8]!, x[9]!) * 1000);
    const y = rows.map(() => 7.2 + (rand() - 0.5) * 0.3);
    const value = async (keep: (i: number) => boolean, shift: number) => {
      const at = rows.map((_, i) => i).filter(keep);
      const { v } = await one<{ v: number }>(
        'select (internal.valuation_of($1, $2::float8[], $3::float8[], $4::boolean[], $5::float8[], 120, $6::jsonb)).value as v',
        [
          at.length,
          at.map((i) => d[i]),
          at.flatMap((i) => rows[i]),
          at.map(() => true),
          at.map((i) => y[i]! + (i === 0 ? shift : 0)),
          JSON.stringify({ ...K, median_k: 12, ridge: 0.05 }),
        ],
      );
      return v;
    };
    const priced = await value(() => true, Math.log(10));
    const without = await value((i) => i !== 0, 0);
    expect(Math.abs(priced / without - 1)).toBeLessThan(0.002);
  });

  it('takes the same comparables however the rows were written: of the listings at one distance, those of the lowest ids, in their order', async () => {
    // 100 flats of one building in Manta, all at one point; the first 50 written again, so that their
    // rows (and the index's entries) now stand after the others'
    const ids = (
      await db.admin.query<{ id: string }>(
        `insert into internal.listings (title, address, price, bedrooms, bathrooms, square_feet, property_type, city, state, sector, geo_lat, geo_lon, listed_at, updated_at)
         select 'Departamento ' || i, 'Torre ' || i, 90000 + i * 100, 2, 2, 90, 'apartment', 'Manta', 'Manabí', 'Centro', -0.9500, -80.7200, now(), now()
           from generate_series(1, 100) i
         returning id::text`,
      )
    ).map((r) => r.id);
    await db.admin.query('update internal.listings set price = price + 1 where id = any ($1::bigint[])', [
      ids.slice(0, 50),
    ]);
    const { got } = await one<{ got: string[] }>(
      `select c.ids::text[] as got from internal.valuation_comparables('apartment', array['apartment'], 90, null, null, null, null, false, null, -0.95, -80.72, null, null) c`,
      [],
    );
    const expected = [...ids].sort((a, b) => Number(a) - Number(b)).slice(0, 80);
    expect(got).toEqual(expected);
  });

  it('takes the plain median where it is exact: every house near asks $1,200/m² whatever its rooms, age and size, and the estimate says so to the thousand, its range ±4%', async () => {
    const rand = random(11);
    await db.admin.query(
      `insert into internal.listings (title, address, price, bedrooms, bathrooms, square_feet, year_built, property_type, city, state, sector, geo_lat, geo_lon, listed_at, updated_at)
       select 'Casa ' || i, 'Lote ' || i, 1200 * a, b, ba, a, y, 'house', 'Loja', 'Loja', 'Centro', lat, lng, now(), now()
         from unnest($1::int[], $2::float8[], $3::int[], $4::float8[], $5::int[], $6::text[], $7::text[]) as t(i, a, b, ba, y, lat, lng)`,
      [
        Array.from({ length: 40 }, (_, i) => i + 1),
        Array.from({ length: 40 }, () => Math.round(80 + rand() * 300)),
        Array.from({ length: 40 }, () => 1 + Math.floor(rand() * 5)),
        Array.from({ length: 40 }, () => 1 + Math.floor(rand() * 4)),
        Array.from({ length: 40 }, () => 1960 + Math.floor(rand() * 60)),
        Array.from({ length: 40 }, () => (-3.99 + (rand() - 0.5) * 0.04).toFixed(6)),
        Array.from({ length: 40 }, () => (-79.2 + (rand() - 0.5) * 0.04).toFixed(6)),
      ],
    );
    const { answer } = await one<{ answer: unknown }>('select public.estimate_value($1::jsonb) as answer', [
      JSON.stringify({
        lat: -3.99,
        lng: -79.2,
        property_type: 'house',
        area_m2: 150,
        bedrooms: 5,
        bathrooms: 1,
        year_built: 1965,
      }),
    ]);
    const e = parseEstimate(answer);
    expect(e.value).toBe(180_000);
    expect(e.low).toBe(Math.round((180_000 * Math.exp(-0.04)) / 1000) * 1000);
    expect(e.high).toBe(Math.round((180_000 * Math.exp(0.04)) / 1000) * 1000);
  });
});
