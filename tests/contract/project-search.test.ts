/**
 * New developments in the search (docs/projects.md "In the search"): each active project with a
 * unit type is one listing of its own (operation 'project'), found by the search's own calls (the
 * widgets' data functions, through the data API) and counted as SQL written apart here counts the
 * projects themselves; delivery and bedrooms narrow it; it follows its project; a sale's search,
 * the listing sitemap and the market never read it.
 */
import { PostgrestClient } from '@supabase/postgrest-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getListingsCount, getListingsPage, type SearchFilters } from '../../widgets/lib/data/listings.ts';
import { mapListing } from '../../core/protocol/listing.ts';
import { startTestServer, type TestServer } from '../support/servers.ts';
import { atInstant } from '../support/clock-at.ts';

/** the projects the public sees, apart from the search: active, selling a type; `where` on p (the project) */
const projects = (where = 'true') => `select p.slug from internal.projects p where p.status = 'active'
  and exists (select 1 from internal.project_unit_types t where t.project_id = p.id) and (${where}) order by p.slug`;

describe('new developments in the search', () => {
  let server: TestServer;
  let rest: PostgrestClient;
  const slugs = async (where?: string) => (await server.sql<{ slug: string }>(projects(where))).map((r) => r.slug);
  /** the search's own calls: the count, and every page of the list as the cards get them */
  const search = async (filters: SearchFilters) => {
    const count = await getListingsCount(rest, filters);
    const rows = await getListingsPage(rest, filters, 'price_asc', 1, undefined, 100);
    return {
      count,
      rows,
      slugs: rows.map((r) => mapListing(r, server.url).project?.slug ?? `not a project: ${String(r.id)}`).sort(),
    };
  };

  beforeAll(async () => {
    server = await startTestServer('postgres');
    rest = new PostgrestClient(`${server.url}/rest/v1`, { headers: { apikey: 'local-anon-key' } });
  }, 180_000);
  afterAll(async () => {
    await server?.close();
  });

  it("'New homes' in Quito shows Quito's projects only, as many as SQL counts apart, each priced from its cheapest unit type", async () => {
    const quito = await slugs("lower(p.city) = 'quito'");
    expect(quito.length).toBeGreaterThanOrEqual(3);
    const found = await search({ operation: 'project', place: 'quito' });
    expect(found.count).toBe(quito.length);
    expect(found.slugs).toEqual(quito);
    const from = await server.sql<{ slug: string; price: string; beds: number; low: number }>(
      `select p.slug, min(t.price_min)::text as price, max(t.bedrooms) as beds, min(t.bedrooms) as low
         from internal.projects p join internal.project_unit_types t on t.project_id = p.id group by p.slug`,
    );
    for (const row of found.rows) {
      const p = mapListing(row, server.url);
      const expected = from.find((f) => f.slug === p.project?.slug);
      expect(p.operation).toBe('project');
      expect(p.price).toBe(Number(expected?.price));
      expect(p.bedrooms).toBe(Number(expected?.beds));
      expect(p.project?.bedrooms_min).toBe(Number(expected?.low));
    }
    // every project of the seed, and no listing for sale among them
    const all = await search({ operation: 'project' });
    expect(all.slugs).toEqual(await slugs());
    // a search for sale or for rent has none
    for (const operation of [undefined, 'rent'] as const) {
      const page = await getListingsPage(
        rest,
        { place: 'quito', ...(operation ? { operation } : {}) },
        'price_asc',
        1,
        undefined,
        100,
      );
      expect(page.some((r) => r.operation === 'project')).toBe(false);
    }
  });

  it('"Delivery by 2027", "2+ bedrooms" and a stage narrow it, as SQL says apart; an unknown operation is refused', async () => {
    const by2027 = await slugs(`p.stage = 'delivered' or p.delivery < date '2028-01-01'`);
    const twoBeds = await slugs(
      'exists (select 1 from internal.project_unit_types t where t.project_id = p.id and t.bedrooms >= 2)',
    );
    const both = by2027.filter((s) => twoBeds.includes(s));
    expect(by2027.length).toBeGreaterThan(0);
    expect(by2027.length).toBeLessThan((await slugs()).length);
    expect((await search({ operation: 'project', deliveryBy: 2027 })).slugs).toEqual(by2027);
    expect((await search({ operation: 'project', beds: 2 })).slugs).toEqual(twoBeds);
    const narrowed = await search({ operation: 'project', deliveryBy: 2027, beds: 2 });
    expect(narrowed.slugs).toEqual(both);
    expect(narrowed.count).toBe(both.length);
    // each stage, as the projects say theirs
    for (const stage of ['pre_sale', 'under_construction', 'delivered'] as const) {
      const at = await slugs(`p.stage = '${stage}'`);
      expect(at.length, stage).toBeGreaterThan(0);
      expect((await search({ operation: 'project', stage })).slugs, stage).toEqual(at);
    }
    const res = await fetch(`${server.url}/rest/v1/rpc/search_listings_count`, {
      method: 'POST',
      headers: { apikey: 'local-anon-key', 'Content-Type': 'application/json' },
      body: JSON.stringify({ filters: { operation: 'lease' } }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(/operation must be sale, rent or project/);
  });

  it("a project's listing follows it: a cheaper unit type, a withdrawal, its types gone; its listing address is its project's page, and no listing sitemap has it", async () => {
    const [row] = await server.sql<{ id: string; price: string }>(
      "select l.id::text as id, l.price::text as price from internal.listings l join internal.projects p on p.id = l.project_id where p.slug = 'torre-quito-tenis'",
    );
    expect(row).toBeDefined();
    const id = String(row?.id);
    await server.sql(
      "update internal.project_unit_types set price_min = 91000 where project_id = (select id from internal.projects where slug = 'torre-quito-tenis') and position = 0",
    );
    expect(
      (await server.sql<{ price: string }>('select price::text as price from internal.listings where id = $1', [id]))[0]
        ?.price,
    ).toBe('91000');
    // the listing's page sends to the project's, in its language
    for (const [path, target] of [
      [`/properties/${id}-torre-quito-tenis`, '/projects/torre-quito-tenis'],
      [`/es/properties/${id}-torre-quito-tenis`, '/es/proyectos/torre-quito-tenis'],
    ] as const) {
      const res = await fetch(`${server.url}${path}`, { redirect: 'manual' });
      expect(res.status, path).toBe(301);
      expect(res.headers.get('location')).toBe(target);
    }
    const index = await (await fetch(`${server.url}/sitemap.xml`)).text();
    const maps = [...index.matchAll(/<loc>[^<]*(\/sitemaps\/listings-\d+\.xml)<\/loc>/g)].map((m) => m[1] as string);
    expect(maps.length).toBeGreaterThan(0);
    for (const map of maps)
      expect(await (await fetch(`${server.url}${map}`)).text()).not.toMatch(new RegExp(`/properties/${id}-`));
    // withdrawn, or selling nothing: out of the search
    await server.sql("update internal.projects set status = 'withdrawn' where slug = 'torre-quito-tenis'");
    expect((await search({ operation: 'project' })).slugs).not.toContain('torre-quito-tenis');
    await server.sql("update internal.projects set status = 'active' where slug = 'torre-quito-tenis'");
    expect((await search({ operation: 'project' })).slugs).toContain('torre-quito-tenis');
    await server.sql(
      "delete from internal.project_unit_types where project_id = (select id from internal.projects where slug = 'torre-quito-tenis')",
    );
    expect((await search({ operation: 'project' })).slugs).not.toContain('torre-quito-tenis');
    // deleted, with it
    await server.sql("delete from internal.projects where slug = 'torre-quito-tenis'");
    expect(await server.sql('select 1 from internal.listings where id = $1', [id])).toEqual([]);
  });

  it('the market index and the valuation read no project: a project\'s "from" is no resale price', async () => {
    // the index made whole at one instant (the one this test starts at) and rolled back: made twice
    // at two instants, its figures of the current month (the days on the market) may differ by a day
    const at = (await server.sql<{ t: string }>('select internal.now()::text as t'))[0]?.t ?? '';
    const index = () =>
      atInstant(server.db, at, async (tx) => {
        await tx.query('select internal.rebuild_market_index()');
        const [row] = await tx.query<{ h: string; n: number }>(
          "select md5(string_agg(m::text, '|' order by m.path, m.type_group, m.month)) as h, count(*)::integer as n from internal.market_index m",
        );
        return row;
      });
    const before = await index();
    expect(before?.n).toBeGreaterThan(100);
    // a project in Quito's La Carolina at a price no resale home asks, with many units
    const [p] = await server.sql<{ id: string }>(
      `insert into internal.projects (slug, name, city, sector, stage, delivery, geo_lat, geo_lon, source_key)
       values ('cheap-test-tower', 'Cheap Test Tower', 'Quito', 'La Carolina', 'pre_sale', date '2029-06-01', -0.1807, -78.4678, 'cheap-test-tower')
       returning id::text as id`,
    );
    await server.sql(
      "insert into internal.project_unit_types (project_id, position, property_type, bedrooms, area_min, area_max, price_min, price_max, units_available) values ($1, 0, 'apartment', 2, 80, 80, 9000, 9000, 400)",
      [p?.id],
    );
    expect((await search({ operation: 'project', place: 'quito' })).slugs).toContain('cheap-test-tower');
    expect(await index()).toEqual(before);
    // nor is it a comparable of a home valued beside it
    const res = await fetch(`${server.url}/rest/v1/rpc/estimate_value`, {
      method: 'POST',
      headers: { apikey: 'local-anon-key', 'Content-Type': 'application/json' },
      body: JSON.stringify({
        facts: { place: 'quito/la-carolina', property_type: 'apartment', area_m2: 80, bedrooms: 2 },
      }),
    });
    expect(res.status).toBe(200);
    const [listing] = await server.sql<{ id: string }>(
      'select id::text as id from internal.listings where project_id = $1',
      [p?.id],
    );
    expect(JSON.stringify(await res.json())).not.toMatch(new RegExp(`"id":"?${listing?.id}"?[,}]`));
  });
});
