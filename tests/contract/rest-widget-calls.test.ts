/**
 * The widgets' own data calls against our data server, over PostgreSQL, compared with the answers
 * SQL gives for the same conditions (tests/support/independent-sql.ts, search-scenarios.ts): the
 * count (call 1), the pages in every sort order (call 2), a saved search's matches and the map's
 * clusters for every search scenario; pages with words near and far; a listing's columns; no
 * inactive or foreign listing; the property types (call 3) and the agents (call 4), searched
 * literally; private columns and inquiries kept from the public key.
 */
import type { PostgrestClient } from '@supabase/postgrest-js';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAgents } from '../../widgets/lib/data/agents.ts';
import {
  getListing,
  getListingsCount,
  getListingsPage,
  getMapClusters,
  getPropertyTypes,
  PAGE_SIZE,
  type MapView,
  type SortKey,
} from '../../widgets/lib/data/listings.ts';
import { filterArgs } from '../../core/protocol/filters.ts';
import { FOR_SALE, POOL, PUBLIC, WORDS_TEXT } from '../support/independent-sql.ts';
import { sqlCount, startDataApi } from '../support/rest-clients.ts';
import { SCENARIOS } from '../support/search-scenarios.ts';
import type { TestServer } from '../support/servers.ts';

const ORDER: Record<SortKey, string> = {
  featured: 'created_at desc, id desc',
  newest: 'created_at desc, id desc',
  price_asc: 'price asc nulls last, id asc',
  price_desc: 'price desc nulls last, id desc',
  // without words the best match is the newest
  relevance: 'created_at desc, id desc',
};

for (const kind of ['postgres'] as const) {
  describe(`data server over ${kind}: the widgets' calls`, () => {
    let server: TestServer, rest: PostgrestClient, sb: SupabaseClient;
    const expectedIds = async (where: string, order: string, limit: number, offset = 0) =>
      (
        await server.sql<{ id: number }>(
          `select id from internal.listings where ${PUBLIC} and (${where}) order by ${order} limit ${limit} offset ${offset}`,
        )
      ).map((r) => Number(r.id));
    const expectedCount = (where: string) => sqlCount(server, where);
    beforeAll(async () => ({ server, rest, sb } = await startDataApi(kind)));
    afterAll(() => server?.close());

    it('has the seed: at least 1,500 active EC listings in at least 12 places, 40 EC agents', async () => {
      expect(await expectedCount('true')).toBeGreaterThanOrEqual(1500);
      const places = await server.sql<{ n: number }>(
        "select count(distinct city) as n from internal.listings where country_code = 'EC' and status = '1'",
      );
      expect(Number(places[0]?.n)).toBeGreaterThanOrEqual(12);
      const agents = await server.sql<{ n: number }>(
        "select count(*) as n from public.agents where country_code = 'EC'",
      );
      expect(Number(agents[0]?.n)).toBeGreaterThanOrEqual(40);
    });

    describe.each(SCENARIOS)('calls 1 and 2 with $name', ({ filters, where }) => {
      it('count (call 1) equals the SQL count', async () => {
        expect(await getListingsCount(rest, filters)).toBe(await expectedCount(where));
      });
      it('pages (call 2) hold the SQL rows in every sort order, first and last page', async () => {
        const total = await expectedCount(where);
        const last = Math.max(1, Math.ceil(total / PAGE_SIZE));
        for (const sort of ['newest', 'price_asc', 'price_desc'] as const) {
          const first = await getListingsPage(rest, filters, sort, 1);
          expect(
            first.map((r) => Number(r.id)),
            `${sort} page 1`,
          ).toEqual(await expectedIds(where, ORDER[sort], PAGE_SIZE));
        }
        const end = await getListingsPage(rest, filters, 'price_desc', last);
        expect(end.map((r) => Number(r.id))).toEqual(
          await expectedIds(where, ORDER.price_desc, PAGE_SIZE, (last - 1) * PAGE_SIZE),
        );
        expect(end.length).toBe(total === 0 ? 0 : total - (last - 1) * PAGE_SIZE);
      });
      it('a saved search with these filters (internal.listing_matches, what the alerts read) matches the same listings', async () => {
        const matched = await server.sql<{ id: number }>(
          'select id from internal.listings l where internal.listing_matches(l, $1::jsonb) order by id',
          [JSON.stringify(filterArgs(filters))],
        );
        const total = await expectedCount(where);
        expect(matched.map((r) => Number(r.id))).toEqual(await expectedIds(where, 'id', Math.max(1, total)));
        expect(matched.length).toBe(await getListingsCount(rest, filters));
      });
      it("the map's clusters (public.listing_clusters through .rpc()) count every match once", async () => {
        const world: MapView = { zoom: 2, bbox: [-180, -85, 180, 85] };
        const cells = await getMapClusters(rest, filters, world);
        expect(cells.reduce((n, c) => n + c.count, 0)).toBe(await expectedCount(where));
        // a city's view at street level: only what lies in it, each listing alone or in its cell
        const quito: MapView = { zoom: 15, bbox: [-78.52, -0.22, -78.45, -0.15] };
        const near = await getMapClusters(rest, filters, quito);
        // whole 64 px cells: every cell the view touches, with all its listings (docs/decisions.md #20)
        const grid = 2 ** (15 + 2);
        const mx = (lng: number) => Math.floor(((lng + 180) / 360) * grid);
        const my = (lat: number) =>
          Math.floor(
            ((1 - Math.log(Math.tan((lat * Math.PI) / 180) + 1 / Math.cos((lat * Math.PI) / 180)) / Math.PI) / 2) *
              grid,
          );
        const inView = `floor(map_x * ${grid}) between ${mx(-78.52)} and ${mx(-78.45)} and floor(map_y * ${grid}) between ${my(-0.15)} and ${my(-0.22)}`;
        expect(near.reduce((n, c) => n + c.count, 0)).toBe(await expectedCount(`(${where}) and ${inView}`));
        const singles = near.filter((c) => c.count === 1).map((c) => c.id);
        if (singles.length) {
          const rows = await server.sql<{ id: number; price: string | null; map_lat: number }>(
            `select id, price, map_lat from internal.listings where id = any($1::bigint[])`,
            [singles],
          );
          const byId = new Map(rows.map((r) => [Number(r.id), r]));
          for (const cell of near.filter((c) => c.count === 1)) {
            const row = byId.get(cell.id as number);
            expect(row, `listing ${cell.id}`).toBeDefined();
            expect(cell.price_from).toBe(row?.price === null ? null : Number(row?.price));
            expect(cell.lat).toBeCloseTo(Number(row?.map_lat), 9);
          }
        }
      });
    });

    // pages near and far: the first are found in a window of the newest (or cheapest) listings, the
    // far ones in larger windows or among every match (migration 20261129000000_word_search_speed.sql)
    it('pages with words are the SQL rows near and far, in every order; Best match puts the words in the title or features first, newest first within each', async () => {
      // words in some titles and in more descriptions (no feature is called so), one with a word excluded
      const said = (text: string, word: string) => `${text} ~ '\\m${word}\\M'`;
      const TITLE = 'public.search_fold(title)';
      for (const [keywords, where, inTitle] of [
        ['terraza', `${FOR_SALE} and ${said(WORDS_TEXT, 'terrazas?')}`, said(TITLE, 'terrazas?')],
        [
          'jardin -piscina',
          `${FOR_SALE} and ${said(WORDS_TEXT, 'jardin(es)?')} and not ${POOL}`,
          said(TITLE, 'jardin(es)?'),
        ],
      ] as const) {
        const total = await expectedCount(where);
        const last = Math.max(1, Math.ceil(total / PAGE_SIZE));
        const order: Record<SortKey, string> = { ...ORDER, relevance: `(${inTitle}) desc, created_at desc, id desc` };
        for (const sort of ['relevance', 'newest', 'price_asc', 'price_desc'] as const) {
          for (const page of new Set([1, 2, Math.ceil(last / 2), last])) {
            const rows = await getListingsPage(rest, { keywords }, sort, page);
            expect(
              rows.map((r) => Number(r.id)),
              `${keywords}, ${sort}, page ${page}`,
            ).toEqual(await expectedIds(`${where}`, order[sort], PAGE_SIZE, (page - 1) * PAGE_SIZE));
          }
        }
        // both ranks are there, and the title's come first
        const first = await expectedCount(`${where} and ${inTitle}`);
        expect(first, keywords).toBeGreaterThan(PAGE_SIZE);
        expect(total - first, keywords).toBeGreaterThan(PAGE_SIZE);
      }
    });

    it('refuses a broken call with 400 and a clear message: a sort, a page, filters that are no object, an area that is no polygon', async () => {
      const call = (name: string, body: unknown) =>
        fetch(`${server.url}/rest/v1/rpc/${name}`, {
          method: 'POST',
          headers: { apikey: 'local-anon-key', 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      for (const [name, body, message] of [
        ['search_listings', { sort: 'cheapest' }, /sort must be/],
        ['search_listings', { page_size: 5000 }, /page_size must be/],
        ['search_listings_count', { filters: [] }, /filters must be a JSON object/],
        [
          'search_listings_count',
          {
            filters: {
              polygon: [
                [0, 0],
                [1, 1],
              ],
            },
          },
          /polygon must be/,
        ],
        [
          'search_listings_count',
          {
            filters: {
              polygon: [
                [0, 0],
                [1, 'x'],
                [1, 1],
              ],
            },
          },
          /polygon must be/,
        ],
        ['search_listings_count', { filters: { polygon: 'POLYGON((0 0, 1 1, 1 0))' } }, /polygon must be/],
      ] as const) {
        const res = await call(name, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(((await res.json()) as { message: string }).message).toMatch(message);
      }
    });

    it('returns every column of a listing, with the images as stored', async () => {
      const [row] = await getListingsPage(rest, {}, 'newest', 1);
      for (const column of [
        'id',
        'title',
        'address',
        'price',
        'bedrooms',
        'bathrooms',
        'square_feet',
        'property_type',
        'city',
        'state',
        'images',
        'geo_lat',
        'geo_lon',
        'description',
        'created_at',
        'status',
        'country_code',
        'agent_id',
        'agent_first_name',
        'agent_last_name',
        'agent_email',
        'agent_phone',
        'agent_picture',
      ]) {
        expect(row).toHaveProperty(column);
      }
      const one = await getListing(rest, Number(row?.id));
      expect(one?.id).toBe(row?.id);
      expect(await getListing(rest, 999999999)).toBeNull();
    });

    it('never shows inactive or foreign listings through the widget calls', async () => {
      const hidden = await server.sql<{ id: number }>("select id from internal.listings where status <> '1' limit 3");
      expect(hidden.length).toBeGreaterThan(0);
      for (const { id } of hidden) expect(await getListing(rest, id)).toBeNull();
      const { data } = await sb.from('listings').select('id').eq('status', '0');
      expect(data).toEqual([]);
      const foreign = await server.sql<{ id: number }>(
        "select id from internal.listings where country_code <> 'EC' limit 1",
      );
      expect(await getListing(rest, Number(foreign[0]?.id))).toBeNull();
    });

    it('call 3: the distinct property types of active EC listings', async () => {
      const expected = (
        await server.sql<{ t: string }>(
          "select distinct property_type as t from public.listings where country_code = 'EC' and status = '1' and property_type is not null order by 1",
        )
      ).map((r) => r.t);
      expect(await getPropertyTypes(rest)).toEqual([...expected].sort((a, b) => a.localeCompare(b)));
      expect(expected).toEqual(
        expect.arrayContaining(['house', 'apartment', 'land', 'office', 'business_premises', 'commercial_building']),
      );
    });

    it('call 4: agents, whole and searched literally in any case and with or without accents', async () => {
      const all = await getAgents(rest);
      const ec = await server.sql<{ id: number }>("select id from public.agents where country_code = 'EC' order by id");
      expect(all.map((a) => Number(a.id))).toEqual(ec.map((r) => Number(r.id)));
      for (const text of [
        'andres',
        'ANDRÉS',
        'mendoza',
        'villacis',
        'expecuador',
        'maría fernanda',
        'Ana, (Q).%_"\\',
        "o'brien",
        '%',
        '_',
        '\\',
        '")',
        'a.b',
        ' ana ',
        '*',
        'an*',
        '.*',
        '^a',
        'a$',
        '[a]',
        'a|b',
        '(',
        '+',
      ]) {
        const found = (await getAgents(rest, text)).map((a) => Number(a.id));
        const expected = await server.sql<{ id: number }>(
          `select id from public.agents where country_code = 'EC' and (position(public.search_fold($1) in public.search_fold(first_name)) > 0 or position(public.search_fold($1) in public.search_fold(last_name)) > 0 or position(public.search_fold($1) in public.search_fold(email)) > 0) order by id`,
          [text.trim()],
        );
        expect(found, text).toEqual(expected.map((r) => Number(r.id)));
      }
    });

    it('keeps private agent columns and inquiries away from the public key', async () => {
      const notes = await sb.from('agents').select('id,private_notes').limit(1);
      expect(notes.error?.code).toBe('42501');
      expect(notes.status).toBe(401);
      const inquiries = await sb.from('inquiries').select('*');
      expect(inquiries.error?.code).toBe('42501');
    });
  });
}
