/**
 * The alert job at size (docs/decisions.md #23): 10,000 confirmed saved searches over 100,000
 * listings on PostgreSQL, each with the filters people use (a place, often a type, a price range,
 * bedrooms, sometimes a map area), all due at once (instant). One run after 200 listings came on the
 * market and 100 dropped in price, and one run with nothing new (the cost of looking). Then the
 * composing of alert mails (the listings read, the links' tokens made), per mail. Mails are queued,
 * not sent: delivery is the outbox's (bench/api.ts and the contract tests cover it).
 * Figures: total time and the cost per search.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { alertComposer } from '../core/functions/alerts/mail.ts';
import { runAlerts } from '../core/functions/alerts/run.ts';
import type { OutboxMail } from '../core/functions/outbox/store.ts';
import type { Dict } from '../core/translate.ts';
import type { TransactionalSql } from '../core/functions/sql.ts';
import type { Database } from '../server/db/database.ts';
import { openPostgres } from '../server/db/postgres.ts';
import { migrate, reseed } from '../server/db/setup.ts';
import { startPostgres } from '../tests/support/postgres.ts';
import { summarise } from './stats.ts';

const LISTINGS = Number(process.env.BENCH_LISTINGS ?? 100_000);
const SEARCHES = Number(process.env.BENCH_SEARCHES ?? 10_000);
const NEW_LISTINGS = 200;
const PRICE_DROPS = 100;
const COMPOSED = 200;
const root = resolve(import.meta.dirname, '..');

/** 10,000 searches as people make them, from the seed's own places, types and prices (deterministic). */
const SEARCHES_SQL = `
with places as materialized (select array_agg(distinct city) as list from internal.listings where country_code = 'EC' and status = '1' and city is not null),
draws as (select g, random() as r1, random() as r2, random() as r3, random() as r4, random() as r5, random() as r6 from generate_series(1, $1) g),
made as (
  select g,
    jsonb_strip_nulls(jsonb_build_object(
      'city', case when r1 < 0.9 then (select list[1 + floor(r2 * array_length(list, 1))::int] from places) end,
      'property_type', case when r3 < 0.5 then (array['house', 'apartment', 'land', 'office'])[1 + floor(r4 * 4)::int] end,
      'price_min', case when r5 < 0.3 then (array[100000, 250000, 500000])[1 + floor(r6 * 3)::int] end,
      'price_max', case when r6 < 0.2 then (array[500000, 1000000, 2000000])[1 + floor(r5 * 3)::int] end,
      'beds_min', case when r4 < 0.3 then 1 + floor(r2 * 4)::int end,
      'area_west', case when r1 >= 0.95 then -78.55 end, 'area_south', case when r1 >= 0.95 then -0.3 end,
      'area_east', case when r1 >= 0.95 then -78.4 end, 'area_north', case when r1 >= 0.95 then -0.05 end
    )) as filters
  from draws
)
insert into internal.saved_searches (email, email_key, filters, filters_key, frequency, lang, status, expires_at, confirmed_at, sent_through, next_run_at, idempotency_key, client_hash)
select 'bench' || g || '@example.org', 'bench' || g || '@example.org', filters, filters::text || g, 'instant', case when g % 3 = 0 then 'en' else 'es' end, 'active', now(), now(), now(), now(), 'bench-' || g, 'bench'
from made`;

/** The listings and the confirmed searches the alert benchmarks run over (deterministic). */
export async function seedSearches(db: Database, listings: number, searches: number): Promise<void> {
  await reseed(db, listings);
  // one session, so that the seed is the draws' (and the jobs' time limit: 10,000 searches take more than a request's 10 s)
  await db.transaction(
    async (tx) => {
      await tx.query('select setseed(0.42)');
      await tx.query(SEARCHES_SQL, [searches]);
    },
    { long: true },
  );
  await db.jobs.query('analyze internal.saved_searches');
}

/** The market moves: new listings (copies of existing ones, in their places) and price drops. */
export async function moveTheMarket(db: Database): Promise<void> {
  await db.jobs.query(
    `insert into internal.listings (title, address, price, bedrooms, bathrooms, square_feet, property_type, city, state, images, geo_lat, geo_lon, description, agent_id)
     select title || ' (new)', address, price, bedrooms, bathrooms, square_feet, property_type, city, state, images, geo_lat, geo_lon, description, agent_id
       from internal.listings where status = '1' and country_code = 'EC' order by md5(id::text) limit $1`,
    [NEW_LISTINGS],
  );
  await db.jobs.query(
    "update internal.listings set price = round(price * 0.9) where id in (select id from internal.listings where status = '1' and country_code = 'EC' and price > 0 order by md5(id::text || 'drop') limit $1)",
    [PRICE_DROPS],
  );
}

export async function benchAlerts(): Promise<Record<string, unknown>> {
  console.log(`[bench:alerts] PostgreSQL: seeding ${LISTINGS} listings and ${SEARCHES} confirmed searches...`);
  const postgres = await startPostgres();
  try {
    const db = await openPostgres(postgres.url);
    try {
      await migrate(db);
      await seedSearches(db, LISTINGS, SEARCHES);
      const sql: TransactionalSql = {
        query: (t, p) => db.admin.query(t, p),
        transaction: (fn) => db.transaction((tx) => fn(tx)),
      };
      await moveTheMarket(db);
      const busy = await runAlerts(sql, { settleSeconds: 0 });
      const quiet = await runAlerts(sql, { settleSeconds: 0 });
      const [queued] = await db.admin.query<{ n: string; items: string }>(
        'select count(*)::text as n, coalesce(sum(jsonb_array_length(a.items)), 0)::text as items from internal.search_alerts a',
      );
      console.log(
        `[bench:alerts] run with changes: ${busy.searches} searches, ${busy.alerts} alerts in ${busy.ms} ms; run with nothing new: ${quiet.ms} ms`,
      );

      // composing: what each alert mail costs when the outbox sends it
      const texts = (lang: 'en' | 'es') =>
        JSON.parse(readFileSync(join(root, 'core/locales', `${lang}.json`), 'utf8')) as Dict;
      const compose = alertComposer({ from: 'bench@example.org', siteUrl: 'https://expecuador.example', texts });
      const alerts = await db.admin.query<{ id: string; email: string }>(
        'select a.id::text as id, s.email from internal.search_alerts a join internal.saved_searches s on s.id = a.search_id order by a.id limit $1',
        [COMPOSED],
      );
      const times: number[] = [];
      let bytes = 0;
      for (const a of alerts) {
        const t0 = performance.now();
        const message = await compose(sql, {
          id: '0',
          kind: 'alert',
          ref_id: a.id,
          recipient: a.email,
          payload: {},
          attempts: 1,
          lease_token: '',
        } as OutboxMail);
        times.push(performance.now() - t0);
        bytes += (message?.html.length ?? 0) + (message?.text.length ?? 0);
      }
      const result = {
        listings: LISTINGS,
        searches: SEARCHES,
        newListings: NEW_LISTINGS,
        priceDrops: PRICE_DROPS,
        run: { ...busy, msPerSearch: Math.round((busy.ms / Math.max(1, busy.searches)) * 1000) / 1000 },
        quietRun: { ...quiet, msPerSearch: Math.round((quiet.ms / Math.max(1, quiet.searches)) * 1000) / 1000 },
        alertsQueued: Number(queued?.n),
        listingsListed: Number(queued?.items),
        compose: { ...summarise(times), meanBytes: Math.round(bytes / Math.max(1, alerts.length)) },
      };
      return { ...result, markdown: markdown(result) };
    } finally {
      await db.close();
    }
  } finally {
    await postgres.stop();
  }
}

function markdown(r: {
  listings: number;
  searches: number;
  newListings: number;
  priceDrops: number;
  run: { searches: number; alerts: number; ms: number; msPerSearch: number };
  quietRun: { ms: number; msPerSearch: number };
  alertsQueued: number;
  listingsListed: number;
  compose: { p50: number; p95: number; meanBytes: number };
}): string {
  const fmt = (n: number) => n.toLocaleString('en-US');
  return [
    `### Alert job (${fmt(r.searches)} confirmed searches, ${fmt(r.listings)} listings, PostgreSQL; ${new Date().toISOString().slice(0, 10)})`,
    '',
    `Every search due at once (instant), with the filters people use (a place, often a type, a price range, bedrooms, sometimes a map area), after ${fmt(r.newListings)} listings came on the market and ${fmt(r.priceDrops)} dropped in price:`,
    '',
    '| run | searches | alerts queued | total | per search |',
    '|---|---|---|---|---|',
    `| with those changes | ${fmt(r.run.searches)} | ${fmt(r.run.alerts)} (${fmt(r.listingsListed)} listings in them) | ${fmt(r.run.ms)} ms | ${r.run.msPerSearch} ms |`,
    `| nothing new since | ${fmt(r.searches)} | 0 | ${fmt(r.quietRun.ms)} ms | ${r.quietRun.msPerSearch} ms |`,
    '',
    `Composing an alert mail when the outbox sends it (its listings read, its two links' tokens made): p50 ${r.compose.p50} ms, p95 ${r.compose.p95} ms, ${(r.compose.meanBytes / 1024).toFixed(1)} KB of HTML and text.`,
  ].join('\n');
}
