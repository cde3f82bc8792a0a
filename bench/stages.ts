/**
 * The database before and after the newest migrations, side by side at 100,000 listings
 * (docs/benchmarks.md "Stages"): one seeded database migrated without the migrations from
 * STAGES_SINCE on (default: the newest one), copied, and the copy migrated to the end; then the same
 * work on each, at one fixed instant (`exp.clock_offset`), one side after the other: the market
 * index made whole and refreshed, `estimate_value` for 300 homes, a feed of 20,000 listings merged
 * twice (all new; then changed, withdrawn and absent). Every row each writes or answers is compared,
 * and the time each took is reported beside the other's. A migration that restates functions as
 * stages (issue 61) must answer the same figures, no slower.
 */
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Database, Transaction } from '../server/db/database.ts';
import { openPostgres } from '../server/db/postgres.ts';
import { migrate, reseed } from '../server/db/setup.ts';
import { startPostgres } from '../tests/support/postgres.ts';
import { summarise } from './stats.ts';

const LISTINGS = Number(process.env.BENCH_LISTINGS ?? 100_000);
const HOMES = 300;
const FEED = 20_000;
/** the instant both sides run at */
const AT = '2026-11-15T15:00:00Z';
const MIGRATIONS = resolve(import.meta.dirname, '../supabase/migrations');

type Side = 'before' | 'after';
interface Work {
  name: string;
  /** how many times each side does it (alternating which goes first); once when it changes what it runs on */
  rounds?: number;
  /** the rows it wrote or answered, as text, in a fixed order */
  run(db: Database): Promise<{ rows: string[]; ms: number[] }>;
}

/** At the fixed instant, in one transaction. */
async function at<T>(db: Database, fn: (q: Transaction) => Promise<T>): Promise<T> {
  return db.transaction(
    async (q) => {
      await q.query(
        "select pg_catalog.set_config('exp.clock_offset', ($1::timestamptz - pg_catalog.now())::text, true)",
        [AT],
      );
      return fn(q);
    },
    { long: true },
  );
}

const timed = async <T>(fn: () => Promise<T>): Promise<[T, number]> => {
  const started = performance.now();
  const out = await fn();
  return [out, performance.now() - started];
};

const tableRows = async (db: Database, table: string, order: string) =>
  (await db.jobs.query<{ t: string }>(`select t::text as t from ${table} t order by ${order}`)).map((r) => r.t);

const market = (label: string, from: string | null): Work => ({
  name: label,
  rounds: 3,
  async run(db) {
    const [, ms] = await timed(() => at(db, (q) => q.query(`select internal.rebuild_market_index(${from ?? 'null'})`)));
    const rows = [
      ...(await tableRows(db, 'internal.market_index', 't.path, t.type_group, t.month')),
      ...(await tableRows(db, 'internal.market_shown', 't.place, t.type_group, t.month')),
      ...(await tableRows(db, 'internal.market_rents_now', 't.path')),
      ...(await tableRows(db, 'internal.market_bounds', 't.city_slug, t.type_group')),
    ];
    return { rows, ms: [ms] };
  },
});

const estimates: Work = {
  name: `estimate_value, ${HOMES} homes`,
  async run(db) {
    const homes = await db.jobs.query<{ facts: string }>(
      `select pg_catalog.jsonb_build_object('property_type', l.property_type, 'area_m2', l.square_feet, 'lot_m2', l.lot_size, 'bedrooms', l.bedrooms,
                'bathrooms', l.bathrooms, 'lat', l.map_lat, 'lng', l.map_lng, 'listing_id', l.id)::text as facts
         from internal.listings l
        where l.is_public and l.operation = 'sale' and l.square_feet >= 15 and l.map_lat is not null
        order by pg_catalog.md5(l.id::text) limit ${HOMES}`,
    );
    const rows: string[] = [];
    const ms: number[] = [];
    for (const h of homes) {
      const [answer, took] = await timed(() =>
        at(db, (q) => q.query<{ v: string }>('select public.estimate_value($1::jsonb)::text as v', [h.facts])),
      );
      rows.push(answer[0]!.v);
      ms.push(took);
    }
    return { rows, ms };
  },
};

const merges: Work = {
  name: `import_merge, ${FEED.toLocaleString('en-US')} listings twice`,
  async run(db) {
    const ms: number[] = [];
    const rows: string[] = [];
    // the first run: every listing new; the second: 5% repriced, 1% withdrawn by status, 2% absent
    for (const pass of [1, 2]) {
      const [out, took] = await timed(() =>
        at(db, async (q) => {
          const [run] = await q.query<{ id: string }>(
            "insert into internal.import_runs (source, kind, mode) values ('stages', 'csv', 'full') returning id::text as id",
          );
          await q.query(
            `insert into internal.import_staging (run_id, source_key, listing)
             select $1::bigint, 'k' || l.id, pg_catalog.jsonb_build_object(
                      'listing_ref', 'ref-' || l.id, 'status', case when $2 = 2 and l.id % 100 = 7 then '2' else '1' end, 'source_status', 'Active',
                      'title', l.title, 'address', l.address, 'price', case when $2 = 2 and l.id % 20 = 3 then l.price * 0.95 else l.price end,
                      'bedrooms', l.bedrooms, 'bathrooms', l.bathrooms, 'square_feet', l.square_feet, 'lot_size', l.lot_size, 'year_built', l.year_built,
                      'property_type', l.property_type, 'city', l.city, 'sector', l.sector, 'state', l.state, 'country_code', l.country_code,
                      'geo_lat', l.geo_lat::text, 'geo_lon', l.geo_lon::text, 'description', l.description, 'features', l.features,
                      'agent_email', lower(l.agent_email), 'listed_at', l.listed_at, 'source_modified_at', l.listed_at, 'operation', l.operation)
               from (select * from internal.listings order by id limit ${FEED}) l
              where not ($2 = 2 and l.id % 50 = 11)`,
            [run!.id, pass],
          );
          return q.query<{ r: string }>(
            "select internal.import_merge($1::bigint, 'stages', true, 0.5, true)::text as r",
            [run!.id],
          );
        }),
      );
      rows.push(out[0]!.r);
      ms.push(took);
    }
    rows.push(
      ...(
        await db.jobs.query<{ t: string }>(
          `select (l.source_key, l.listing_ref, l.status, l.source_status, l.title, l.price, l.bedrooms, l.square_feet, l.city, l.sector, l.agent_id,
                   l.agent_email, l.words, l.title_words, l.operation)::text as t
             from internal.listings l where l.source = 'stages' order by l.source_key`,
        )
      ).map((r) => r.t),
    );
    return { rows, ms };
  },
};

const WORK: Work[] = [
  market('the market index, made whole', null),
  market('its hourly refresh', `('${AT.slice(0, 8)}01'::date - interval '1 month')::date`),
  estimates,
  merges,
];

export async function benchStages(): Promise<Record<string, unknown>> {
  const all = readdirSync(MIGRATIONS)
    .filter((f) => f.endsWith('.sql'))
    .sort();
  const since = process.env.STAGES_SINCE ?? all.at(-1)!.slice(0, 14);
  const newer = all.filter((f) => f.slice(0, 14) >= since);
  const older = mkdtempSync(join(tmpdir(), 'exp-stages-'));
  for (const f of all) if (!newer.includes(f)) cpSync(join(MIGRATIONS, f), join(older, f));
  // no autovacuum: what one side wrote must not be vacuumed while the other side is timed
  const postgres = await startPostgres({ autovacuum: 'off' });
  try {
    const admin = await openPostgres(postgres.url);
    const url = (name: string) => Object.assign(new URL(postgres.url), { pathname: `/${name}` }).href;
    await admin.exec('create database stages_before');
    let db = await openPostgres(url('stages_before'));
    await migrate(db, older);
    console.log(`[bench:stages] seeding ${LISTINGS} listings, migrated without ${newer.join(', ')}...`);
    await reseed(db, LISTINGS);
    await db.close();
    await admin.exec('create database stages_after template stages_before');
    await admin.close();
    const sides: Record<Side, Database> = {
      before: await openPostgres(url('stages_before')),
      after: await openPostgres(url('stages_after')),
    };
    db = sides.after;
    const applied = await migrate(db);
    console.log(`[bench:stages] the copy migrated with ${applied.join(', ')}`);
    const results: Array<Record<string, unknown>> = [];
    for (const [index, work] of WORK.entries()) {
      const out: Record<Side, { rows: string[]; ms: number[] }> = {
        before: { rows: [], ms: [] },
        after: { rows: [], ms: [] },
      };
      // which side goes first alternates, round by round and work by work
      for (let round = 0; round < (work.rounds ?? 1); round++)
        for (const side of (round + index) % 2 ? (['after', 'before'] as const) : (['before', 'after'] as const)) {
          const done = await work.run(sides[side]);
          out[side] = { rows: done.rows, ms: [...out[side].ms, ...done.ms] };
        }
      const [a, b] = [out.before, out.after];
      const differing = a.rows.filter((row, i) => b.rows[i] !== row).length + Math.abs(a.rows.length - b.rows.length);
      const first = a.rows.findIndex((row, i) => b.rows[i] !== row);
      const result = {
        work: work.name,
        rows: a.rows.length,
        differing,
        ...(first >= 0
          ? { firstDifference: { before: a.rows[first]?.slice(0, 400), after: b.rows[first]?.slice(0, 400) } }
          : {}),
        before: summarise(a.ms),
        after: summarise(b.ms),
      };
      console.log(
        `[bench:stages] ${work.name}: ${result.rows} rows, ${differing} differing; before p50 ${result.before.p50.toFixed(1)} ms, after ${result.after.p50.toFixed(1)} ms`,
      );
      results.push(result);
    }
    for (const d of Object.values(sides)) await d.close();
    return { listings: LISTINGS, migrations: newer, at: AT, results, markdown: markdown(newer, results) };
  } finally {
    await postgres.stop();
    rmSync(older, { recursive: true, force: true });
  }
}

function markdown(migrations: string[], results: Array<Record<string, unknown>>): string {
  const ms = (x: unknown) => `${(x as { p50: number }).p50.toFixed(1)} / ${(x as { p95: number }).p95.toFixed(1)} ms`;
  return [
    `### The database before and after ${migrations.map((m) => `\`${m}\``).join(', ')} (${LISTINGS.toLocaleString('en-US')} listings)`,
    '',
    'One seeded database, and its copy migrated to the end; the same work on each at one fixed instant, every row it writes or answers compared (`npm run bench -- stages`).',
    '',
    '| work | rows compared | differing | before p50 / p95 | after p50 / p95 |',
    '|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${String(r.work)} | ${Number(r.rows).toLocaleString('en-US')} | ${String(r.differing)} | ${ms(r.before)} | ${ms(r.after)} |`,
    ),
  ].join('\n');
}
