/**
 * What a home may ask (docs/valuation.md), as a seller meets it, on our server over PostgreSQL
 * (tests/support/valuation.ts): public.estimate_value for a 250 m² three-bedroom house in Cumbayá
 * (its comparables all houses near Cumbayá), not pulled by an outlier, dated by the listing's own
 * day when it is one, its refusals naming the field, buyer demand against a count written apart in
 * SQL; the agents who serve a place, against a list written apart.
 */
import { describe, expect, it } from 'vitest';
import { HOME_LIMITS, parseEstimate } from '../../core/protocol/valuation.ts';
import { TEAM, useDeliveries } from '../support/deliveries.ts';
import { CUMBAYA, valuationOn } from '../support/valuation.ts';

describe('what a home may ask (docs/valuation.md)', () => {
  const d = useDeliveries(['seller.lead.created'], {
    mail: { probeMs: 200 },
    alerts: { teamInbox: TEAM },
    inquiry: { teamInbox: TEAM },
  });
  const { estimate } = valuationOn(d);

  it('values a 250 m² three-bedroom house in Cumbayá from houses near Cumbayá: a value inside its range, the place, its market figure and the agent who serves it', async () => {
    const { data, error } = await estimate(CUMBAYA);
    expect(error).toBeNull();
    const e = parseEstimate(data);
    expect(e.value).toBeGreaterThan(0);
    expect(e.low).toBeLessThanOrEqual(e.value as number);
    expect(e.high).toBeGreaterThanOrEqual(e.value as number);
    expect(e.comparables.length).toBeGreaterThanOrEqual(5);
    const ids = e.comparables.map((c) => c.id);
    const rows = await d.server.sql<{ id: string; property_type: string; city: string; km: number }>(
      `select l.id::text as id, l.property_type, l.city,
              sqrt(power((l.lat - p.lat) * 111.32, 2) + power((l.lng - p.lng) * 111.32 * cos(radians(p.lat)), 2)) as km
         from internal.listings l, internal.places p where p.path = 'cumbaya' and l.id = any($1::bigint[])`,
      [ids],
    );
    expect(rows).toHaveLength(ids.length);
    for (const r of rows) {
      expect(r.property_type, r.id).toBe('house');
      expect(Number(r.km), `${r.id} in ${r.city}`).toBeLessThan(6);
    }
    expect(e.place?.path).toMatch(/^cumbaya(\/|$)/);
    expect(e.agent?.name).toBeTruthy();
    // the same home is worth more when larger, as its comparables say
    const larger = parseEstimate((await estimate({ ...CUMBAYA, area_m2: 400 })).data);
    expect(larger.value).toBeGreaterThan(e.value as number);
    // a home too far from any listing like it gets no value, and says why
    const far = parseEstimate(
      (await estimate({ lat: -1.3, lng: -77.0, property_type: 'commercial_building', area_m2: 500 })).data,
    );
    expect(far).toMatchObject({ value: null, reason: 'too_few_comparables', confidence: 'none' });
  });

  it('asks for the agent who serves the place once an estimate, as PostgreSQL counts the calls (docs/valuation.md "Accuracy", speed)', async () => {
    // written in a query's condition, a stable function is run once more while the query is
    // planned (to estimate its rows): internal.area_agent is the costliest step after the fit
    const [row] = await d.server.sql<{ value: number | null; calls: number }>(
      `with tracked as materialized (select pg_catalog.set_config('track_functions', 'all', true) as on_),
            answer as materialized (select public.estimate_value($1::jsonb) as e from tracked)
       select (a.e ->> 'value')::float8 as value,
              pg_catalog.pg_stat_get_xact_function_calls('internal.area_agent(text)'::regprocedure)::int as calls
         from (select answer.e from answer offset 0) a`,
      [JSON.stringify(CUMBAYA)],
    );
    expect(row?.value).toBeGreaterThan(0);
    expect(row?.calls).toBe(1);
  });

  it("lists the agents who serve a place, those who name it before those who name its city, as written apart; the lead's agent is the first with an e-mail", async () => {
    const fold = (x: string) => x.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();
    const agents = await d.server.sql<{ id: string; email: string | null; served: string[] | null }>(
      "select id::text as id, email, locations_served as served from public.agents where country_code = 'EC'",
    );
    const places = await d.server.sql<{ path: string; name: string }>('select path, name from internal.places');
    const nameOf = (path: string) => places.find((p) => p.path === path)?.name ?? '';
    for (const place of ['cumbaya', 'quito/la-carolina', 'guayaquil/kennedy-norte']) {
      const { data, error } = await d.rest.rpc('area_agents', { place });
      expect(error, place).toBeNull();
      const answer = data as { place: { path: string; name: string }; agents: number[] };
      // written apart: EC agents whose locations served, folded, name the place; then those who name its city
      const names = (a: (typeof agents)[number], name: string) => (a.served ?? []).some((x) => fold(x) === fold(name));
      const own = agents.filter((a) => names(a, nameOf(place))).map((a) => a.id);
      const city = agents
        .filter((a) => !own.includes(a.id) && names(a, nameOf(place.split('/')[0] as string)))
        .map((a) => a.id);
      // the place they serve: the one asked for, or its city when only the city is named
      const served = !own.length && city.length ? (place.split('/')[0] as string) : place;
      expect(answer.place, place).toEqual({ path: served, name: nameOf(served) });
      const got = answer.agents.map(String);
      expect(got.length, place).toBeGreaterThan(0);
      expect(got.slice(0, own.length).sort(), place).toEqual([...own].sort());
      expect(got.slice(own.length).sort(), place).toEqual([...city].sort());
      // the seller's lead goes to the first of them with an e-mail
      const [lead] = await d.server.sql<{ id: string | null }>('select internal.area_agent($1)::text as id', [place]);
      expect(lead?.id ?? null, place).toBe(got.find((id) => agents.find((a) => a.id === id)?.email?.trim()) ?? null);
    }
    // a place we do not have: no place, no agents; a hostile text is only a text
    expect((await d.rest.rpc('area_agents', { place: 'no-such-place' })).data).toEqual({ place: null, agents: [] });
    expect((await d.rest.rpc('area_agents', { place: "x'); drop table public.agents; --" })).data).toEqual({
      place: null,
      agents: [],
    });
    expect((await d.server.sql<{ n: number }>('select count(*)::int as n from public.agents'))[0]?.n).toBe(
      agents.length +
        (
          await d.server.sql<{ n: number }>("select count(*)::int as n from public.agents where country_code <> 'EC'")
        )[0]!.n,
    );
  });

  it('leaves the home itself out of its comparables when it is listed', async () => {
    const [l] = await d.server.sql<{ id: string; lat: number; lng: number; area: number }>(
      "select id::text as id, lat, lng, square_feet::float8 as area from internal.listings where status = '1' and country_code = 'EC' and property_type = 'house' and lat is not null and city = 'Cumbayá' order by id limit 1",
    );
    const facts = { lat: l!.lat, lng: l!.lng, property_type: 'house', area_m2: l!.area };
    expect(parseEstimate((await estimate(facts)).data).comparables.map((c) => c.id)).toContain(l!.id);
    expect(
      parseEstimate((await estimate({ ...facts, listing_id: Number(l!.id) })).data).comparables.map((c) => c.id),
    ).not.toContain(l!.id);
  });

  it('is not pulled by one comparable priced unlike its neighbours: the heaviest, asking ten times its price, moves the value by under 5% (its own evidence gone, not its price)', async () => {
    const before = parseEstimate((await estimate(CUMBAYA)).data);
    const heaviest = before.comparables[0]?.id;
    expect(heaviest).toBeTruthy();
    const [was] = await d.server.sql<{
      price: string;
      cut_at: string | null;
      before_cut: string | null;
      history: string;
    }>(
      'select price::text as price, price_cut_at::text as cut_at, price_before_cut::text as before_cut, (select coalesce(max(c.id), 0)::text from internal.listing_price_changes c) as history from internal.listings where id = $1',
      [heaviest],
    );
    await d.server.sql('update internal.listings set price = price * 10 where id = $1', [heaviest]);
    try {
      const after = parseEstimate((await estimate(CUMBAYA)).data);
      // still among the nearest, weighed down by how far it misses the fit (docs/valuation.md, step 3)
      expect(after.comparables.map((c) => c.id)).not.toContain(heaviest);
      // what moves is that the heaviest comparable's evidence is gone: it counts as if it were not
      // there (tests/contract/valuation-method.test.ts), not as a price ten times its neighbours'
      expect(Math.abs((after.value as number) / (before.value as number) - 1)).toBeLessThan(0.05);
    } finally {
      // the listing as it was: its price, its last cut (putting the price back counts as one) and its history
      await d.server.sql('update internal.listings set price = $2::numeric where id = $1', [heaviest, was?.price]);
      await d.server.sql(
        'update internal.listings set price_cut_at = $2::timestamptz, price_before_cut = $3::numeric where id = $1',
        [heaviest, was?.cut_at, was?.before_cut],
      );
      await d.server.sql('delete from internal.listing_price_changes where listing_id = $1 and id > $2::bigint', [
        heaviest,
        was?.history,
      ]);
    }
  });

  it('values a listed home as of the day it was listed: the same listing dated today asks what the market asks today (docs/valuation.md, step 3)', async () => {
    const [l] = await d.server.sql<{ id: string; lat: number; lng: number; area: number; listed_at: string }>(
      `select id::text as id, lat, lng, square_feet::float8 as area, listed_at::text as listed_at from internal.listings
        where status = '1' and country_code = 'EC' and operation = 'sale' and property_type = 'house' and lat is not null and city = 'Cumbayá'
          and listed_at < internal.now() - interval '12 months'
        order by id limit 1`,
    );
    expect(l, 'a house in Cumbayá listed over a year ago').toBeTruthy();
    const facts = { lat: l!.lat, lng: l!.lng, property_type: 'house', area_m2: l!.area, listing_id: Number(l!.id) };
    const then = parseEstimate((await estimate(facts)).data);
    await d.server.sql('update internal.listings set listed_at = internal.now() where id = $1', [l!.id]);
    try {
      const today = parseEstimate((await estimate(facts)).data);
      // the same comparables, the same facts: only the day the estimate is for has moved
      expect(today.comparables.map((c) => c.id)).toEqual(then.comparables.map((c) => c.id));
      expect(today.usdM2).not.toBe(then.usdM2);
    } finally {
      await d.server.sql('update internal.listings set listed_at = $2::timestamptz where id = $1', [
        l!.id,
        l!.listed_at,
      ]);
    }
  });

  it('refuses what it cannot value with a 400 that names the field, the form’s limits being the function’s own', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...CUMBAYA, area_m2: 0 }, 'area_m2'],
      [{ ...CUMBAYA, area_m2: -5 }, 'area_m2'],
      [{ ...CUMBAYA, area_m2: 1e9 }, 'area_m2'],
      [{ ...CUMBAYA, area_m2: '250' }, 'area_m2'],
      [{ ...CUMBAYA, bedrooms: HOME_LIMITS.bedrooms[1] + 1 }, 'bedrooms'],
      [{ ...CUMBAYA, year_built: HOME_LIMITS.year_built[0] - 1 }, 'year_built'],
      [{ ...CUMBAYA, place: 'atlantis' }, 'place'],
      [{ ...CUMBAYA, property_type: 'castle' }, 'property_type'],
      [{ ...CUMBAYA, features: ['helipad'] }, 'features'],
      [{ property_type: 'house', area_m2: 120, lat: 40.4, lng: -3.7 }, 'lat'],
      [{ property_type: 'house', area_m2: 120, lat: -0.2 }, 'lng'],
      [{ property_type: 'house', area_m2: 120 }, 'lat'],
      [{ place: 'cumbaya', property_type: 'land' }, 'lot_m2'],
    ];
    for (const [facts, field] of cases) {
      const { error, status } = await estimate(facts);
      expect(status, JSON.stringify(facts)).toBe(400);
      expect(error?.code).toBe('22023');
      expect(error?.message, JSON.stringify(facts)).toMatch(new RegExp(`^${field}:`));
    }
    // the limits themselves are accepted
    for (const [k, [lo, hi]] of Object.entries(HOME_LIMITS)) {
      for (const v of [lo, hi]) expect((await estimate({ ...CUMBAYA, [k]: v })).status, `${k} ${v}`).toBe(200);
    }
  });

  it('tells buyer demand only where it singles out nobody: the count of confirmed searches a home like it matches (as SQL written apart counts them) from five, "fewer than 5" below (none and four alike), nothing for facts no home near it has', async () => {
    const value = parseEstimate((await estimate(CUMBAYA)).data).value as number;
    const matching: Array<Record<string, unknown>> = [
      { place: 'cumbaya', beds_min: 3 },
      { place: 'cumbaya', property_type: 'house', price_max: value + 50_000 },
      { area_min: 200, area_max: 300, place: 'cumbaya' },
      { place: 'cumbaya' },
      { place: 'cumbaya', property_type: 'house' },
      { place: 'cumbaya', beds_min: 2 },
    ];
    const others: Array<Record<string, unknown>> = [
      { place: 'cumbaya', beds_min: 5 },
      { place: 'quito' },
      { price_min: value + 100_000 },
    ];
    const save = async (f: Record<string, unknown>, i: number) =>
      d.server.sql(
        `insert into internal.saved_searches (email, email_key, filters, filters_key, frequency, lang, status, expires_at, confirmed_at, next_run_at, idempotency_key, client_hash)
         values ($1, $1, $2::jsonb, $1, 'daily', 'es', 'active', internal.now(), internal.now(), internal.now() + interval '1 day', $1, 'demand')`,
        [`demand-${i}-${Date.now()}@example.org`, JSON.stringify(f)],
      );
    // written apart: the filters these searches use, read against the home's facts and value
    const apart = async () =>
      (
        await d.server.sql<{ n: number }>(
          `select count(*)::int as n from internal.saved_searches s
            where s.status = 'active' and s.market is null and s.home is null and not s.spam
              and (s.filters->>'place' is null or s.filters->>'place' = 'cumbaya')
              and (s.filters->>'property_type' is null or s.filters->>'property_type' = 'house')
              and (s.filters->>'beds_min' is null or (s.filters->>'beds_min')::int <= 3)
              and (s.filters->>'price_min' is null or (s.filters->>'price_min')::numeric <= $1)
              and (s.filters->>'price_max' is null or (s.filters->>'price_max')::numeric >= $1)
              and (s.filters->>'area_min' is null or (s.filters->>'area_min')::numeric <= 250)
              and (s.filters->>'area_max' is null or (s.filters->>'area_max')::numeric >= 250)
              and not (s.filters ?| array['city', 'words', 'features', 'polygon', 'baths_min', 'year_min', 'year_max', 'lot_min', 'lot_max', 'agent', 'area_south'])`,
          [value],
        )
      )[0]?.n ?? 0;
    const demandOf = async (facts: Record<string, unknown>) => {
      const e = parseEstimate((await estimate(facts)).data);
      return { demand: e.demand, demandFewerThan: e.demandFewerThan };
    };
    for (const [i, f] of others.entries()) await save(f, 100 + i);
    // a pending (unconfirmed) one that would match does not count
    await d.server.sql(
      `insert into internal.saved_searches (email, email_key, filters, filters_key, frequency, lang, status, expires_at, idempotency_key, client_hash)
       values ($1, $1, '{"place":"cumbaya"}', $1, 'daily', 'es', 'pending', internal.now() + interval '1 day', $1, 'demand')`,
      [`pending-${Date.now()}@example.org`],
    );
    const seen = new Set<string>();
    for (const [i, f] of matching.entries()) {
      const n = await apart();
      const shown = await demandOf(CUMBAYA);
      expect(shown, `${n} searches match`).toEqual(
        n >= 5 ? { demand: n, demandFewerThan: null } : { demand: null, demandFewerThan: 5 },
      );
      if (n < 5) seen.add(JSON.stringify(shown));
      await save(f, i);
    }
    const n = await apart();
    expect(n).toBeGreaterThanOrEqual(6);
    expect(await demandOf(CUMBAYA)).toEqual({ demand: n, demandFewerThan: null });
    // below the floor, one answer whatever the count: a search added or not cannot be told apart
    expect(seen.size).toBe(1);
    // facts no home near it has (written apart: no active house of the kind anywhere) say nothing,
    // though every search of Cumbayá would match them
    for (const unlike of [
      { ...CUMBAYA, bedrooms: 9 },
      { ...CUMBAYA, features: ['waterfront', 'pool', 'view'] },
    ]) {
      const [{ homes } = { homes: -1 }] = await d.server.sql<{ homes: number }>(
        `select count(*)::int as homes from internal.listings l
          where l.status = '1' and l.property_type = 'house' and l.square_feet between 250 / 1.2 and 250 * 1.2
            and l.bedrooms = $1 and $2::text[] <@ l.features and l.city = 'Quito'`,
        [unlike.bedrooms, (unlike as { features?: string[] }).features ?? []],
      );
      expect(homes, JSON.stringify(unlike)).toBe(0);
      expect(await demandOf(unlike), JSON.stringify(unlike)).toEqual({ demand: null, demandFewerThan: null });
    }
    expect(JSON.stringify((await estimate(CUMBAYA)).data)).not.toContain('@example.org');
  });
});
