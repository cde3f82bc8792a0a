/**
 * The location box and the new filters at 100,000 listings on PostgreSQL (docs/decisions.md #26):
 *  - suggestions (public.place_suggestions through postgrest-js .rpc(), as the box asks) for what a
 *    visitor types, letter by letter and with a typo: p50/p95 and the answer's size gzip;
 *  - the search's two calls (count and page, in parallel, as the element runs them) for a picked
 *    sector, a province, features, years and a lot, and the free text over cities, sectors and
 *    addresses: p50/p95.
 * Targets (issue 27): suggestions p95 <= 15 ms and <= 2 KB; count + page p95 <= 40 ms.
 */
import { PostgrestClient } from '@supabase/postgrest-js';
import { openPostgres } from '../server/db/postgres.ts';
import { migrate, reseed } from '../server/db/setup.ts';
import { getListingsCount, getListingsPage, getPlaceSuggestions, type SearchFilters } from '../widgets/lib/data/listings.ts';
import { startPostgres } from '../tests/support/postgres.ts';
import { startServerProcess } from '../tests/support/server-process.ts';
import { gzipSize, summarise, time } from './stats.ts';

const LISTINGS = Number(process.env.BENCH_LISTINGS ?? 100_000);
const ITERATIONS = 200;
const WARMUP = 20;
const SUGGEST_P95_MS = 15;
const SUGGEST_BYTES = 2048;
const SEARCH_P95_MS = 40;

/** what visitors type: a sector letter by letter, a city with a typo, another name, a street, a code */
const TYPED = ['in', 'ina', 'inaq', 'inaqu', 'la ca', 'la carolina', 'cumba', 'guayakil', 'gye', 'samboro', 'naciones unidas', '#1234'];

const SEARCHES: Array<{ name: string; filters: SearchFilters }> = [
  { name: 'a sector picked (quito/inaquito)', filters: { place: 'quito/inaquito' } },
  { name: 'a province picked (pichincha), houses', filters: { place: 'provincia/pichincha', propertyType: 'house' } },
  { name: 'free text "carolina"', filters: { city: 'carolina' } },
  { name: 'pool and garage', filters: { features: { pool: true, garage: true } } },
  { name: 'built from 2015, lot from 500 m²', filters: { yearBuiltFrom: 2015, minLotSize: 500 } },
  { name: 'Cumbayá, pool, 3+ beds, up to $500,000', filters: { place: 'cumbaya', features: { pool: true }, beds: 3, maxPrice: 500000 } },
];

export async function benchPlaces(): Promise<Record<string, unknown>> {
  const postgres = await startPostgres();
  try {
    console.log(`[bench:places] PostgreSQL: seeding ${LISTINGS} listings...`);
    const db = await openPostgres(postgres.url);
    await migrate(db);
    await reseed(db, LISTINGS);
    await db.close();
    const server = await startServerProcess({ DATABASE_URL: postgres.url });
    try {
      const rest = new PostgrestClient(`${server.url}/rest/v1`, { headers: { apikey: 'bench' } });
      const suggestions: Record<string, unknown> = {};
      for (const q of TYPED) {
        for (let i = 0; i < WARMUP; i++) await getPlaceSuggestions(rest, q);
        const samples: number[] = [];
        for (let i = 0; i < ITERATIONS; i++) samples.push(await time(() => getPlaceSuggestions(rest, q)));
        const answer = await getPlaceSuggestions(rest, q);
        const gzipBytes = await gzipSize(`${server.url}/rest/v1/rpc/place_suggestions`, JSON.stringify({ q }));
        suggestions[q] = { ...summarise(samples), count: answer.length, first: answer[0] ? `${answer[0].name} (${answer[0].kind})` : null, gzipBytes };
        console.log(`[bench:places] suggest "${q}": p50 ${summarise(samples).p50} ms, p95 ${summarise(samples).p95} ms, ${answer.length} answers, ${gzipBytes} B gzip`);
      }
      const searches: Record<string, unknown> = {};
      for (const s of SEARCHES) {
        const both = () => Promise.all([getListingsCount(rest, s.filters), getListingsPage(rest, s.filters, 'featured', 1)]);
        for (let i = 0; i < WARMUP; i++) await both();
        const samples: number[] = [];
        for (let i = 0; i < ITERATIONS; i++) samples.push(await time(both));
        const total = await getListingsCount(rest, s.filters);
        searches[s.name] = { ...summarise(samples), total };
        console.log(`[bench:places] search ${s.name}: p50 ${summarise(samples).p50} ms, p95 ${summarise(samples).p95} ms, ${total} listings`);
      }
      const result = { listings: LISTINGS, iterations: ITERATIONS, suggestions, searches };
      return { ...result, markdown: markdown(result) };
    } finally {
      await server.stop();
    }
  } finally {
    await postgres.stop();
  }
}

type Stat = { p50: number; p95: number };

function markdown(r: { listings: number; iterations: number; suggestions: Record<string, unknown>; searches: Record<string, unknown> }): string {
  const date = new Date().toISOString().slice(0, 10);
  const lines = [`### The location box and the filters (${r.listings.toLocaleString('en-US')} listings on PostgreSQL, ${r.iterations} calls each; ${date})`, ''];
  lines.push('Suggestions (`public.place_suggestions` through postgrest-js, as the box asks):', '', '| typed | p50 | p95 | answers | first | gzip |', '|---|---|---|---|---|---|');
  const slow: string[] = [];
  for (const [q, v] of Object.entries(r.suggestions) as Array<[string, Stat & { count: number; first: string | null; gzipBytes: number }]>) {
    lines.push(`| \`${q}\` | ${v.p50} ms | ${v.p95} ms | ${v.count} | ${v.first ?? '–'} | ${(v.gzipBytes / 1024).toFixed(1)} KB |`);
    if (v.p95 > SUGGEST_P95_MS || v.gzipBytes > SUGGEST_BYTES) slow.push(`\`${q}\``);
  }
  lines.push('', `Target: p95 ≤ ${SUGGEST_P95_MS} ms and ≤ 2 KB. ${slow.length ? `Missed by ${slow.join(', ')}.` : 'Met.'}`, '');
  lines.push('The search (count and page in parallel, as the element runs them):', '', '| filters | p50 | p95 | listings |', '|---|---|---|---|');
  const slowSearch: string[] = [];
  for (const [name, v] of Object.entries(r.searches) as Array<[string, Stat & { total: number }]>) {
    lines.push(`| ${name} | ${v.p50} ms | ${v.p95} ms | ${v.total.toLocaleString('en-US')} |`);
    if (v.p95 > SEARCH_P95_MS) slowSearch.push(name);
  }
  lines.push('', `Target: p95 ≤ ${SEARCH_P95_MS} ms. ${slowSearch.length ? `Missed by: ${slowSearch.join('; ')}.` : 'Met.'}`);
  return lines.join('\n');
}
