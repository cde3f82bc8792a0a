/**
 * Loads the generated seed into a database (batched, parameterised inserts), or renders it as a
 * SQL file for the Supabase CLI (`npm run seed -- --sql supabase/seed.sql`).
 */
import type { AgentRow } from './agents.ts';
import {
  AGENT_COLUMNS,
  LISTING_COLUMNS,
  OPEN_HOUSE_COLUMNS,
  PRICE_CHANGE_COLUMNS,
  SPELL_COLUMNS,
  type ListingRow,
  type OpenHouseRow,
  type PriceChangeRow,
  type Seed,
  type SpellRow,
} from './rows.ts';
import { POINT_OF_INTEREST_COLUMNS, type PointOfInterestRow } from '../import/nearby.ts';
import { LEAD_COLUMNS, SEED_LEAD_PREFIX, type LeadRow } from './leads.ts';
import { LISTING_WEEK_COLUMNS, type ListingWeekRow } from './listing-weeks.ts';
import {
  PROJECT_COLUMNS,
  UNIT_LISTING_COLUMNS,
  UNIT_TYPE_COLUMNS,
  type ProjectRow,
  type UnitListingRow,
  type UnitTypeRow,
} from './projects.ts';

export interface SeedTarget {
  query(sql: string, params?: readonly unknown[]): Promise<unknown>;
}

const JSON_COLUMNS = new Set(['images', 'floor_plans', 'utm', 'seller']);
const ARRAY_COLUMNS = new Set([
  'languages',
  'specializations',
  'certifications',
  'locations_served',
  'features',
  'amenities',
]);

function cast(column: string): string {
  if (JSON_COLUMNS.has(column)) return '::jsonb';
  if (ARRAY_COLUMNS.has(column)) return '::text[]';
  return '';
}

function value(column: string, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (JSON_COLUMNS.has(column)) return JSON.stringify(v);
  if (ARRAY_COLUMNS.has(column))
    return `{${(v as string[]).map((s) => `"${s.replace(/["\\]/g, (c) => '\\' + c)}"`).join(',')}}`;
  return v;
}

/** Inserts `rows` into `table` in batches of `batch`, their own ids kept (the seed's, and the benchmarks' real markets). */
export async function insertRows<R>(
  target: SeedTarget,
  table: string,
  columns: readonly string[],
  rows: readonly R[],
  batch: number,
): Promise<void> {
  const qualified = table.includes('.') ? table : `public.${table}`;
  for (let start = 0; start < rows.length; start += batch) {
    const slice = rows.slice(start, start + batch);
    const params: unknown[] = [];
    const tuples = slice.map((row) => {
      const cells = columns.map((c) => {
        params.push(value(c, (row as Record<string, unknown>)[c]));
        return `$${params.length}${cast(c)}`;
      });
      return `(${cells.join(',')})`;
    });
    await target.query(
      `insert into ${qualified} (${columns.join(',')}) overriding system value values ${tuples.join(',')}`,
      params,
    );
  }
}

export async function insertSeed(
  target: SeedTarget,
  seed: Seed,
  options: { replaceListingsOnly?: boolean } = {},
): Promise<void> {
  // the map's kept cells are counted once at the end, not after every batch (runs in a transaction)
  await target.query("select set_config('exp.listing_cells', 'deferred', true)");
  await target.query('delete from internal.listings');
  await target.query('delete from internal.projects');
  if (!options.replaceListingsOnly) {
    await target.query('delete from public.agents');
    await insertRows<AgentRow>(target, 'agents', AGENT_COLUMNS, seed.agents, 200);
  }
  await insertRows<ListingRow>(target, 'internal.listings', LISTING_COLUMNS, seed.listings, 1000);
  await insertRows<PriceChangeRow>(
    target,
    'internal.listing_price_changes',
    PRICE_CHANGE_COLUMNS,
    seed.priceChanges,
    2000,
  );
  // the times on the market that are over (the open ones the listings' trigger wrote)
  await insertRows<SpellRow>(target, 'internal.listing_spells', SPELL_COLUMNS, seed.spells, 3000);
  await insertRows<OpenHouseRow>(target, 'internal.open_houses', OPEN_HOUSE_COLUMNS, seed.openHouses, 1000);
  // keep a city's listings together on disk (see listings_city_order in the schema)
  await target.query('cluster internal.listings using listings_city_order');
  await target.query("select set_config('exp.listing_cells', '', true)");
  await target.query('select internal.listings_derived_rebuild()');
  // the planner's statistics of what was just loaded, before the index reads it: without them it
  // takes a few hundred rows for 200,000 and joins them row by row (at 100,000 listings the
  // market index then ran past its 15 minutes)
  await target.query('analyze internal.listings, internal.listing_spells, internal.listing_price_changes');
  // identity columns continue after the seeded ids
  await target.query(
    "select setval(pg_get_serial_sequence('internal.listings', 'id'), (select coalesce(max(id), 0) + 1 from internal.listings), false)",
  );
  await target.query(
    "select setval(pg_get_serial_sequence('public.agents', 'id'), (select coalesce(max(id), 0) + 1 from public.agents), false)",
  );
  // the new developments after the listings: each writes a listing of its own (47_projects.sql),
  // numbered after the seeded ones, in its city's province (internal.places, counted just now)
  await insertRows<ProjectRow>(target, 'internal.projects', PROJECT_COLUMNS, seed.projects, 200);
  await insertRows<UnitTypeRow>(target, 'internal.project_unit_types', UNIT_TYPE_COLUMNS, seed.unitTypes, 500);
  for (const table of ['internal.projects', 'internal.project_unit_types'])
    await target.query(
      `select setval(pg_get_serial_sequence('${table}', 'id'), (select coalesce(max(id), 0) + 1 from ${table}), false)`,
    );
  // their units for sale, after the types they name (numbered after the projects' listings)
  await insertRows<UnitListingRow>(target, 'internal.listings', UNIT_LISTING_COLUMNS, seed.units, 500);
  // what is near them (docs/projects.md "What is near"): the seed's own, a list loaded from a file kept
  await target.query("delete from internal.points_of_interest where source = 'seed'");
  await insertRows<PointOfInterestRow>(
    target,
    'internal.points_of_interest',
    POINT_OF_INTEREST_COLUMNS,
    seed.pointsOfInterest,
    500,
  );
  // the market index of everything seeded (the units are asking prices as any: docs/market.md)
  await target.query("select internal.refresh_market_index(interval '0')");
  // the agents' leads (leads.ts), in place of an earlier seed's; the sellers' estimates made of the homes just loaded
  for (const statement of LEAD_STATEMENTS.before) await target.query(statement);
  await insertRows<LeadRow>(target, 'public.inquiries', LEAD_COLUMNS, seed.leads, 500);
  for (const statement of LEAD_STATEMENTS.after) await target.query(statement);
  // their listings' views and saves (an earlier seed's went with its listings)
  await insertRows<ListingWeekRow>(target, 'internal.listing_weeks', LISTING_WEEK_COLUMNS, seed.listingWeeks, 2000);
}

/** Around the seed's leads: an earlier seed's taken away (the visitors' own stay), then each seller's estimate made as the inquiry function makes it. */
const LEAD_STATEMENTS = {
  before: [`delete from public.inquiries where idempotency_key like '${SEED_LEAD_PREFIX}%'`],
  after: [
    `update public.inquiries set seller = seller || pg_catalog.jsonb_build_object('estimate', public.estimate_value(seller -> 'facts'))
      where idempotency_key like '${SEED_LEAD_PREFIX}%' and seller is not null`,
  ],
};

function literal(column: string, v: unknown): string {
  const x = value(column, v);
  if (x === null) return 'null';
  if (typeof x === 'number') return String(x);
  return `'${String(x).replace(/'/g, "''")}'${cast(column)}`;
}

/** The seed as plain SQL, for `supabase db reset` (configure it as the project's seed file). */
export function seedSql(seed: Seed): string {
  const out = [
    '-- Generated by `npm run seed -- --sql`; deterministic (fixed random seed).',
    'begin;',
    "select set_config('exp.listing_cells', 'deferred', true);",
    'delete from internal.listings;',
    'delete from internal.projects;',
    'delete from public.agents;',
  ];
  const emit = (table: string, columns: readonly string[], rows: readonly object[]) => {
    for (let i = 0; i < rows.length; i += 500) {
      const tuples = rows
        .slice(i, i + 500)
        .map((r) => `(${columns.map((c) => literal(c, (r as Record<string, unknown>)[c])).join(', ')})`);
      out.push(`insert into ${table} (${columns.join(', ')}) overriding system value values\n${tuples.join(',\n')};`);
    }
  };
  emit('public.agents', AGENT_COLUMNS, seed.agents);
  emit('internal.listings', LISTING_COLUMNS, seed.listings);
  emit('internal.listing_price_changes', PRICE_CHANGE_COLUMNS, seed.priceChanges);
  emit('internal.listing_spells', SPELL_COLUMNS, seed.spells);
  emit('internal.open_houses', OPEN_HOUSE_COLUMNS, seed.openHouses);
  out.push('cluster internal.listings using listings_city_order;');
  out.push("select set_config('exp.listing_cells', '', true);", 'select internal.listings_derived_rebuild();');
  out.push('analyze internal.listings, internal.listing_spells, internal.listing_price_changes;');
  out.push(
    "select setval(pg_get_serial_sequence('internal.listings', 'id'), (select max(id) + 1 from internal.listings), false);",
  );
  out.push(
    "select setval(pg_get_serial_sequence('public.agents', 'id'), (select max(id) + 1 from public.agents), false);",
  );
  emit('internal.projects', PROJECT_COLUMNS, seed.projects);
  emit('internal.project_unit_types', UNIT_TYPE_COLUMNS, seed.unitTypes);
  for (const table of ['internal.projects', 'internal.project_unit_types'])
    out.push(
      `select setval(pg_get_serial_sequence('${table}', 'id'), (select coalesce(max(id), 0) + 1 from ${table}), false);`,
    );
  emit('internal.listings', UNIT_LISTING_COLUMNS, seed.units);
  out.push("delete from internal.points_of_interest where source = 'seed';");
  emit('internal.points_of_interest', POINT_OF_INTEREST_COLUMNS, seed.pointsOfInterest);
  out.push("select internal.refresh_market_index(interval '0');");
  out.push(...LEAD_STATEMENTS.before.map((q) => `${q};`));
  emit('public.inquiries', LEAD_COLUMNS, seed.leads);
  out.push(...LEAD_STATEMENTS.after.map((q) => `${q};`));
  emit('internal.listing_weeks', LISTING_WEEK_COLUMNS, seed.listingWeeks);
  out.push('commit;', '');
  return out.join('\n');
}
