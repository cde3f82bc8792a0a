/**
 * The location box and the new filters at 100,000 listings on PostgreSQL (docs/decisions.md #26):
 *  - suggestions (public.place_suggestions through postgrest-js .rpc(), as the box asks) for what a
 *    visitor types, letter by letter and with a typo: p50/p95 and the answer's size gzip;
 *  - the search's two calls (count and page, in parallel, as the element runs them) for a picked
 *    sector, a province, features, years and a lot, and the free text over cities, sectors and
 *    addresses: p50/p95.
 *  - words (common, rare, a phrase, excluded; best match first) and an area drawn over a district
 *    (docs/decisions.md #27), and the map's clusters with words and an area.
 * Targets (issue 27): suggestions p95 <= 15 ms and <= 2 KB; count + page p95 <= 40 ms (a drawn
 * district 30 ms); clusters with words and an area p95 <= 60 ms.
 */
import { PostgrestClient } from '@supabase/postgrest-js';
import {
  getListingsCount,
  getListingsPage,
  getMapClusters,
  type SearchFilters,
  type SortKey,
} from '../widgets/lib/data/listings.ts';
import { getPlaceSuggestions } from '../widgets/lib/data/places.ts';
import type { LngLat } from '../core/protocol/polygon.ts';
import { startPostgres } from '../tests/support/postgres.ts';
import { benchDatabase } from './database.ts';
import { startServerProcess } from '../tests/support/server-process.ts';
import { gzipSize, summarise, time } from './stats.ts';

const LISTINGS = Number(process.env.BENCH_LISTINGS ?? 100_000);
const ITERATIONS = 200;
const WARMUP = 20;
const SUGGEST_P95_MS = 15;
const SUGGEST_BYTES = 2048;
const SEARCH_P95_MS = 40;
const AREA_P95_MS = 30;
const CLUSTERS_P95_MS = 60;

/** about La Carolina and Iñaquito in Quito: a district of some 2 km by 2 km */
const DISTRICT: LngLat[] = [
  [-78.492, -0.192],
  [-78.474, -0.19],
  [-78.472, -0.172],
  [-78.49, -0.17],
];
/** the north of Quito, drawn roughly, for the clusters */
const NORTH_QUITO: LngLat[] = [
  [-78.52, -0.22],
  [-78.44, -0.22],
  [-78.43, -0.1],
  [-78.5, -0.08],
  [-78.53, -0.14],
];

/** what visitors type: a sector letter by letter, a city with a typo, another name, a street, a code */
const TYPED = [
  'in',
  'ina',
  'inaq',
  'inaqu',
  'la ca',
  'la carolina',
  'cumba',
  'guayakil',
  'gye',
  'samboro',
  'naciones unidas',
  '#1234',
];

const SEARCHES: Array<{ name: string; filters: SearchFilters; sort?: SortKey; target?: number }> = [
  { name: 'a sector picked (quito/inaquito)', filters: { place: 'quito/inaquito' } },
  { name: 'a province picked (pichincha), houses', filters: { place: 'provincia/pichincha', propertyType: 'house' } },
  { name: 'free text "carolina"', filters: { city: 'carolina' } },
  { name: 'pool and garage', filters: { features: { pool: true, garage: true } } },
  { name: 'built from 2015, lot from 500 m²', filters: { yearBuiltFrom: 2015, minLotSize: 500 } },
  {
    name: 'Cumbayá, pool, 3+ beds, up to $500,000',
    filters: { place: 'cumbaya', features: { pool: true }, beds: 3, maxPrice: 500000 },
  },
  { name: 'words "casa", best match', filters: { keywords: 'casa' }, sort: 'relevance' },
  { name: 'words "piscina", best match', filters: { keywords: 'piscina' }, sort: 'relevance' },
  { name: 'words "chimenea" (rare), best match', filters: { keywords: 'chimenea' }, sort: 'relevance' },
  { name: 'words "\"vista al mar\" -ruido", newest', filters: { keywords: '"vista al mar" -ruido' } },
  {
    name: 'words "piscina" in Quito, houses',
    filters: { keywords: 'piscina', place: 'quito', propertyType: 'house' },
    sort: 'relevance',
  },
  { name: 'a drawn district (La Carolina, ~2 km)', filters: { polygon: DISTRICT }, target: AREA_P95_MS },
  {
    name: 'a drawn district, 2+ beds, newest',
    filters: { polygon: DISTRICT, beds: 2 },
    sort: 'newest',
    target: AREA_P95_MS,
  },
];

export async function benchPlaces(): Promise<Record<string, unknown>> {
  const postgres = await startPostgres();
  try {
    const db = await benchDatabase(postgres.url, LISTINGS, 'places');
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
        suggestions[q] = {
          ...summarise(samples),
          count: answer.length,
          first: answer[0] ? `${answer[0].name} (${answer[0].kind})` : null,
          gzipBytes,
        };
        console.log(
          `[bench:places] suggest "${q}": p50 ${summarise(samples).p50} ms, p95 ${summarise(samples).p95} ms, ${answer.length} answers, ${gzipBytes} B gzip`,
        );
      }
      const searches: Record<string, unknown> = {};
      for (const s of SEARCHES) {
        const both = () =>
          Promise.all([getListingsCount(rest, s.filters), getListingsPage(rest, s.filters, s.sort ?? 'featured', 1)]);
        for (let i = 0; i < WARMUP; i++) await both();
        const samples: number[] = [];
        for (let i = 0; i < ITERATIONS; i++) samples.push(await time(both));
        const total = await getListingsCount(rest, s.filters);
        searches[s.name] = { ...summarise(samples), total, target: s.target ?? SEARCH_P95_MS };
        console.log(
          `[bench:places] search ${s.name}: p50 ${summarise(samples).p50} ms, p95 ${summarise(samples).p95} ms, ${total} listings`,
        );
      }
      // the map's clusters of north Quito at a city's zoom, with words and a drawn area
      const clusters: Record<string, unknown> = {};
      for (const [name, filters] of [
        ['words "piscina"', { keywords: 'piscina' }],
        ['a drawn area (north Quito)', { polygon: NORTH_QUITO }],
        ['words "piscina" and a drawn area', { keywords: 'piscina', polygon: NORTH_QUITO }],
      ] as Array<[string, SearchFilters]>) {
        const view = { zoom: 13, bbox: [-78.56, -0.26, -78.4, -0.05] as [number, number, number, number] };
        for (let i = 0; i < WARMUP; i++) await getMapClusters(rest, filters, view);
        const samples: number[] = [];
        for (let i = 0; i < ITERATIONS; i++) samples.push(await time(() => getMapClusters(rest, filters, view)));
        const cells = await getMapClusters(rest, filters, view);
        clusters[name] = {
          ...summarise(samples),
          cells: cells.length,
          listings: cells.reduce((n, c) => n + c.count, 0),
        };
        console.log(
          `[bench:places] clusters ${name}: p50 ${summarise(samples).p50} ms, p95 ${summarise(samples).p95} ms, ${cells.length} cells`,
        );
      }
      const result = { listings: LISTINGS, iterations: ITERATIONS, suggestions, searches, clusters };
      return { ...result, markdown: markdown(result) };
    } finally {
      await server.stop();
    }
  } finally {
    await postgres.stop();
  }
}

type Stat = { p50: number; p95: number };

function markdown(r: {
  listings: number;
  iterations: number;
  suggestions: Record<string, unknown>;
  searches: Record<string, unknown>;
  clusters: Record<string, unknown>;
}): string {
  const date = new Date().toISOString().slice(0, 10);
  const lines = [
    `### The location box, the filters, words and a drawn area (${r.listings.toLocaleString('en-US')} listings on PostgreSQL, ${r.iterations} calls each; ${date})`,
    '',
  ];
  lines.push(
    'Suggestions (`public.place_suggestions` through postgrest-js, as the box asks):',
    '',
    '| typed | p50 | p95 | answers | first | gzip |',
    '|---|---|---|---|---|---|',
  );
  const slow: string[] = [];
  for (const [q, v] of Object.entries(r.suggestions) as Array<
    [string, Stat & { count: number; first: string | null; gzipBytes: number }]
  >) {
    lines.push(
      `| \`${q}\` | ${v.p50} ms | ${v.p95} ms | ${v.count} | ${v.first ?? '–'} | ${(v.gzipBytes / 1024).toFixed(1)} KB |`,
    );
    if (v.p95 > SUGGEST_P95_MS || v.gzipBytes > SUGGEST_BYTES) slow.push(`\`${q}\``);
  }
  lines.push(
    '',
    `Target: p95 ≤ ${SUGGEST_P95_MS} ms and ≤ 2 KB. ${slow.length ? `Missed by ${slow.join(', ')}.` : 'Met.'}`,
    '',
  );
  lines.push(
    'The search (count and page in parallel, as the element runs them):',
    '',
    '| filters | p50 | p95 | listings |',
    '|---|---|---|---|',
  );
  const slowSearch: string[] = [];
  for (const [name, v] of Object.entries(r.searches) as Array<[string, Stat & { total: number; target: number }]>) {
    lines.push(`| ${name} | ${v.p50} ms | ${v.p95} ms | ${v.total.toLocaleString('en-US')} |`);
    if (v.p95 > v.target) slowSearch.push(`${name} (target ${v.target} ms)`);
  }
  lines.push(
    '',
    `Target: p95 ≤ ${SEARCH_P95_MS} ms (a drawn district ${AREA_P95_MS} ms). ${slowSearch.length ? `Missed by: ${slowSearch.join('; ')}.` : 'Met.'}`,
    '',
  );
  lines.push(
    "The map's clusters of north Quito at zoom 13 (`public.listing_clusters`):",
    '',
    '| filters | p50 | p95 | cells | listings |',
    '|---|---|---|---|---|',
  );
  const slowClusters: string[] = [];
  for (const [name, v] of Object.entries(r.clusters) as Array<[string, Stat & { cells: number; listings: number }]>) {
    lines.push(`| ${name} | ${v.p50} ms | ${v.p95} ms | ${v.cells} | ${v.listings.toLocaleString('en-US')} |`);
    if (v.p95 > CLUSTERS_P95_MS) slowClusters.push(name);
  }
  lines.push(
    '',
    `Target: p95 ≤ ${CLUSTERS_P95_MS} ms. ${slowClusters.length ? `Missed by: ${slowClusters.join('; ')}.` : 'Met.'}`,
  );
  return lines.join('\n');
}
