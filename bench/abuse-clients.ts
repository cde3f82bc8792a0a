/**
 * The clients of the load and abuse benchmark (bench/abuse.ts), in a process of their own:
 *   node --import tsx bench/abuse-clients.ts <baseUrl> visitors|attacker <seconds> <concurrency> <ids>
 *
 * visitors: `concurrency` people, each an address of its own (X-Forwarded-For; the server trusts
 * one proxy, as behind a CDN), doing what people do on the site, one thing after another: open a
 * page (the home page, the search, a listing's page, the agents), search with words as the
 * element does (the count and the page at once), move the map (its clusters), type in the
 * location box (suggestions), now and then send an inquiry.
 *
 * attacker: one address, `concurrency` connections, each sending the next request as soon as the
 * last is answered, whatever the answer (Retry-After ignored): the slowest requests it can find
 * (regular expressions with back-references, a phrase over every listing, exact counts over text,
 * long `in` lists, deep `or` trees, the sitemap, preview images of many listings, the whole
 * country's clusters).
 *
 * Prints one JSON line: per kind of request, its latency summary and its statuses.
 */
import { Agent, request } from 'node:http';
import { summarise } from './stats.ts';

const [base = 'http://127.0.0.1:8080', role = 'visitors', s = '20', c = '16', list = ''] = process.argv.slice(2);
const seconds = Number(s);
const concurrency = Number(c);
/** listings' pages (their addresses, as the site links them) */
const pages = list.split('|').filter(Boolean);
const ids = pages.map((p) => /\/properties\/(\d+)/.exec(p)?.[1] ?? '1');
/** each run's visitors are other people (their inquiries' rate limits are their own) */
const network = 80 + (process.pid % 100);
const url = new URL(base);
const agent = new Agent({ keepAlive: true, maxSockets: concurrency * 3 });

interface Answer {
  status: number;
  ms: number;
}

function send(method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers: {
          ...headers,
          ...(body ? { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) } : {}),
        },
        agent,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t0 }));
        res.on('error', () => resolve({ status: 0, ms: performance.now() - t0 }));
      },
    );
    req.setTimeout(60_000, () => req.destroy());
    req.on('error', () => resolve({ status: 0, ms: performance.now() - t0 }));
    req.end(body);
  });
}

const pick = <T>(xs: readonly T[], i: number): T => xs[i % xs.length] as T;
const rpc = (name: string, args: unknown, headers: Record<string, string>) =>
  send(
    'POST',
    `/rest/v1/rpc/${name}`,
    { ...headers, apikey: 'bench', Prefer: 'return=representation' },
    JSON.stringify(args),
  );

const WORDS = [
  'piscina',
  'jardín',
  'vista al mar',
  'terraza',
  'casa con jardín',
  'departamento amoblado',
  'bodega',
  'parqueadero',
];
const CITIES = ['Quito', 'Guayaquil', 'Cuenca', 'Cumbayá', 'Samborondón', 'Manta', 'Salinas', 'Loja'];
const TYPED = ['cu', 'cum', 'guay', 'qui', 'inaq', 'samb', 'sali', 'man'];
const VIEWS: Array<[number, [number, number, number, number]]> = [
  [12, [-78.55, -0.25, -78.4, -0.1]],
  [11, [-80.05, -2.3, -79.8, -2.05]],
  [13, [-79.05, -2.93, -78.95, -2.87]],
  [7, [-81, -5, -75, 1.5]],
];

type Step = (visitor: number, n: number, headers: Record<string, string>) => Array<[string, Promise<Answer>]>;

/** What a person does next, in turn. */
const VISITOR_STEPS: Step[] = [
  (v, n, h) => [['page', send('GET', pick(['/', '/es/search-properties', '/findanagent', '/es/about'], v + n), h)]],
  (v, n, h) => {
    const filters = { words: pick(WORDS, v + n), city: pick(CITIES, n) };
    return [
      ['search', rpc('search_listings_count', { filters }, h)],
      ['search', rpc('search_listings', { filters, sort: 'relevance', page_size: 24, page_offset: 0 }, h)],
    ];
  },
  (v, n, h) => {
    const [zoom, [west, south, east, north]] = pick(VIEWS, v + n);
    return [
      [
        'clusters',
        rpc(
          'listing_clusters',
          { zoom, view_west: west, view_south: south, view_east: east, view_north: north, filters: {} },
          h,
        ),
      ],
    ];
  },
  (v, n, h) => [['suggestions', rpc('place_suggestions', { q: pick(TYPED, v * 3 + n) }, h)]],
  (v, n, h) => [['listing page', send('GET', pick(pages, v * 7 + n), h)]],
  (v, n, h) => {
    const filters = { city: pick(CITIES, v + n), price_min: 100000 };
    return [
      ['search', rpc('search_listings_count', { filters }, h)],
      ['search', rpc('search_listings', { filters, sort: 'price_asc', page_size: 24, page_offset: 24 * (n % 3) }, h)],
    ];
  },
];

/** The slowest requests an attacker can find, in turn. */
const ATTACKS: Array<[string, (n: number, h: Record<string, string>) => Promise<Answer>]> = [
  [
    'back-references',
    (_n, h) =>
      send(
        'GET',
        '/rest/v1/listings?select=id&description=match.%5E(.*)(.*)(.*)(.*)(.*)%5C5%5C4%5C3%5C2%5C1%24&limit=1',
        h,
      ),
  ],
  [
    'phrase over everything',
    (n, h) =>
      rpc('search_listings_count', { filters: { words: `"${pick(['con una', 'de la', 'en el', 'y la'], n)}"` } }, h),
  ],
  [
    'exact count over text',
    (n, h) =>
      send(
        'HEAD',
        `/rest/v1/listings?select=id&description=ilike.*${pick([...'aeiou'], n)}*${pick([...'nrst'], n)}*${pick([...'aeiou'], n + 1)}*`,
        {
          ...h,
          Prefer: 'count=exact',
        },
      ),
  ],
  [
    'long in list',
    (n, h) =>
      send(
        'GET',
        `/rest/v1/listings?select=*&id=in.(${Array.from({ length: 100 }, (_, i) => (n * 100 + i) % 100_000).join(',')})`,
        h,
      ),
  ],
  [
    'deep or tree',
    (_n, h) =>
      send('GET', `/rest/v1/listings?select=id&or=(${'or('.repeat(6)}description.ilike.*a*${')'.repeat(6)})`, h),
  ],
  ['sitemap', (n, h) => send('GET', n % 2 ? '/sitemap.xml' : `/sitemaps/listings-${1 + (n % 3)}.xml`, h)],
  ['preview images', (n, h) => send('GET', `/og/listings/${pick(ids, n * 13)}.jpg?v=${n}`, h)],
  [
    'the whole country clustered',
    (_n, h) =>
      rpc(
        'listing_clusters',
        { zoom: 3, view_west: -180, view_south: -85, view_east: 180, view_north: 85, filters: { words: 'casa' } },
        h,
      ),
  ],
  [
    'inquiry flood',
    (n, h) =>
      send(
        'POST',
        '/functions/v1/send-property-inquiry',
        h,
        JSON.stringify({ name: 'Spam', email: `spam${n}@example.com`, message: 'x'.repeat(2000) }),
      ),
  ],
];

const by = new Map<string, { ms: number[]; statuses: Record<string, number> }>();
const record = (kind: string, a: Answer) => {
  const entry = by.get(kind) ?? { ms: [], statuses: {} };
  entry.ms.push(a.ms);
  entry.statuses[a.status] = (entry.statuses[a.status] ?? 0) + 1;
  by.set(kind, entry);
};

const until = performance.now() + seconds * 1000;

async function visitor(v: number): Promise<void> {
  const headers = { 'X-Forwarded-For': `10.${network}.${v >> 8}.${v & 255}`, 'Accept-Encoding': 'gzip' };
  for (let n = 0; performance.now() < until; n++) {
    const step = VISITOR_STEPS[(v + n) % VISITOR_STEPS.length] as Step;
    for (const [kind, p] of step(v, n, headers)) record(kind, await p);
    // now and then, an inquiry about a listing (a person's, within the limit of five a minute)
    if (n % 200 === 199)
      record(
        'inquiry',
        await send(
          'POST',
          '/functions/v1/send-property-inquiry',
          headers,
          JSON.stringify({
            name: `Visitante ${v}`,
            email: `visitante${v}@example.com`,
            message: 'Me interesa',
            propertyId: pick(ids, n),
            idempotencyKey: `bench-${v}-${n}-${Date.now()}`,
          }),
        ),
      );
  }
}

async function attacker(connection: number): Promise<void> {
  const headers = { 'X-Forwarded-For': '10.66.6.6' };
  for (let n = connection; performance.now() < until; n += concurrency) {
    const [kind, attack] = ATTACKS[n % ATTACKS.length] as (typeof ATTACKS)[number];
    record(kind, await attack(n, headers));
  }
}

const started = performance.now();
await Promise.all(Array.from({ length: concurrency }, (_, i) => (role === 'attacker' ? attacker(i) : visitor(i))));
const elapsed = (performance.now() - started) / 1000;
agent.destroy();
const all = [...by.values()].flatMap((e) => e.ms);
console.log(
  JSON.stringify({
    role,
    concurrency,
    seconds: Math.round(elapsed * 10) / 10,
    requests: all.length,
    requestsPerSecond: Math.round(all.length / elapsed),
    all: summarise(all),
    kinds: Object.fromEntries([...by].map(([k, e]) => [k, { ...summarise(e.ms), statuses: e.statuses }])),
  }),
);
