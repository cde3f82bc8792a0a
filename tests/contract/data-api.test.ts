/**
 * docs/data-api.md, held to the code both ways: every request our data functions and the pages'
 * data send has a row in its table (recorded as they are sent, through the real postgrest-js), and
 * our /rest/v1 answers each row as the row says PostgREST answers it.
 */
import { PostgrestClient } from '@supabase/postgrest-js';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSiteData } from '../../server/pages/site-data.ts';
import { getAgent, getAgents, getAreaAgents } from '../../widgets/lib/data/agents.ts';
import { getListingMarket, getMarketFigures, getPriceHistory, getSimilarListings } from '../../widgets/lib/data/listing-extras.ts';
import { getListing, getListingsByIds, getListingsCount, getListingsPage, getMapClusters, getMapPoints, getPropertyTypes } from '../../widgets/lib/data/listings.ts';
import { getPlaceSuggestions } from '../../widgets/lib/data/places.ts';
import { startTestServer, type TestServer } from '../support/servers.ts';

const DOC = new URL('../../docs/data-api.md', import.meta.url);
const KEY = 'local-anon-key';

/** A statement as slow as it is told, for the timeout row (as in deadlines.test.ts). */
const SLEEP_FUNCTION = `
  create or replace function public.exp_test_sleep(seconds double precision) returns integer
  language plpgsql stable as $$ begin perform pg_sleep(seconds); return 1; end $$;
  grant execute on function public.exp_test_sleep(double precision) to anon;`;

interface Sent {
  method: string;
  url: URL;
  headers: Headers;
  body: string | undefined;
}

/** What makes two requests the same shape: method, path, each parameter with its operator, the range and count headers, the body's argument names. */
export function shapeOf(r: Sent): string {
  const params = [...r.url.searchParams.entries()]
    .map(([name, value]) => (['select', 'order', 'limit', 'offset'].includes(name) ? name : name === 'or' || name === 'and' ? name : `${name}=${/^(not\.)?[a-z]+/.exec(value)?.[0] ?? '?'}`))
    .sort();
  const headers = [r.headers.has('range') ? 'range' : '', /count=/.test(r.headers.get('prefer') ?? '') ? 'count' : '', /vnd\.pgrst\.object/.test(r.headers.get('accept') ?? '') ? 'object' : ''].filter(
    Boolean,
  );
  let args: string[] = [];
  if (r.body) {
    const parsed = JSON.parse(r.body) as unknown;
    args = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? Object.keys(parsed).sort() : ['(array)'];
  }
  const path = r.url.pathname.replace(/^\/rest\/v1/, '');
  return `${r.method} ${path} ?${params.join('&')} [${headers.join(',')}] {${args.join(',')}}`;
}

interface Row {
  line: number;
  text: string;
  request: Sent;
  expect: string[];
}

/** The rows of the doc's tables whose first cell is a request. */
function readRows(values: Record<string, string>): Row[] {
  const rows: Row[] = [];
  readFileSync(DOC, 'utf8')
    .split('\n')
    .forEach((text, i) => {
      const cells = text.split('|').map((c) => c.trim());
      const spans = (cell: string | undefined) => [...(cell ?? '').matchAll(/`([^`]+)`/g)].map((m) => (m[1] as string).replace(/\{(listing2?|agent)\}/g, (_, k: string) => values[k] as string));
      const [first, ...rest] = spans(cells[1]);
      const m = /^(GET|HEAD|POST|OPTIONS) (\/\S*)$/.exec(first ?? '');
      if (!m) return;
      const headers = new Headers();
      let body: string | undefined;
      for (const s of rest) {
        if (s.startsWith('{') || s.startsWith('[')) body = s;
        else {
          const at = s.indexOf(':');
          headers.set(s.slice(0, at).trim(), s.slice(at + 1).trim());
        }
      }
      if (body !== undefined) headers.set('Content-Type', 'application/json');
      rows.push({ line: i + 1, text, request: { method: m[1] as string, url: new URL(`http://api/rest/v1${m[2]}`), headers, body }, expect: spans(cells[3]) });
    });
  return rows;
}

function headerMatches(actual: string | null, expected: string): boolean {
  if (actual === null) return false;
  if (expected.startsWith('~')) return actual.toLowerCase().includes(expected.slice(1).toLowerCase());
  const pattern = expected.replace(/[.*+?^$()[\]\\|]/g, '\\$&').replace(/\\?\{n\\?\}|\{n\}/g, '\\d+');
  return new RegExp(`^${pattern}$`).test(actual);
}

describe('docs/data-api.md: the request shapes we send, answered as PostgREST answers them', () => {
  let server: TestServer;
  let rows: Row[];
  const sent: Sent[] = [];

  beforeAll(async () => {
    server = await startTestServer('postgres');
    await server.sql(SLEEP_FUNCTION);
    const [listing, listing2] = await server.sql<{ id: string }>("select id::text as id from public.listings where country_code = 'EC' and status = '1' and city = 'Quito' order by id limit 2");
    const [agent] = await server.sql<{ id: string }>("select min(id)::text as id from public.agents where country_code = 'EC'");
    rows = readRows({ listing: String(listing?.id), listing2: String(listing2?.id), agent: String(agent?.id) });

    // every data call, through a fetch that notes what it sends and sends it
    const real = globalThis.fetch;
    globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.pathname.startsWith('/rest/v1')) sent.push({ method: init?.method ?? 'GET', url, headers: new Headers(init?.headers), body: typeof init?.body === 'string' ? init.body : undefined });
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
      const url = `${server.url}${row.request.url.pathname}${row.request.url.search}`;
      const headers = new Headers(row.request.headers);
      if (row.request.method !== 'OPTIONS') headers.set('apikey', KEY);
      const res = await fetch(url, { method: row.request.method, headers, body: row.request.body });
      const text = await res.text();
      const body = text ? (JSON.parse(text) as unknown) : undefined;
      const wrong = (what: string) => failures.push(`line ${row.line} (${row.request.method} ${row.request.url.pathname}): ${what}; got ${res.status} ${text.slice(0, 200)}`);
      for (const e of row.expect) {
        if (/^\d{3}$/.test(e)) {
          if (res.status !== Number(e)) wrong(`status ${e}`);
        } else if (e === '2xx') {
          if (res.status < 200 || res.status > 299) wrong('a 2xx status');
        } else if (e === 'scalar') {
          if (typeof body !== 'number') wrong('a scalar');
        } else if (e.startsWith('rows: ')) {
          const n = Array.isArray(body) ? body.length : -1;
          const want = e.slice(6);
          if (want.startsWith('>') ? !(n > Number(want.slice(1))) : n !== Number(want)) wrong(`rows ${want}`);
        } else if (e.startsWith('keys: ')) {
          const keys = e.slice(6).split(',');
          if (!Array.isArray(body) || !body.length || body.some((r) => Object.keys(r as object).join(',') !== keys.join(','))) wrong(`keys ${keys.join(',')}`);
        } else if (e.startsWith('object: ')) {
          // a function answering one JSON object: these keys, in any order
          const keys = e.slice(8).split(',');
          if (!body || typeof body !== 'object' || Array.isArray(body) || keys.some((k) => !(k in (body as object)))) wrong(`an object with ${keys.join(',')}`);
        } else if (e.startsWith('code: ')) {
          if ((body as { code?: string } | undefined)?.code !== e.slice(6)) wrong(e);
        } else {
          const at = e.indexOf(':');
          const name = e.slice(0, at);
          if (!headerMatches(res.headers.get(name), e.slice(at + 1).trim())) wrong(`${name}: ${e.slice(at + 1).trim()} (was ${res.headers.get(name)})`);
        }
      }
      if (!row.expect.length) wrong('an answer column');
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
