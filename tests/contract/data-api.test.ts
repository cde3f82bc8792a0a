/**
 * docs/data-api.md, held to the code both ways: every request our data functions and the pages'
 * data send has a row in its table (recorded as they are sent, through the real postgrest-js), and
 * our /rest/v1 answers each row as the row says PostgREST answers it.
 */
import { PostgrestClient } from '@supabase/postgrest-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSiteData } from '../../server/pages/site-data.ts';
import { getAgent, getAgents, getAreaAgents } from '../../widgets/lib/data/agents.ts';
import {
  getListingMarket,
  getMarketFigures,
  getPriceHistory,
  getSimilarListings,
} from '../../widgets/lib/data/listing-extras.ts';
import {
  getListing,
  getListingsByIds,
  getListingsCount,
  getListingsPage,
  getMapClusters,
  getMapPoints,
  getPropertyTypes,
} from '../../widgets/lib/data/listings.ts';
import { getPlaceSuggestions } from '../../widgets/lib/data/places.ts';
import { checkRow, readRows, shapeOf, SLEEP_FUNCTION, type Row, type Sent } from '../support/data-api-doc.ts';
import { startTestServer, type TestServer } from '../support/servers.ts';

const KEY = 'local-anon-key';

describe('docs/data-api.md: the request shapes we send, answered as PostgREST answers them', () => {
  let server: TestServer;
  let rows: Row[];
  const sent: Sent[] = [];

  beforeAll(async () => {
    server = await startTestServer('postgres');
    await server.sql(SLEEP_FUNCTION);
    const [listing, listing2] = await server.sql<{ id: string }>(
      "select id::text as id from public.listings where country_code = 'EC' and status = '1' and city = 'Quito' order by id limit 2",
    );
    const [agent] = await server.sql<{ id: string }>(
      "select min(id)::text as id from public.agents where country_code = 'EC'",
    );
    const [project] = await server.sql<{ id: string }>(
      "select id::text as id from internal.projects where slug = 'altos-de-la-carolina'",
    );
    const types = (
      await server.sql<{ id: string }>(
        'select id::text as id from internal.project_unit_types where project_id = $1 order by position',
        [project?.id],
      )
    )
      .map((t) => t.id)
      .join(',');
    rows = readRows({
      listing: String(listing?.id),
      listing2: String(listing2?.id),
      agent: String(agent?.id),
      project: String(project?.id),
      types,
    });

    // every data call, through a fetch that notes what it sends and sends it
    const real = globalThis.fetch;
    globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.pathname.startsWith('/rest/v1'))
        sent.push({
          method: init?.method ?? 'GET',
          url,
          headers: new Headers(init?.headers),
          body: typeof init?.body === 'string' ? init.body : undefined,
        });
      return real(input, init);
    }) as typeof fetch;
    try {
      const rest = new PostgrestClient(`${server.url}/rest/v1`, { headers: { apikey: KEY } });
      const id = String(listing?.id);
      const total = await getListingsCount(rest, {});
      await getListingsPage(rest, {}, 'newest', 1);
      await getListingsPage(rest, { city: 'Quito', minPrice: 100000, keywords: 'piscina' }, 'price_asc', 2);
      await getMapPoints(rest, {}, total);
      await getMapClusters(rest, {}, { zoom: 7, bbox: [-81, -5, -75, 2] });
      await getPlaceSuggestions(rest, 'cumb');
      await getListing(rest, id);
      await getListingsByIds(rest, [id, String(listing2?.id)]);
      await getPropertyTypes(rest);
      await getPriceHistory(rest, id);
      await getMarketFigures(rest, 'quito', 'house', 2);
      await getListingMarket(rest, id);
      await getSimilarListings(rest, id, 4);
      await getAgents(rest, '');
      await getAgents(rest, 'ana');
      await getAgent(rest, String(agent?.id));
      await getAreaAgents(rest, 'cumbaya');
      const site = createSiteData({ url: server.url, key: KEY });
      await site.listing(id);
      await site.availability(id);
      await site.similar('Quito', id, 4);
      await site.similar(null, id, 4);
      await site.like(id, 4);
      await site.priceHistory(id);
      await site.agent(String(agent?.id));
      await site.listingsAfter(0, 5);
      await site.agentIds();
      await site.cities();
      await site.marketIndex('quito', 'all', 25);
      await site.listingMarket(id);
      await site.marketReport('quito');
      await site.marketRanking('ecuador', 'all', 'city');
      await site.projects();
      await site.project('altos-de-la-carolina');
      await site.nearby(-0.1837, -78.4823);
    } finally {
      globalThis.fetch = real;
    }
  }, 180_000);

  afterAll(async () => {
    await server?.close();
  });

  it('has a row for every request shape the elements and the pages send', () => {
    expect(rows.length).toBeGreaterThan(20);
    expect(sent.length).toBeGreaterThan(20);
    const documented = new Set(rows.map((r) => shapeOf(r.request)));
    const missing = [...new Set(sent.map(shapeOf))].filter((s) => !documented.has(s));
    expect(missing, 'request shapes sent with no row in docs/data-api.md').toEqual([]);
  });

  it('our /rest/v1 answers every row as the row says PostgREST answers it', async () => {
    const failures: string[] = [];
    for (const row of rows) {
      failures.push(...(await checkRow(server.url, row, KEY)));
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
