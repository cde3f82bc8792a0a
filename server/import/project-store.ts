/**
 * New developments from the feeds, stored (docs/import.md "New developments"; read by ./projects.ts):
 * per source and key, their unit types kept by model, the listings that are units of a type linked
 * to it; a project the feed no longer has is withdrawn, within the run's share of withdrawals (never
 * by a run that read nothing).
 */
import { slugify } from '../../core/routes.ts';
import type { Database, Queryable } from '../db/database.ts';
import type { FeedRecord } from './mapping.ts';
import { sameModel, type ImportedProject, type UnitTypeColumns } from './projects.ts';
import { text } from './values.ts';

export interface ProjectsReport {
  read: number;
  new: number;
  updated: number;
  withdrawn: number;
  held: number;
  quarantined: Array<{ key: string; reasons: string[] }>;
  /** the listings that are units of a project's type (linkUnits) */
  units: UnitsReport;
}

/**
 * A project's unit types as the feed lists them, each kept as the row it was (so its units for sale
 * stay of it: docs/projects.md "Its units"): a type with a model is the row of that model, one
 * without the row without a model at its place; the rest are deleted (their units left for sale, of
 * no project). The positions are moved out of the way first, so a reordered list writes.
 */
async function storeUnitTypes(q: Queryable, projectId: string, types: UnitTypeColumns[]): Promise<void> {
  const rows = await q.query<{ id: string; position: number; model: string | null }>(
    'select id::text as id, position, model from internal.project_unit_types where project_id = $1',
    [projectId],
  );
  const left = [...rows];
  const matched = types.map((t, i) => {
    const at = left.findIndex((r) => (t.model ? sameModel(r.model, t.model) : r.model === null && r.position === i));
    return at < 0 ? null : (left.splice(at, 1)[0]?.id ?? null);
  });
  if (left.length)
    await q.query('delete from internal.project_unit_types where id = any ($1::bigint[])', [left.map((r) => r.id)]);
  if (rows.length > left.length)
    await q.query('update internal.project_unit_types set position = position + 1000 where project_id = $1', [
      projectId,
    ]);
  await q.query(
    `with e as (select (e.ord - 1)::smallint as position, nullif(e.t->>'id', '')::bigint as id, e.t from jsonb_array_elements($2::jsonb) with ordinality as e(t, ord)),
     kept as (
       update internal.project_unit_types x set position = e.position, property_type = e.t->>'property_type', bedrooms = (e.t->>'bedrooms')::smallint,
              bathrooms = (e.t->>'bathrooms')::numeric, area_min = (e.t->>'area_min')::numeric, area_max = (e.t->>'area_max')::numeric,
              price_min = (e.t->>'price_min')::numeric, price_max = (e.t->>'price_max')::numeric,
              units_available = (e.t->>'units_available')::integer, model = e.t->>'model', source_media = e.t->'source_media'
         from e where x.id = e.id
       returning x.id)
     insert into internal.project_unit_types (project_id, position, property_type, bedrooms, bathrooms, area_min, area_max, price_min, price_max,
       units_available, model, source_media)
     select $1, e.position, e.t->>'property_type', (e.t->>'bedrooms')::smallint, (e.t->>'bathrooms')::numeric, (e.t->>'area_min')::numeric,
            (e.t->>'area_max')::numeric, (e.t->>'price_min')::numeric, (e.t->>'price_max')::numeric, (e.t->>'units_available')::integer, e.t->>'model',
            e.t->'source_media'
       from e where e.id is null`,
    [projectId, JSON.stringify(types.map((t, i) => ({ ...t, id: matched[i] })))],
  );
}

/** A listing record's project and model (ExpProjectKey, BuilderModel): a unit of that project's type for sale. */
function unitOfRecord(record: FeedRecord): { project: string; model: string | null } | null {
  const project = text(record.ExpProjectKey, 100);
  return project ? { project, model: text(record.BuilderModel, 80) } : null;
}

export type UnitsReport = {
  /** listings now of a project's unit type, and those no longer */
  linked: number;
  unlinked: number;
  /** keys of listings whose project or model the source does not have (stored as plain listings) */
  unmatched: string[];
};

/**
 * The source's listings that name a project's unit type, linked to it (docs/import.md "Units of a
 * project"); `links` also holds, with no project, the listings that were of one and no longer say
 * so. By the project's key in the same source and the type's model, case ignored.
 */
async function linkUnits(db: Database, source: string, links: UnitLink[]): Promise<UnitsReport> {
  if (!links.length) return { linked: 0, unlinked: 0, unmatched: [] };
  const [row] = await db.jobs.query<UnitsReport>(
    `with l as (select * from jsonb_to_recordset($2::jsonb) as x(key text, project text, model text)),
     m as (
       select l.key, l.project, (select t.id from internal.projects p join internal.project_unit_types t on t.project_id = p.id
                                  where p.source = $1 and p.source_key = l.project and lower(t.model) = lower(l.model)) as type_id
         from l),
     u as (
       update internal.listings x set unit_type_id = m.type_id from m
        where x.source = $1 and x.source_key = m.key and x.unit_type_id is distinct from m.type_id
       returning m.type_id)
     select (select count(*) from u where type_id is not null)::int as linked, (select count(*) from u where type_id is null)::int as unlinked,
            coalesce((select array_agg(key order by key) from m where project is not null and type_id is null), '{}') as unmatched`,
    [source, JSON.stringify(links)],
  );
  return row ?? { linked: 0, unlinked: 0, unmatched: [] };
}

type UnitLink = { key: string; project: string | null; model: string | null };

/**
 * A run's units of projects: `note` each listing the feed has (a unit when it names its project, or
 * one that was and no longer says so), `link` them once the run's projects are stored.
 */
export async function unitLinks(db: Database, source: string) {
  const before = new Set(
    (
      await db.jobs.query<{ key: string }>(
        'select source_key as key from internal.listings where source = $1 and unit_type_id is not null',
        [source],
      )
    ).map((r) => r.key),
  );
  const links: UnitLink[] = [];
  return {
    note(record: FeedRecord, key: string): void {
      const unit = unitOfRecord(record);
      if (unit) links.push({ key, ...unit });
      else if (before.has(key)) links.push({ key, project: null, model: null });
    },
    async link(log: (line: string) => void): Promise<UnitsReport> {
      const report = await linkUnits(db, source, links);
      if (report.linked || report.unmatched.length)
        log(
          `${source}: ${report.linked} listings linked to their projects' unit types, ${report.unmatched.length} name a project or model the feed does not have`,
        );
      return report;
    },
  };
}

/**
 * The source's projects stored: each by its source and key (its slug kept once made; another
 * project's slug gets the key after it), its unit types in the feed's order, updated in place (so
 * its listing is not new again for the alerts); a whole feed withdraws the source's active projects
 * it no longer has, unless they are more than `maxShare` of them (held, as the listings are).
 */
export async function storeProjects(
  db: Database,
  source: string,
  projects: ImportedProject[],
  refusedKeys: string[],
  options: { whole: boolean; maxShare: number; allowWithdrawals: boolean },
): Promise<Pick<ProjectsReport, 'new' | 'updated' | 'withdrawn' | 'held'>> {
  return db.transaction(async (q) => {
    let created = 0;
    let updated = 0;
    for (const p of projects) {
      const [row] = await q.query<{ id: string; inserted: boolean }>(
        `insert into internal.projects as x (source, source_key, slug, name, developer, city, sector, address, geo_lat, geo_lon, description_en,
           description_es, amenities, source_media, stage, progress, delivery, reservation, entrada_pct, agent_id, status)
         values ($1, $2, case when exists (select 1 from internal.projects o where o.slug = $3) then left($3, 60) || '-' || $21 else $3 end,
           $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::text[], $14::jsonb, $15, $16, $17::date, $18, $19,
           (select a.id from public.agents a where lower(a.email) = lower($20) order by a.id limit 1), 'active')
         on conflict (source, source_key) do update set name = excluded.name, developer = excluded.developer, city = excluded.city,
           sector = excluded.sector, address = excluded.address, geo_lat = excluded.geo_lat, geo_lon = excluded.geo_lon,
           description_en = excluded.description_en, description_es = excluded.description_es, amenities = excluded.amenities,
           source_media = excluded.source_media, stage = excluded.stage, progress = excluded.progress, delivery = excluded.delivery,
           reservation = excluded.reservation, entrada_pct = excluded.entrada_pct, agent_id = excluded.agent_id, status = 'active'
         returning x.id::text as id, (x.xmax = 0) as inserted`,
        [
          source,
          p.source_key,
          p.slug,
          p.name,
          p.developer,
          p.city,
          p.sector,
          p.address,
          p.geo_lat,
          p.geo_lon,
          p.description_en,
          p.description_es,
          p.amenities,
          JSON.stringify(p.source_media),
          p.stage,
          p.progress,
          p.delivery,
          p.reservation,
          p.entrada_pct,
          p.agent_email,
          slugify(p.source_key).slice(0, 19) || 'x',
        ],
      );
      if (row?.inserted) created++;
      else updated++;
      await storeUnitTypes(q, row?.id ?? '', p.unit_types);
    }
    if (!options.whole) return { new: created, updated, withdrawn: 0, held: 0 };
    // what the feed no longer has (a refused record is still in it: never withdrawn for its fault)
    const kept = [...projects.map((p) => p.source_key), ...refusedKeys];
    const [gone] = await q.query<{ n: number; active: number }>(
      `select count(*) filter (where not (source_key = any ($2::text[])))::int as n, count(*)::int as active
         from internal.projects where source = $1 and status = 'active'`,
      [source, kept],
    );
    const n = gone?.n ?? 0;
    if (!n) return { new: created, updated, withdrawn: 0, held: 0 };
    // as the listings' (internal.import_merge): held when more than five and more than the share
    if (!options.allowWithdrawals && n > 5 && n > (gone?.active ?? 0) * options.maxShare)
      return { new: created, updated, withdrawn: 0, held: n };
    await q.query(
      "update internal.projects set status = 'withdrawn' where source = $1 and status = 'active' and not (source_key = any ($2::text[]))",
      [source, kept],
    );
    return { new: created, updated, withdrawn: n, held: 0 };
  });
}
