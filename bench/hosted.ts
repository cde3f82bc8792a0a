/**
 * The hosted data API under attack (docs/deployment.md "What the public key may ask"): a database
 * prepared as a hosted project's (its roles and their settings, then our migrations), 20,000
 * listings, and every request run as a hosted project's PostgREST runs it
 * (tests/support/postgrest-sql.ts: its transaction, settings, pre-request hook and statement) on a
 * pool of 10 connections, as a small project's PostgREST has.
 *
 * Visitors search as the element does (the count and a page of 24 at once, a city or words), six
 * of them one search after another: first alone, then beside 20 attacking clients, each an address
 * of its own that sends its next request as soon as the last is answered, whatever the answer
 * (Retry-After ignored), picking in turn the slowest requests we know: the review's regular
 * expressions on a description and a title, an `or` of 100 LIKE patterns over every title, the
 * same over the search's own 1,000 rows, and a page of 1,000 listings with every column.
 *
 * Measured: the visitors' p95 alone and under attack (target: at most twice), the longest a request
 * of the public key held a connection (target: 500 ms), and how each attack was answered.
 */
import pg from 'pg';
import { startPostgres } from '../tests/support/postgres.ts';
import {
  asPostgrest,
  hookAnswer,
  postgrestSetup,
  readStatement,
  SUPABASE_INITIAL_SCHEMA,
  type PostgrestRequest,
  type PostgrestSetup,
} from '../tests/support/postgrest-sql.ts';
import { benchDatabase } from './database.ts';
import { summarise } from './stats.ts';

const LISTINGS = Number(process.env.BENCH_HOSTED_LISTINGS ?? 20_000);
const SECONDS = Number(process.env.BENCH_HOSTED_SECONDS ?? 20);
const POOL = 10;
const VISITORS = 6;
const ATTACKERS = 20;

const CITIES = ['quito', 'guayaquil', 'cuenca', 'cumbaya', 'samborondon', 'manta', 'salinas', 'loja'];
const WORDS = ['piscina', 'jardín', 'vista al mar', 'terraza', 'bodega', 'parqueadero'];

/** A function's rows as PostgREST reads them (its arguments by name), with any filters on them. */
const rpc = (name: string, args: Record<string, [unknown, string]>, where = '') => {
  const named = Object.keys(args)
    .map((k, i) => `"${k}" := $${i + 1}::${args[k]![1]}`)
    .join(', ');
  return {
    sql: readStatement(`SELECT "pgrst_call".* FROM "public"."${name}"(${named}) "pgrst_call"${where}`),
    params: Object.values(args).map(([v]) => v),
  };
};
const BACK_REFERENCES = '^(.*)(.*)(.*)(.*)(.*)\\5\\4\\3\\2\\1$';
const orOfLikes = (column: string, n: number) =>
  `(${Array.from({ length: n }, (_, i) => `${column} ILIKE $${i + 1}`).join(' OR ')})`;
const LIKES = Array.from({ length: 100 }, (_, i) => `%a%e%${String.fromCharCode(97 + (i % 26))}%o%${i}%`);

interface Attack {
  name: string;
  request: PostgrestRequest;
  sql: string;
  params: unknown[];
}

const ATTACKS: Attack[] = [
  {
    name: 'regular expression on every description',
    request: { method: 'GET', path: '/listings' },
    sql: readStatement(
      'SELECT "public"."listings"."id" FROM "public"."listings" WHERE "public"."listings"."description" ~ $1',
    ),
    params: [BACK_REFERENCES],
  },
  {
    name: 'regular expression on every title',
    request: { method: 'GET', path: '/listings' },
    sql: readStatement(
      'SELECT "public"."listings"."id" FROM "public"."listings" WHERE "public"."listings"."title" ~ $1',
    ),
    params: [BACK_REFERENCES],
  },
  {
    name: '100 LIKE patterns over every title',
    request: { method: 'GET', path: '/listings' },
    sql: readStatement(
      `SELECT "public"."listings"."id" FROM "public"."listings" WHERE ${orOfLikes('"public"."listings"."title"', 100)}`,
    ),
    params: LIKES,
  },
  {
    name: "100 LIKE patterns over the search's 1,000 rows",
    request: { method: 'POST', path: '/rpc/search_listings' },
    ...(() => {
      const where = ` WHERE ${orOfLikes('"pgrst_call"."title"', 100).replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + 4}`)}`;
      const call = rpc(
        'search_listings',
        {
          filters: ['{}', 'jsonb'],
          sort: ['newest', 'text'],
          page_size: [1000, 'integer'],
          page_offset: [0, 'integer'],
        },
        where,
      );
      return { sql: call.sql, params: [...call.params, ...LIKES] };
    })(),
  },
  {
    name: '1,000 listings, every column',
    request: { method: 'POST', path: '/rpc/search_listings' },
    ...(() => {
      const call = rpc('search_listings', {
        filters: ['{}', 'jsonb'],
        sort: ['price_desc', 'text'],
        page_size: [1000, 'integer'],
        page_offset: [0, 'integer'],
      });
      return { sql: call.sql, params: call.params };
    })(),
  },
];

interface Tally {
  holds: number[];
  answers: Record<string, number>;
}

/** Runs one request through the pool, noting how long it held its connection and how it was answered. */
async function send(
  pool: pg.Pool,
  setup: PostgrestSetup,
  request: PostgrestRequest,
  sql: string,
  params: unknown[],
  tally: Tally,
): Promise<boolean> {
  let answer = 'ok';
  try {
    await asPostgrest(pool, setup, request, sql, params, (ms) => tally.holds.push(ms));
  } catch (error) {
    const hook = hookAnswer(error);
    answer = hook ? String(hook.status) : String((error as { code?: string }).code ?? 'error');
  }
  tally.answers[answer] = (tally.answers[answer] ?? 0) + 1;
  return answer === 'ok';
}

async function visitors(pool: pg.Pool, setup: PostgrestSetup, until: number): Promise<{ ms: number[]; tally: Tally }> {
  const ms: number[] = [];
  const tally: Tally = { holds: [], answers: {} };
  await Promise.all(
    Array.from({ length: VISITORS }, async (_, v) => {
      const headers = { 'cf-connecting-ip': `198.51.100.${v + 1}` };
      for (let i = 0; performance.now() < until; i++) {
        const filters = JSON.stringify(
          i % 2 ? { place: CITIES[(v + i) % CITIES.length] } : { words: WORDS[(v + i) % WORDS.length] },
        );
        const count = rpc('search_listings_count', { filters: [filters, 'jsonb'] });
        const page = rpc('search_listings', {
          filters: [filters, 'jsonb'],
          sort: ['newest', 'text'],
          page_size: [24, 'integer'],
          page_offset: [0, 'integer'],
        });
        const t0 = performance.now();
        const done = await Promise.all([
          send(
            pool,
            setup,
            { method: 'POST', path: '/rpc/search_listings_count', headers },
            count.sql,
            count.params,
            tally,
          ),
          send(pool, setup, { method: 'POST', path: '/rpc/search_listings', headers }, page.sql, page.params, tally),
        ]);
        if (done.every(Boolean)) ms.push(performance.now() - t0);
      }
    }),
  );
  return { ms, tally };
}

async function attackers(pool: pg.Pool, setup: PostgrestSetup, until: number): Promise<Record<string, Tally>> {
  const tallies: Record<string, Tally> = Object.fromEntries(ATTACKS.map((a) => [a.name, { holds: [], answers: {} }]));
  await Promise.all(
    Array.from({ length: ATTACKERS }, async (_, n) => {
      const headers = { 'cf-connecting-ip': `203.0.113.${n + 1}` };
      for (let i = n; performance.now() < until; i++) {
        const attack = ATTACKS[i % ATTACKS.length]!;
        await send(pool, setup, { ...attack.request, headers }, attack.sql, attack.params, tallies[attack.name]!);
      }
    }),
  );
  return tallies;
}

export async function benchHosted(): Promise<Record<string, unknown>> {
  const server = await startPostgres({ max_connections: 60 });
  try {
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query(SUPABASE_INITIAL_SCHEMA);
    await admin.end();
    const db = await benchDatabase(server.url, LISTINGS, 'hosted');
    await db.close();
    const pool = new pg.Pool({ connectionString: server.url, max: POOL });
    pool.on('error', () => {});
    try {
      const setup = await postgrestSetup(pool);
      // warm: each statement planned and the pages read once
      await visitors(pool, setup, performance.now() + 2000);
      console.log('[bench:hosted] visitors alone...');
      const alone = await visitors(pool, setup, performance.now() + SECONDS * 1000);
      console.log('[bench:hosted] visitors beside 20 attackers...');
      const until = performance.now() + SECONDS * 1000;
      const [attacked, attacks] = await Promise.all([visitors(pool, setup, until), attackers(pool, setup, until)]);
      const holds = [...alone.tally.holds, ...attacked.tally.holds, ...Object.values(attacks).flatMap((t) => t.holds)];
      const before = summarise(alone.ms);
      const during = summarise(attacked.ms);
      const ratio = Math.round((during.p95 / before.p95) * 100) / 100;
      const longest = Math.round(Math.max(...holds));
      const perAttack = Object.fromEntries(
        Object.entries(attacks).map(([name, t]) => [
          name,
          { requests: t.holds.length, answers: t.answers, hold: summarise(t.holds) },
        ]),
      );
      const markdown = [
        `### The hosted data API under attack (${LISTINGS.toLocaleString('en-US')} listings, PostgREST's statements on a pool of ${POOL}; ${new Date().toISOString().slice(0, 10)})`,
        '',
        `${VISITORS} visitors search (the count and a page at once) for ${SECONDS} s alone, then for ${SECONDS} s beside ${ATTACKERS} attacking clients, each of its own address, each sending its next request as soon as the last is answered (\`bench/hosted.ts\`).`,
        '',
        '| | searches | p50 | p95 |',
        '|---|---|---|---|',
        `| alone | ${before.n} | ${before.p50} ms | ${before.p95} ms |`,
        `| beside the attackers | ${during.n} | ${during.p50} ms | ${during.p95} ms |`,
        '',
        `Under attack the visitors' p95 is **${ratio}x** alone (target: at most 2x); the longest any request held a connection: **${longest} ms** (target: 500 ms). Visitors' answers under attack: ${JSON.stringify(attacked.tally.answers)}.`,
        '',
        '| attack | requests | answers | connection held p50 / p95 / max |',
        '|---|---|---|---|',
        ...Object.entries(perAttack).map(
          ([name, a]) =>
            `| ${name} | ${a.requests} | ${Object.entries(a.answers)
              .map(([k, v]) => `${k}: ${v}`)
              .join(', ')} | ${a.hold.p50} / ${a.hold.p95} / ${a.hold.max} ms |`,
        ),
      ].join('\n');
      return {
        listings: LISTINGS,
        pool: POOL,
        visitors: VISITORS,
        attackers: ATTACKERS,
        seconds: SECONDS,
        alone: before,
        attacked: during,
        ratio,
        longestHoldMs: longest,
        attacks: perAttack,
        visitorAnswers: { alone: alone.tally.answers, attacked: attacked.tally.answers },
        markdown,
      };
    } finally {
      await pool.end();
    }
  } finally {
    await server.stop();
  }
}
