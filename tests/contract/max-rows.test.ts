/**
 * Whatever a project's Max Rows is (PostgREST's db-max-rows; our server's DB_MAX_ROWS): every read
 * that wants everything pages by what it is answered, not by assuming 1,000 rows an answer. Here the
 * data API answers at most 7 rows, and still the sitemaps list every active listing and every city,
 * the agent directory every agent, the map every matching listing, and the type list every type.
 */
import { PostgrestClient } from '@supabase/postgrest-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAgents } from '../../widgets/lib/data/agents.ts';
import { getListingsCount, getMapPoints, getPropertyTypes } from '../../widgets/lib/data/listings.ts';
import { startTestServer, type TestServer } from '../support/servers.ts';

const MAX_ROWS = 7;

describe(`a data API that answers at most ${MAX_ROWS} rows`, () => {
  let server: TestServer;
  let rest: PostgrestClient;
  beforeAll(async () => {
    server = await startTestServer('postgres', { maxRows: MAX_ROWS, site: { sitemapUrlsPerFile: 50_000 } });
    rest = new PostgrestClient(`${server.url}/rest/v1`, { headers: { apikey: 'local-anon-key' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('cuts an answer at its limit, as PostgREST does', async () => {
    expect(await (await fetch(`${server.url}/rest/v1/listings?select=id&limit=100`)).json()).toHaveLength(MAX_ROWS);
  });

  it('the sitemaps: every active listing and every city with listings', async () => {
    const index = await (await fetch(`${server.url}/sitemap.xml`)).text();
    const files = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1] as string).pathname);
    let listings = 0;
    let places = 0;
    for (const file of files) {
      const xml = await (await fetch(`${server.url}${file}`)).text();
      listings += (xml.match(/<loc>[^<]*\/properties\/\d+/g) ?? []).length;
      places += (xml.match(/<loc>[^<]*\/search-properties\/[a-z0-9-]+<\/loc>/g) ?? []).length;
    }
    const [{ n } = { n: 0 }] = await server.sql<{ n: number }>(
      "select count(*)::int as n from public.listings where country_code = 'EC' and operation <> 'project'",
    );
    expect(listings).toBe(n * 2);
    const [{ c } = { c: 0 }] = await server.sql<{ c: number }>('select count(*)::int as c from public.listing_cities');
    expect(places).toBeGreaterThanOrEqual(c * 2);
  });

  it('the agent directory: every agent, and every one a search finds', async () => {
    const [{ n } = { n: 0 }] = await server.sql<{ n: number }>(
      "select count(*)::int as n from public.agents where country_code = 'EC'",
    );
    expect(n).toBeGreaterThan(MAX_ROWS * 3);
    expect(await getAgents(rest)).toHaveLength(n);
    const [{ m } = { m: 0 }] = await server.sql<{ m: number }>(
      "select count(*)::int as m from public.agents where country_code = 'EC' and (first_name_search like '%a%' or last_name_search like '%a%' or email_search like '%a%')",
    );
    expect(await getAgents(rest, 'a')).toHaveLength(m);
  });

  it('the map: every matching listing of a search', async () => {
    const filters = { city: 'cuenca' };
    const total = await getListingsCount(rest, filters);
    expect(total).toBeGreaterThan(MAX_ROWS * 3);
    const { points } = await getMapPoints(rest, filters, total);
    expect(points).toHaveLength(total);
    expect(new Set(points.map((p) => p.id)).size).toBe(total);
  });

  it('the type list: every type', async () => {
    const [{ n } = { n: 0 }] = await server.sql<{ n: number }>(
      'select count(*)::int as n from public.listing_property_types',
    );
    expect(n).toBeGreaterThan(MAX_ROWS);
    expect(await getPropertyTypes(rest)).toHaveLength(n);
  });
});
