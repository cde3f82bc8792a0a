/**
 * Contract of the local data server: the real @supabase/supabase-js and @supabase/postgrest-js
 * clients (and the widgets' own data calls) against it, over PostgreSQL,
 * compared with the answers SQL gives for the same conditions.
 */
import { PostgrestClient } from '@supabase/postgrest-js';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { get as httpGet } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
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
import { SCENARIOS } from '../support/search-scenarios.ts';
import { startTestServer, type TestServer } from '../support/servers.ts';

const ORDER: Record<SortKey, string> = {
  featured: 'created_at desc, id desc',
  newest: 'created_at desc, id desc',
  price_asc: 'price asc nulls last, id asc',
  price_desc: 'price desc nulls last, id desc',
  // without words the best match is the newest
  relevance: 'created_at desc, id desc',
};

function supabase(url: string): SupabaseClient {
  return createClient(url, 'local-anon-key', {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as never },
  });
}

for (const kind of ['postgres'] as const) {
  describe(`data server over ${kind}`, () => {
    let server: TestServer;
    let rest: PostgrestClient;
    let sb: SupabaseClient;
    const expectedIds = async (where: string, order: string, limit: number, offset = 0) =>
      (
        await server.sql<{ id: number }>(`select id from internal.listings where ${PUBLIC} and (${where}) order by ${order} limit ${limit} offset ${offset}`)
      ).map((r) => Number(r.id));
    const expectedCount = async (where: string) =>
      Number((await server.sql<{ n: number }>(`select count(*) as n from internal.listings where ${PUBLIC} and (${where})`))[0]?.n);

    beforeAll(async () => {
      server = await startTestServer(kind);
      rest = new PostgrestClient(`${server.url}/rest/v1`, { headers: { apikey: 'local-anon-key' } });
      sb = supabase(server.url);
    });
    afterAll(async () => {
      await server?.close();
    });

    it('has the seed: at least 1,500 active EC listings in at least 12 places, 40 EC agents', async () => {
      expect(await expectedCount('true')).toBeGreaterThanOrEqual(1500);
      const places = await server.sql<{ n: number }>("select count(distinct city) as n from internal.listings where country_code = 'EC' and status = '1'");
      expect(Number(places[0]?.n)).toBeGreaterThanOrEqual(12);
      const agents = await server.sql<{ n: number }>("select count(*) as n from public.agents where country_code = 'EC'");
      expect(Number(agents[0]?.n)).toBeGreaterThanOrEqual(40);
    });

    it('answers compressed by Accept-Encoding (brotli, else gzip, else plain), the same rows once decompressed', async () => {
      const path = '/rest/v1/listings?select=*&country_code=eq.EC&status=eq.1&order=created_at.desc,id.desc&limit=24';
      const raw = (accept: string) =>
        new Promise<{ status: number; encoding: string | undefined; vary: string | undefined; range: string | undefined; body: Buffer }>((resolve, reject) => {
          httpGet(`${server.url}${path}`, { headers: { apikey: 'local-anon-key', 'Accept-Encoding': accept, Prefer: 'count=exact' } }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () =>
              resolve({
                status: res.statusCode ?? 0,
                encoding: res.headers['content-encoding'],
                vary: res.headers.vary,
                range: res.headers['content-range'],
                body: Buffer.concat(chunks),
              }),
            );
          }).on('error', reject);
        });
      const plain = await raw('identity');
      expect(plain.encoding).toBeUndefined();
      expect(plain.vary).toContain('Accept-Encoding');
      expect(JSON.parse(plain.body.toString())).toHaveLength(24);
      const br = await raw('gzip, deflate, br');
      expect([br.status, br.encoding, br.range]).toEqual([plain.status, 'br', plain.range]);
      expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
      expect(br.body.length).toBeLessThan(plain.body.length / 4);
      const gz = await raw('gzip');
      expect(gz.encoding).toBe('gzip');
      expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
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
        expect(end.map((r) => Number(r.id))).toEqual(await expectedIds(where, ORDER.price_desc, PAGE_SIZE, (last - 1) * PAGE_SIZE));
        expect(end.length).toBe(total === 0 ? 0 : total - (last - 1) * PAGE_SIZE);
      });
      it('a saved search with these filters (internal.listing_matches, what the alerts read) matches the same listings', async () => {
        const matched = await server.sql<{ id: number }>('select id from internal.listings l where internal.listing_matches(l, $1::jsonb) order by id', [
          JSON.stringify(filterArgs(filters)),
        ]);
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
        const my = (lat: number) => Math.floor(((1 - Math.log(Math.tan((lat * Math.PI) / 180) + 1 / Math.cos((lat * Math.PI) / 180)) / Math.PI) / 2) * grid);
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
        ['jardin -piscina', `${FOR_SALE} and ${said(WORDS_TEXT, 'jardin(es)?')} and not ${POOL}`, said(TITLE, 'jardin(es)?')],
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
      const foreign = await server.sql<{ id: number }>("select id from internal.listings where country_code <> 'EC' limit 1");
      expect(await getListing(rest, Number(foreign[0]?.id))).toBeNull();
    });

    it('call 3: the distinct property types of active EC listings', async () => {
      const expected = (
        await server.sql<{ t: string }>(
          "select distinct property_type as t from public.listings where country_code = 'EC' and status = '1' and property_type is not null order by 1",
        )
      ).map((r) => r.t);
      expect(await getPropertyTypes(rest)).toEqual([...expected].sort((a, b) => a.localeCompare(b)));
      expect(expected).toEqual(expect.arrayContaining(['house', 'apartment', 'land', 'office', 'business_premises', 'commercial_building']));
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

    describe('count semantics', () => {
      it('head + count answers the exact count with Content-Range', async () => {
        const total = await expectedCount('true');
        const { count, status } = await sb.from('listings').select('*', { count: 'exact', head: true }).eq('country_code', 'EC').eq('status', '1');
        expect(count).toBe(total);
        expect(status).toBe(206);
        const res = await fetch(`${server.url}/rest/v1/listings?select=id&country_code=eq.EC&limit=24`, { method: 'HEAD', headers: { Prefer: 'count=exact' } });
        expect(res.status).toBe(206);
        expect(res.headers.get('content-range')).toBe(`0-23/${total}`);
      });

      it('answers 200 with */0 when nothing matches, and */* without a count', async () => {
        const res = await fetch(`${server.url}/rest/v1/listings?select=id&city=eq.Nowhere`, { headers: { Prefer: 'count=exact' } });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-range')).toBe('*/0');
        expect(await res.json()).toEqual([]);
        const plain = await fetch(`${server.url}/rest/v1/listings?select=id&city=eq.Nowhere`);
        expect(plain.headers.get('content-range')).toBe('*/*');
      });

      it('answers 200 when the page holds everything, 206 for a part, 416 past the end', async () => {
        const few = await fetch(`${server.url}/rest/v1/listings?select=id&id=in.(1,2,3)`, { headers: { Prefer: 'count=exact' } });
        expect(few.status).toBe(200);
        expect(few.headers.get('content-range')).toBe('0-2/3');
        const mid = await fetch(`${server.url}/rest/v1/listings?select=id&order=id&offset=24&limit=24`, { headers: { Prefer: 'count=exact' } });
        const total = Number(mid.headers.get('content-range')?.split('/')[1]);
        expect(mid.status).toBe(206);
        expect(mid.headers.get('content-range')).toBe(`24-47/${total}`);
        const atEnd = await fetch(`${server.url}/rest/v1/listings?select=id&offset=${total}`, { headers: { Prefer: 'count=exact' } });
        expect(atEnd.status).toBe(206);
        expect(atEnd.headers.get('content-range')).toBe(`*/${total}`);
        const past = await fetch(`${server.url}/rest/v1/listings?select=id&offset=${total + 10}`, { headers: { Prefer: 'count=exact' } });
        expect(past.status).toBe(416);
        expect(await past.json()).toMatchObject({ code: 'PGRST103', message: 'Requested range not satisfiable' });
        const { error } = await sb
          .from('listings')
          .select('id', { count: 'exact' })
          .range(total + 10, total + 20);
        expect(error?.code).toBe('PGRST103');
      });

      it('honours the Range header and limit=0', async () => {
        const res = await fetch(`${server.url}/rest/v1/listings?select=id&order=id`, { headers: { Range: '5-9', 'Range-Unit': 'items' } });
        const expected = await server.sql<{ id: number }>("select id from public.listings where status = '1' order by id limit 5 offset 5");
        expect((await res.json()).map((r: { id: number }) => r.id)).toEqual(expected.map((r) => Number(r.id)));
        expect(res.headers.get('content-range')).toBe('5-9/*');
        const zero = await fetch(`${server.url}/rest/v1/listings?select=id&limit=0`, { headers: { Prefer: 'count=exact' } });
        expect(await zero.json()).toEqual([]);
        expect(zero.headers.get('content-range')).toMatch(/^\*\/\d+$/);
      });

      it('never answers more than 1,000 rows', async () => {
        const res = await fetch(`${server.url}/rest/v1/listings?select=id`);
        expect((await res.json()).length).toBe(1000);
        expect(res.headers.get('content-range')).toBe('0-999/*');
      });
    });

    it('orders by several keys with nullsfirst / nullslast', async () => {
      const { data } = await sb
        .from('listings')
        .select('id,price,bedrooms')
        .eq('country_code', 'EC')
        .order('bedrooms', { ascending: false, nullsFirst: true })
        .order('price', { ascending: true, nullsFirst: false })
        .order('id')
        .limit(50);
      const expected = await server.sql<{ id: number }>(
        "select id from public.listings where country_code = 'EC' and status = '1' order by bedrooms desc nulls first, price asc nulls last, id limit 50",
      );
      expect(data?.map((r) => r.id)).toEqual(expected.map((r) => Number(r.id)));
      const nullsFirst = await sb.from('listings').select('id,price').eq('country_code', 'EC').order('price', { ascending: true, nullsFirst: true }).limit(1);
      expect(nullsFirst.data?.[0]?.price).toBeNull();
    });

    it('supports the PostgREST filters with their not. forms, in, is, like and or/and trees', async () => {
      const check = async (query: string, where: string) => {
        const res = await fetch(`${server.url}/rest/v1/listings?select=id&order=id&${query}`);
        expect(res.status, query).toBe(200);
        const ids = (await res.json()).map((r: { id: number }) => r.id);
        const expected = await server.sql<{ id: number }>(`select id from public.listings where status = '1' and (${where}) order by id limit 1000`);
        expect(ids, query).toEqual(expected.map((r) => Number(r.id)));
      };
      await check('bedrooms=eq.3&city=eq.Cuenca', "bedrooms = 3 and city = 'Cuenca'");
      await check('bedrooms=neq.3&city=eq.Loja', "bedrooms <> 3 and city = 'Loja'");
      await check('price=gt.500000&price=lt.600000', 'price > 500000 and price < 600000');
      await check('bathrooms=lte.1&city=eq.Manta', "bathrooms <= 1 and city = 'Manta'");
      await check('title=like.*Quinta*', "title like '%Quinta%'");
      await check('title=ilike.*QUINTA*', "title ilike '%quinta%'");
      await check('title=not.ilike.*a*', "not title ilike '%a%'");
      await check('geo_lat=is.null', 'geo_lat is null');
      await check('geo_lat=not.is.null&city=eq.Olón', "geo_lat is not null and city = 'Olón'");
      await check('id=in.(5,10,15)', 'id in (5, 10, 15)');
      await check('id=not.in.(5,10,15)&id=lt.20', 'id not in (5, 10, 15) and id < 20');
      await check('city=in.("Bahía de Caráquez",Olón)', "city in ('Bahía de Caráquez', 'Olón')");
      await check('or=(city.eq.Loja,city.eq."Bahía de Caráquez")', "city = 'Loja' or city = 'Bahía de Caráquez'");
      await check('or=(bedrooms.gte.6,and(city.eq.Olón,price.lt.100000))', "bedrooms >= 6 or (city = 'Olón' and price < 100000)");
      await check('not.or=(city.eq.Quito,city.eq.Guayaquil)&id=lt.50', "not (city = 'Quito' or city = 'Guayaquil') and id < 50");
      await check('and=(bedrooms.eq.2,bathrooms.eq.2)&city=eq.Ibarra', "bedrooms = 2 and bathrooms = 2 and city = 'Ibarra'");
      await check('address=ilike.*"Av. 6 de Diciembre*', 'false');
      await check('or=(address.ilike."*Av. 6 de Diciembre, Iñaquito*",id.eq.1)', "address ilike '%Av. 6 de Diciembre, Iñaquito%' or id = 1");
    });

    describe('errors in PostgREST shape', () => {
      const get = async (path: string, headers: Record<string, string> = {}) => {
        const res = await fetch(`${server.url}/rest/v1/${path}`, { headers });
        const body = await res.json();
        expect(Object.keys(body).sort(), path).toEqual(['code', 'details', 'hint', 'message']);
        expect(JSON.stringify(body)).not.toMatch(/select |from public|\bat \w+ \(/i);
        return { status: res.status, body };
      };
      it('PGRST100 for a filter it cannot parse', async () => {
        expect(await get('listings?price=around.100')).toMatchObject({ status: 400, body: { code: 'PGRST100' } });
        expect(await get('listings?or=(price.eq.1')).toMatchObject({ status: 400, body: { code: 'PGRST100' } });
        expect(await get('listings?order=price.sideways')).toMatchObject({ status: 400, body: { code: 'PGRST100' } });
        expect(await get('listings?limit=-1')).toMatchObject({ status: 400, body: { code: 'PGRST100' } });
        expect(await get('listings?geo_lat=is.maybe')).toMatchObject({ status: 400, body: { code: 'PGRST100' } });
      });
      it('42703 for an unknown column, PGRST205 for an unknown table', async () => {
        expect(await get('listings?select=id,nope')).toMatchObject({ status: 400, body: { code: '42703', message: 'column listings.nope does not exist' } });
        expect(await get('listings?nope=eq.1')).toMatchObject({ status: 400, body: { code: '42703' } });
        expect(await get('listing')).toMatchObject({ status: 404, body: { code: 'PGRST205', hint: "Perhaps you meant the table 'public.listings'" } });
      });
      it('PGRST116 when a single object is asked for and there is none or several', async () => {
        const none = await sb.from('listings').select('id').eq('id', -1).single();
        expect(none.error?.code).toBe('PGRST116');
        expect(none.status).toBe(406);
        const many = await get('listings?select=id&limit=2', { Accept: 'application/vnd.pgrst.object+json' });
        expect(many).toMatchObject({ status: 406, body: { code: 'PGRST116', details: 'The result contains 2 rows' } });
        const one = await sb.from('listings').select('id,title').eq('id', 1).single();
        expect(one.data).toMatchObject({ id: 1 });
      });
      it('a value of the wrong type is a 400, never a 500', async () => {
        expect((await get('listings?price=gte.lots')).status).toBe(400);
        expect((await get('listings?created_at=gt.not-a-date')).status).toBe(400);
      });
      it('405 for writes: the API is read-only', async () => {
        for (const method of ['POST', 'PATCH', 'PUT', 'DELETE']) {
          const res = await fetch(`${server.url}/rest/v1/listings?id=eq.1`, { method, headers: { 'Content-Type': 'application/json' }, body: '{"price":1}' });
          expect(res.status, method).toBe(405);
          expect((await res.json()).code).toBe('PGRST117');
        }
        const { error } = await sb.from('listings').update({ price: 1 }).eq('id', 1);
        expect(error?.code).toBe('PGRST117');
        expect(Number((await server.sql<{ price: string }>('select price from internal.listings where id = 1'))[0]?.price)).not.toBe(1);
      });
    });

    describe('functions (/rpc/) as PostgREST calls them', () => {
      // scalar helpers of the schema, private since the migrations publish only the data API's six
      // (docs/deployment.md): published here, to show /rpc/ calling a function the key may execute
      const HELPERS = 'public.search_fold(text), public.parse_coordinate(text, double precision)';
      beforeAll(async () => {
        await server.sql(`grant execute on function ${HELPERS} to anon`);
      });
      afterAll(async () => {
        await server.sql(`revoke execute on function ${HELPERS} from anon`);
      });
      const call = async (path: string, init: RequestInit = {}) => {
        const res = await fetch(`${server.url}/rest/v1/rpc/${path}`, init);
        return { status: res.status, body: await res.json(), headers: res.headers };
      };
      it('calls a scalar function by POST (JSON) and GET (query string), with the real clients', async () => {
        expect((await sb.rpc('search_fold', { value: 'Cumbayá' })).data).toBe('cumbaya');
        expect((await rest.rpc('search_fold', { value: 'ÑANDÚ' }, { get: true })).data).toBe('nandu');
        expect((await rest.rpc('parse_coordinate', { value: '-0,18', max_abs: 90 })).data).toBe(-0.18);
        expect(await call('parse_coordinate?value=1e2&max_abs=90')).toMatchObject({ status: 200, body: null });
        expect(
          await call('search_fold', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'value=%C3%81' }),
        ).toMatchObject({ status: 200, body: 'a' });
      });
      it('leaves out parameters with defaults, and reads a function returning rows like a view', async () => {
        const all = await sb.rpc('listing_clusters', { zoom: 3 });
        expect(all.error).toBeNull();
        const total = await expectedCount(FOR_SALE);
        expect((all.data as Array<{ count: number }>).reduce((n, c) => n + Number(c.count), 0)).toBe(total);
        const big = await sb
          .rpc('listing_clusters', { zoom: 8 }, { count: 'exact' })
          .select('count,lat,lng')
          .gte('count', 50)
          .order('count', { ascending: false })
          .limit(3);
        expect(big.error).toBeNull();
        const rows = big.data as Array<Record<string, number>>;
        expect(rows.length).toBeGreaterThan(0);
        expect(Object.keys(rows[0] ?? {}).sort()).toEqual(['count', 'lat', 'lng']);
        expect(rows.map((r) => Number(r.count))).toEqual([...rows.map((r) => Number(r.count))].sort((x, y) => y - x));
        expect(rows.every((r) => Number(r.count) >= 50)).toBe(true);
        expect(big.count).toBeGreaterThanOrEqual(rows.length);
      });
      it('PGRST202 for an unknown function or unknown arguments, with the hint PostgREST gives', async () => {
        expect(await call('listing_cluster', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"zoom":1}' })).toMatchObject({
          status: 404,
          body: {
            code: 'PGRST202',
            message: 'Could not find the function public.listing_cluster(zoom) in the schema cache',
            hint: 'Perhaps you meant to call the function public.listing_clusters',
          },
        });
        const wrong = await sb.rpc('search_fold', { text: 'x' });
        expect(wrong.error).toMatchObject({
          code: 'PGRST202',
          details: 'Searched for the function public.search_fold with parameter text, but no matches were found in the schema cache.',
        });
        // a required parameter left out
        expect((await call('listing_clusters?view_west=1')).body.code).toBe('PGRST202');
        expect((await call('search_fold')).body).toMatchObject({
          code: 'PGRST202',
          message: 'Could not find the function public.search_fold without parameters in the schema cache',
        });
      });
      it('answers bad arguments and bodies with 400 in PostgREST shape, never SQL', async () => {
        const bad = await call('listing_clusters?zoom=ten');
        expect(bad).toMatchObject({ status: 400, body: { code: '22P02' } });
        expect(JSON.stringify(bad.body)).not.toMatch(/json_to_record|_pgrst|select /i);
        expect(await call('search_fold', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"value":' })).toMatchObject({
          status: 400,
          body: { code: 'PGRST102' },
        });
        expect(await call('search_fold', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '["x"]' })).toMatchObject({
          status: 400,
          body: { code: 'PGRST102' },
        });
        expect(await call('search_fold?value=x&value=y')).toMatchObject({ status: 400, body: { code: 'PGRST100' } });
        expect(await call('search_fold?value=x&select=a')).toMatchObject({ status: 400, body: { code: 'PGRST100' } });
        // a value that looks like SQL is only ever a value
        expect((await sb.rpc('search_fold', { value: "x'); drop table internal.listings; --" })).data).toBe("x'); drop table internal.listings; --");
        expect((await call('listing_clusters', { method: 'DELETE' })).status).toBe(405);
      });
      it('keeps functions that are not granted to the public key closed', async () => {
        expect(await call('search_fold?value=x')).toMatchObject({ status: 200, body: 'x' });
        // a function of the schema the migrations keep private: closed, as on a hosted project
        expect(await call('position_jitter?seed=1')).toMatchObject({ status: 401, body: { code: '42501' } });
        await server.sql('revoke execute on function public.search_fold(text) from public, anon');
        try {
          expect(await call('search_fold?value=x')).toMatchObject({ status: 401, body: { code: '42501' } });
        } finally {
          await server.sql('grant execute on function public.search_fold(text) to anon');
        }
      });
    });

    it('answers CORS preflights as Supabase does and exposes Content-Range', async () => {
      const pre = await fetch(`${server.url}/rest/v1/listings`, {
        method: 'OPTIONS',
        headers: {
          Origin: 'https://partner.example',
          'Access-Control-Request-Method': 'GET',
          'Access-Control-Request-Headers': 'apikey, authorization, x-client-info, accept-profile, prefer, content-type',
        },
      });
      expect(pre.status).toBeLessThan(300);
      expect(pre.headers.get('access-control-allow-origin')).toBe('*');
      const allowed = (pre.headers.get('access-control-allow-headers') ?? '').toLowerCase();
      for (const h of ['apikey', 'authorization', 'x-client-info', 'accept-profile', 'prefer', 'content-type']) expect(allowed).toContain(h);
      const res = await fetch(`${server.url}/rest/v1/listings?select=id&limit=1`, { headers: { Origin: 'https://partner.example' } });
      expect(res.headers.get('access-control-expose-headers')).toContain('Content-Range');
    });
  });
}
