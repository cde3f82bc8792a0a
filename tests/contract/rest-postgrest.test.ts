/**
 * The data API as PostgREST answers (docs/data-api.md), through the real @supabase/supabase-js and
 * @supabase/postgrest-js clients against our data server, over PostgreSQL, compared with the
 * answers SQL gives for the same conditions: compression by Accept-Encoding, counts and ranges,
 * orders with nulls first or last, the filters with their not. forms and or/and trees, errors in
 * PostgREST's shape, functions called through /rpc/, and CORS as Supabase answers it.
 */
import type { PostgrestClient } from '@supabase/postgrest-js';
import type { SupabaseClient } from '@supabase/supabase-js';
import { get as httpGet } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FOR_SALE } from '../support/independent-sql.ts';
import { sqlCount, startDataApi } from '../support/rest-clients.ts';
import type { TestServer } from '../support/servers.ts';

for (const kind of ['postgres'] as const) {
  describe(`data server over ${kind}: PostgREST's semantics`, () => {
    let server: TestServer, rest: PostgrestClient, sb: SupabaseClient;
    const expectedCount = (where: string) => sqlCount(server, where);
    beforeAll(async () => ({ server, rest, sb } = await startDataApi(kind)));
    afterAll(() => server?.close());

    it('answers compressed by Accept-Encoding (brotli, else gzip, else plain), the same rows once decompressed', async () => {
      const path = '/rest/v1/listings?select=*&country_code=eq.EC&status=eq.1&order=created_at.desc,id.desc&limit=24';
      const raw = (accept: string) =>
        new Promise<{
          status: number;
          encoding: string | undefined;
          vary: string | undefined;
          range: string | undefined;
          body: Buffer;
        }>((resolve, reject) => {
          httpGet(
            `${server.url}${path}`,
            { headers: { apikey: 'local-anon-key', 'Accept-Encoding': accept, Prefer: 'count=exact' } },
            (res) => {
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
            },
          ).on('error', reject);
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

    describe('count semantics', () => {
      it('head + count answers the exact count with Content-Range', async () => {
        const total = await expectedCount('true');
        const { count, status } = await sb
          .from('listings')
          .select('*', { count: 'exact', head: true })
          .eq('country_code', 'EC')
          .eq('status', '1');
        expect(count).toBe(total);
        expect(status).toBe(206);
        const res = await fetch(`${server.url}/rest/v1/listings?select=id&country_code=eq.EC&limit=24`, {
          method: 'HEAD',
          headers: { Prefer: 'count=exact' },
        });
        expect(res.status).toBe(206);
        expect(res.headers.get('content-range')).toBe(`0-23/${total}`);
      });

      it('answers 200 with */0 when nothing matches, and */* without a count', async () => {
        const res = await fetch(`${server.url}/rest/v1/listings?select=id&city=eq.Nowhere`, {
          headers: { Prefer: 'count=exact' },
        });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-range')).toBe('*/0');
        expect(await res.json()).toEqual([]);
        const plain = await fetch(`${server.url}/rest/v1/listings?select=id&city=eq.Nowhere`);
        expect(plain.headers.get('content-range')).toBe('*/*');
      });

      it('answers 200 when the page holds everything, 206 for a part, 416 past the end', async () => {
        const few = await fetch(`${server.url}/rest/v1/listings?select=id&id=in.(1,2,3)`, {
          headers: { Prefer: 'count=exact' },
        });
        expect(few.status).toBe(200);
        expect(few.headers.get('content-range')).toBe('0-2/3');
        const mid = await fetch(`${server.url}/rest/v1/listings?select=id&order=id&offset=24&limit=24`, {
          headers: { Prefer: 'count=exact' },
        });
        const total = Number(mid.headers.get('content-range')?.split('/')[1]);
        expect(mid.status).toBe(206);
        expect(mid.headers.get('content-range')).toBe(`24-47/${total}`);
        const atEnd = await fetch(`${server.url}/rest/v1/listings?select=id&offset=${total}`, {
          headers: { Prefer: 'count=exact' },
        });
        expect(atEnd.status).toBe(206);
        expect(atEnd.headers.get('content-range')).toBe(`*/${total}`);
        const past = await fetch(`${server.url}/rest/v1/listings?select=id&offset=${total + 10}`, {
          headers: { Prefer: 'count=exact' },
        });
        expect(past.status).toBe(416);
        expect(await past.json()).toMatchObject({ code: 'PGRST103', message: 'Requested range not satisfiable' });
        const { error } = await sb
          .from('listings')
          .select('id', { count: 'exact' })
          .range(total + 10, total + 20);
        expect(error?.code).toBe('PGRST103');
      });

      it('honours the Range header and limit=0', async () => {
        const res = await fetch(`${server.url}/rest/v1/listings?select=id&order=id`, {
          headers: { Range: '5-9', 'Range-Unit': 'items' },
        });
        const expected = await server.sql<{ id: number }>(
          "select id from public.listings where status = '1' order by id limit 5 offset 5",
        );
        expect((await res.json()).map((r: { id: number }) => r.id)).toEqual(expected.map((r) => Number(r.id)));
        expect(res.headers.get('content-range')).toBe('5-9/*');
        const zero = await fetch(`${server.url}/rest/v1/listings?select=id&limit=0`, {
          headers: { Prefer: 'count=exact' },
        });
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
      const nullsFirst = await sb
        .from('listings')
        .select('id,price')
        .eq('country_code', 'EC')
        .order('price', { ascending: true, nullsFirst: true })
        .limit(1);
      expect(nullsFirst.data?.[0]?.price).toBeNull();
    });

    it('supports the PostgREST filters with their not. forms, in, is, like and or/and trees', async () => {
      const check = async (query: string, where: string) => {
        const res = await fetch(`${server.url}/rest/v1/listings?select=id&order=id&${query}`);
        expect(res.status, query).toBe(200);
        const ids = (await res.json()).map((r: { id: number }) => r.id);
        const expected = await server.sql<{ id: number }>(
          `select id from public.listings where status = '1' and (${where}) order by id limit 1000`,
        );
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
      await check(
        'or=(bedrooms.gte.6,and(city.eq.Olón,price.lt.100000))',
        "bedrooms >= 6 or (city = 'Olón' and price < 100000)",
      );
      await check(
        'not.or=(city.eq.Quito,city.eq.Guayaquil)&id=lt.50',
        "not (city = 'Quito' or city = 'Guayaquil') and id < 50",
      );
      await check(
        'and=(bedrooms.eq.2,bathrooms.eq.2)&city=eq.Ibarra',
        "bedrooms = 2 and bathrooms = 2 and city = 'Ibarra'",
      );
      await check('address=ilike.*"Av. 6 de Diciembre*', 'false');
      await check(
        'or=(address.ilike."*Av. 6 de Diciembre, Iñaquito*",id.eq.1)',
        "address ilike '%Av. 6 de Diciembre, Iñaquito%' or id = 1",
      );
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
        expect(await get('listings?select=id,nope')).toMatchObject({
          status: 400,
          body: { code: '42703', message: 'column listings.nope does not exist' },
        });
        expect(await get('listings?nope=eq.1')).toMatchObject({ status: 400, body: { code: '42703' } });
        expect(await get('listing')).toMatchObject({
          status: 404,
          body: { code: 'PGRST205', hint: "Perhaps you meant the table 'public.listings'" },
        });
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
          const res = await fetch(`${server.url}/rest/v1/listings?id=eq.1`, {
            method,
            headers: { 'Content-Type': 'application/json' },
            body: '{"price":1}',
          });
          expect(res.status, method).toBe(405);
          expect((await res.json()).code).toBe('PGRST117');
        }
        const { error } = await sb.from('listings').update({ price: 1 }).eq('id', 1);
        expect(error?.code).toBe('PGRST117');
        expect(
          Number((await server.sql<{ price: string }>('select price from internal.listings where id = 1'))[0]?.price),
        ).not.toBe(1);
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
          await call('search_fold', {
            method: 'POST',
            headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
            body: 'value=%C3%81',
          }),
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
        expect(
          await call('listing_cluster', {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: '{"zoom":1}',
          }),
        ).toMatchObject({
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
          details:
            'Searched for the function public.search_fold with parameter text, but no matches were found in the schema cache.',
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
        expect(
          await call('search_fold', {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: '{"value":',
          }),
        ).toMatchObject({
          status: 400,
          body: { code: 'PGRST102' },
        });
        expect(
          await call('search_fold', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '["x"]' }),
        ).toMatchObject({
          status: 400,
          body: { code: 'PGRST102' },
        });
        expect(await call('search_fold?value=x&value=y')).toMatchObject({ status: 400, body: { code: 'PGRST100' } });
        expect(await call('search_fold?value=x&select=a')).toMatchObject({ status: 400, body: { code: 'PGRST100' } });
        // a value that looks like SQL is only ever a value
        expect((await sb.rpc('search_fold', { value: "x'); drop table internal.listings; --" })).data).toBe(
          "x'); drop table internal.listings; --",
        );
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
          'Access-Control-Request-Headers':
            'apikey, authorization, x-client-info, accept-profile, prefer, content-type',
        },
      });
      expect(pre.status).toBeLessThan(300);
      expect(pre.headers.get('access-control-allow-origin')).toBe('*');
      const allowed = (pre.headers.get('access-control-allow-headers') ?? '').toLowerCase();
      for (const h of ['apikey', 'authorization', 'x-client-info', 'accept-profile', 'prefer', 'content-type'])
        expect(allowed).toContain(h);
      const res = await fetch(`${server.url}/rest/v1/listings?select=id&limit=1`, {
        headers: { Origin: 'https://partner.example' },
      });
      expect(res.headers.get('access-control-expose-headers')).toContain('Content-Range');
    });
  });
}
