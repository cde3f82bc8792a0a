/**
 * What is near a new development (docs/projects.md "What is near"): public.nearby_places through
 * the data API with the public key, against the nearest places written apart here (a haversine over
 * every seeded place); a project's page and a listing's in both languages as a crawler reads them; the kinds the
 * database takes, the same list as core/protocol/nearby.ts; and a GeoJSON file's run (what it
 * stores, what it refuses, what makes it change nothing).
 */
import { PostgrestClient } from '@supabase/postgrest-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDistance, NEARBY_KINDS } from '../../core/protocol/nearby.ts';
import { listingPath } from '../../core/routes.ts';
import type { Database } from '../../server/db/database.ts';
import { readNearbyGeoJson, storeNearby } from '../../server/import/nearby.ts';
import { parseHtml } from '../support/crawled-pages.ts';
import { patientFetch } from '../support/patient-fetch.ts';
import { migratedDatabase } from '../support/postgres.ts';
import { startTestServer, type TestServer } from '../support/servers.ts';

/** metres between two points on a sphere of the Earth's mean radius */
function haversine(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = Math.PI / 180;
  const a =
    Math.sin(((lat2 - lat1) * rad) / 2) ** 2 +
    Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lng2 - lng1) * rad) / 2) ** 2;
  return 2 * 6_371_008.8 * Math.asin(Math.sqrt(a));
}

type Place = { kind: string; name: string; lat: number; lng: number };

/** of each kind the two nearest, kept when within 5 km, nearest first (the rule of docs/projects.md) */
function nearest(places: Place[], lat: number, lng: number) {
  return NEARBY_KINDS.flatMap((kind) =>
    places
      .filter((p) => p.kind === kind)
      .map((p) => ({ kind, name: p.name, d: haversine(lat, lng, p.lat, p.lng) }))
      .sort((a, b) => a.d - b.d)
      .slice(0, 2),
  )
    .filter((p) => p.d <= 5000)
    .sort((a, b) => a.d - b.d);
}

async function page(url: string): Promise<Document> {
  const res = await patientFetch(url, { headers: { 'User-Agent': 'Googlebot/2.1' } });
  expect(res.status, url).toBe(200);
  return parseHtml(await res.text());
}

const text = (el: Element | null | undefined) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();

describe('what is near a new development', () => {
  let server: TestServer;
  let rest: PostgrestClient;
  let places: Place[];
  beforeAll(async () => {
    server = await startTestServer('postgres');
    rest = new PostgrestClient(`${server.url}/rest/v1`, { headers: { apikey: 'local-anon-key' } });
    places = await server.sql<Place>(
      'select kind, name, position[1] as lat, position[0] as lng from internal.points_of_interest',
    );
  }, 180_000);
  afterAll(async () => {
    await server?.close();
  });

  it('public.nearby_places answers the public key with the two nearest of each kind within 5 km, as computed apart, nearest first', async () => {
    const projects = await server.sql<{ slug: string; lat: number; lng: number }>(
      "select slug, geo_lat as lat, geo_lon as lng from internal.projects where status = 'active' order by slug",
    );
    expect(projects.length).toBeGreaterThanOrEqual(8);
    let shown = 0;
    for (const p of projects) {
      const { data, error } = await rest.rpc('nearby_places', { lat: p.lat, lng: p.lng });
      expect(error, p.slug).toBeNull();
      const rows = data as Array<{ kind: string; name: string; distance_m: number }>;
      const expected = nearest(places, p.lat, p.lng);
      expect(
        rows.map((r) => `${r.kind}:${r.name}`),
        p.slug,
      ).toEqual(expected.map((e) => `${e.kind}:${e.name}`));
      // the database's flat distance (a degree of 111.32 km) and the sphere's agree within 0.2% and the metre it rounds to
      for (const [i, r] of rows.entries())
        expect(Math.abs(r.distance_m - expected[i]!.d), `${p.slug} ${r.name}`).toBeLessThan(1 + expected[i]!.d * 0.002);
      expect(rows.every((r) => r.distance_m <= 5000)).toBe(true);
      shown += rows.length;
    }
    // the seed places something near every project
    expect(shown).toBeGreaterThanOrEqual(projects.length * 3);
    // a point far from everything, and one off the globe, have nothing near
    for (const [lat, lng] of [
      [-0.74, -90.31],
      [95, 0],
    ]) {
      const { data, error } = await rest.rpc('nearby_places', { lat, lng });
      expect(error).toBeNull();
      expect(data).toEqual([]);
    }
    // the public key reads the places through the function only
    const direct = await rest.schema('internal').from('points_of_interest').select('name').limit(1);
    expect(direct.error).not.toBeNull();
  });

  it("a project's page says what is near it, in its language, as the data API does, readable without JavaScript", async () => {
    const [p] = await server.sql<{ lat: number; lng: number }>(
      "select geo_lat as lat, geo_lon as lng from internal.projects where slug = 'altos-de-la-carolina'",
    );
    const expected = nearest(places, p!.lat, p!.lng);
    expect(expected.length).toBeGreaterThanOrEqual(6);
    for (const [path, heading, park, note] of [
      ['/projects/altos-de-la-carolina', "What's nearby", 'Park', 'Distances in a straight line, not by road.'],
      ['/es/proyectos/altos-de-la-carolina', 'Qué hay cerca', 'Parque', 'Distancias en línea recta, no por calle.'],
    ] as const) {
      const doc = await page(`${server.url}${path}`);
      const block = doc.querySelector('[data-nearby]');
      expect(text(block?.querySelector('.nearby__heading')), path).toBe(heading);
      const items = [...(block?.querySelectorAll('li') ?? [])];
      expect(items.map((li) => text(li.querySelector('.nearby__name')))).toEqual(expected.map((e) => e.name));
      expect(items.map((li) => li.getAttribute('data-nearby-kind'))).toEqual(expected.map((e) => e.kind));
      // the distance to ten metres (or a tenth of a km): the database's and the sphere's round alike but near an edge
      for (const [i, li] of items.entries()) {
        const shown = text(li.querySelector('.nearby__distance'));
        const d = expected[i]!.d;
        expect([formatDistance(d), formatDistance(d * 1.002 + 1)], `${path} ${expected[i]!.name}`).toContain(shown);
      }
      const parkItem = items.find((li) => li.getAttribute('data-nearby-kind') === 'park');
      expect(text(parkItem?.querySelector('.nearby__kind'))).toBe(park);
      // read as one line by a screen reader or a copy: its parts apart
      expect(text(parkItem)).toMatch(new RegExp(`^${park} · [^·]+ · [\\d.,]+ k?m$`));
      expect(text(block?.querySelector('.nearby__note'))).toBe(note);
      // inside the location's section, after the directions
      expect(block?.closest('section')?.querySelector('h2')?.id).toBe('location-heading');
    }
  });

  it("a listing's page says what is near it as a project's does; one placed at its city's centre (no position of its own) says nothing", async () => {
    // the active listing for sale nearest the seed's first project in Quito's north, and one without a position
    const [near] = await server.sql<{ id: string; title: string; lat: number; lng: number }>(
      `select l.id::text as id, l.title, l.geo_lat as lat, l.geo_lon as lng from internal.listings l, internal.projects p
        where p.slug = 'altos-de-la-carolina' and l.status = '1' and l.operation = 'sale' and l.geo_lat is not null
        order by l.location <-> point(p.geo_lon, p.geo_lat) limit 1`,
    );
    const expected = nearest(places, near!.lat, near!.lng);
    expect(expected.length).toBeGreaterThanOrEqual(4);
    for (const [lang, heading] of [
      ['en', "What's nearby"],
      ['es', 'Qué hay cerca'],
    ] as const) {
      const path = listingPath(near!.id, near!.title, lang);
      const doc = await page(`${server.url}${path}`);
      const block = doc.querySelector('[data-nearby]');
      expect(text(block?.querySelector('.nearby__heading')), path).toBe(heading);
      const items = [...(block?.querySelectorAll('li') ?? [])];
      expect(
        items.map((li) => `${li.getAttribute('data-nearby-kind')}:${text(li.querySelector('.nearby__name'))}`),
      ).toEqual(expected.map((e) => `${e.kind}:${e.name}`));
      // in the listing's location, under its heading
      expect(block?.closest('section')?.className).toBe('listing__location');
    }
    const [placed] = await server.sql<{ id: string; title: string }>(
      `update internal.listings set geo_lat = null, geo_lon = null
        where id = (select id from internal.listings where status = '1' and operation = 'sale' and city = 'Quito' and id::text <> $1 order by id limit 1)
        returning id::text as id, title`,
      [near!.id],
    );
    const doc = await page(`${server.url}${listingPath(placed!.id, placed!.title, 'en')}`);
    expect(doc.querySelector('.listing__location')).not.toBeNull();
    expect(doc.querySelector('[data-nearby]')).toBeNull();
  });

  it('a project nothing is near shows no "What\'s nearby" at all', async () => {
    await server.sql("update internal.projects set geo_lat = -0.74, geo_lon = -90.31 where slug = 'bosque-norte'");
    const doc = await page(`${server.url}/projects/bosque-norte`);
    expect(doc.querySelector('h1')).not.toBeNull();
    expect(doc.querySelector('[data-nearby]')).toBeNull();
    expect(text(doc.body)).not.toContain("What's nearby");
  });

  it('the database takes the kinds of core/protocol/nearby.ts and refuses any other', async () => {
    for (const kind of [...NEARBY_KINDS, 'casino']) {
      const insert = server.sql(
        "insert into internal.points_of_interest (kind, name, position, source, source_key) values ($1, 'x', point(-78.5, -0.2), 'kinds-test', $1)",
        [kind],
      );
      if (kind === 'casino') await expect(insert).rejects.toThrow(/points_of_interest_kind/);
      else await insert;
    }
    await server.sql("delete from internal.points_of_interest where source = 'kinds-test'");
  });
});

describe('a GeoJSON file of places of interest, stored', () => {
  let database: { db: Database; close(): Promise<void> };
  const feature = (id: string, tags: Record<string, string>, lng: number, lat: number) => ({
    type: 'Feature',
    id,
    properties: tags,
    geometry: { type: 'Point', coordinates: [lng, lat] },
  });
  const file = (...features: unknown[]) => JSON.stringify({ type: 'FeatureCollection', features });
  const names = async () =>
    (
      await database.db.jobs.query<{ name: string }>(
        "select name from internal.points_of_interest where source = 'osm' order by name",
      )
    ).map((r) => r.name);
  beforeAll(async () => {
    database = await migratedDatabase();
  }, 180_000);
  afterAll(async () => {
    await database?.close();
  });

  it('stores a run, replaces it with the next, and changes nothing for an empty file or one that takes away more than half unless told', async () => {
    const first = file(
      feature('node/1', { amenity: 'school', name: 'Colegio Uno' }, -78.48, -0.18),
      feature('node/2', { leisure: 'park', name: 'Parque Dos' }, -78.485, -0.182),
      feature('node/3', { shop: 'mall', name: 'Centro Tres' }, -78.48, -0.176),
      feature('node/4', { amenity: 'bench', name: 'Banca' }, -78.48, -0.176),
      feature('node/5', { amenity: 'hospital', name: 'Off' }, -78.48, 93),
    );
    const run1 = await storeNearby(database.db, 'osm', readNearbyGeoJson(first, 'osm'));
    expect(run1).toMatchObject({ read: 5, passedOver: 1, stored: 3, removed: 0, held: null });
    expect(run1.refused).toEqual([{ key: 'node/5', reason: 'a position off the globe (-78.48, 93)' }]);
    expect(await names()).toEqual(['Centro Tres', 'Colegio Uno', 'Parque Dos']);

    // the next run: one renamed, one gone, one new
    const second = file(
      feature('node/1', { amenity: 'school', name: 'Colegio Uno (nuevo)' }, -78.48, -0.18),
      feature('node/2', { leisure: 'park', name: 'Parque Dos' }, -78.485, -0.182),
      feature('node/6', { amenity: 'university', name: 'Universidad Seis' }, -78.49, -0.2),
    );
    expect(await storeNearby(database.db, 'osm', readNearbyGeoJson(second, 'osm'))).toMatchObject({
      stored: 3,
      removed: 1,
      held: null,
    });
    expect(await names()).toEqual(['Colegio Uno (nuevo)', 'Parque Dos', 'Universidad Seis']);
    // through the data API's function, as a page reads it
    const near = await database.db.jobs.query<{ name: string }>('select name from public.nearby_places(-0.18, -78.48)');
    expect(near.map((r) => r.name)).toEqual(['Colegio Uno (nuevo)', 'Parque Dos', 'Universidad Seis']);
    // the same place from another source (or as a point and an area) counts once, at its nearest
    await database.db.jobs.query(
      "insert into internal.points_of_interest (kind, name, position, source, source_key) values ('park', 'PARQUE DOS', point(-78.4849, -0.1819), 'another', 'way/2')",
    );
    const parks = await database.db.jobs.query<{ name: string; distance_m: number }>(
      "select name, distance_m from public.nearby_places(-0.18, -78.48) where kind = 'park'",
    );
    expect(parks).toHaveLength(1);

    // a broken extract: nothing of interest, or most of the list gone
    const empty = await storeNearby(
      database.db,
      'osm',
      readNearbyGeoJson(file(feature('node/4', { amenity: 'bench', name: 'Banca' }, -78.48, -0.17)), 'osm'),
    );
    expect(empty.held).toMatch(/no place of interest/);
    const most = readNearbyGeoJson(file(feature('node/9', { amenity: 'school', name: 'Solo' }, -78.48, -0.17)), 'osm');
    const held = await storeNearby(database.db, 'osm', most);
    expect(held.held).toMatch(/take away 3 of the source's 3 places/);
    expect(await names()).toEqual(['Colegio Uno (nuevo)', 'Parque Dos', 'Universidad Seis']);
    // told, it does; another source's places are never touched
    await database.db.jobs.query(
      "insert into internal.points_of_interest (kind, name, position, source, source_key) values ('park', 'Otro', point(-78.4, -0.2), 'other', 'x')",
    );
    expect(await storeNearby(database.db, 'osm', most, { allowWithdrawals: true })).toMatchObject({
      stored: 1,
      removed: 3,
      held: null,
    });
    expect(await names()).toEqual(['Solo']);
    expect(await database.db.jobs.query("select name from internal.points_of_interest where source = 'other'")).toEqual(
      [{ name: 'Otro' }],
    );
  });
});
