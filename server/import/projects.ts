/**
 * New developments from the feeds (docs/import.md "New developments", docs/projects.md): a record
 * that carries RESO's `PropertyUnitTypes` (a RESO Web API or JSON record; a CSV of the projects
 * template, one row a unit type) is a project, not a listing. Its fields are read as RESO names
 * them (`BuildingName`, `BuilderName`, `PropertyCondition`, `NewConstructionYN`, the unit types'
 * `UnitTypeType`, `UnitTypeBedsTotal`, `UnitTypeBathsTotal`, `UnitTypeUnitsTotal`) and, where RESO
 * has no name (a sale's delivery, progress, payment plan and each type's ranges), by ours with the
 * `Exp` prefix. What the database would refuse is refused here first, with its reason: a project
 * without a unit type, a range that runs backwards, a project in pre-sale delivered in the past.
 * Stored per source and key: a project the feed no longer has is withdrawn, within the run's share
 * of withdrawals (never by a run that read nothing).
 */
import { nowDate } from '../../core/clock.ts';
import { slugify } from '../../core/routes.ts';
import type { ProjectStage } from '../../core/protocol/filters.ts';
import type { Database, Queryable } from '../db/database.ts';
import { feedPhotos } from './field-map.ts';
import type { FeedPhoto, FeedRecord } from './mapping.ts';
import { list, number, plainText, squash, text, yes } from './values.ts';

/** A row of internal.projects as written (47_projects.sql), nullable where the table is; the seed's rows are these too. */
export interface ProjectColumns {
  slug: string;
  name: string;
  developer: string | null;
  city: string;
  sector: string | null;
  address: string | null;
  geo_lat: number | null;
  geo_lon: number | null;
  description_en: string | null;
  description_es: string | null;
  amenities: string[];
  stage: ProjectStage;
  progress: number | null;
  delivery: string | null;
  reservation: number;
  entrada_pct: number;
  source_key: string;
}

/** A row of internal.project_unit_types as written, without its project and place in the list. */
export interface UnitTypeColumns {
  property_type: string;
  bedrooms: number;
  bathrooms: number | null;
  area_min: number;
  area_max: number;
  price_min: number;
  price_max: number;
  units_available: number;
  /** the builder's name of the model (BuilderModel), by which its units for sale name it */
  model: string | null;
  /** a feed's type: its floor plans as the feed names them (made here as photos: docs/import.md "New developments") */
  source_media?: FeedPhoto[];
}

/** A project as a feed says it: its columns, its photos as the feed names them (made here: docs/import.md "Photos"), its agent by e-mail, its unit types in order. */
export interface ImportedProject extends ProjectColumns {
  source_media: FeedPhoto[];
  agent_email: string | null;
  unit_types: UnitTypeColumns[];
}

export type MappedProject = { ok: true; project: ImportedProject } | { ok: false; key: string; reasons: string[] };

/** A record is a project when it says its unit types (an empty list too: refused, as a project that sells nothing). */
export const isProjectRecord = (record: FeedRecord): boolean => Array.isArray(record.PropertyUnitTypes);

/** RESO's PropertyCondition as a project's stage */
const STAGES: Record<string, ProjectStage> = {
  tobebuilt: 'pre_sale',
  presale: 'pre_sale',
  underconstruction: 'under_construction',
  newconstruction: 'delivered',
  completed: 'delivered',
  delivered: 'delivered',
};

/** RESO's AssociationAmenities as ours (letters and case ignored) */
const AMENITIES: Record<string, string> = {
  pool: 'pool',
  fitnesscenter: 'gym',
  exerciseroom: 'gym',
  gym: 'gym',
  barbecue: 'bbq',
  bbq: 'bbq',
  playground: 'playground',
  businesscenter: 'coworking',
  coworking: 'coworking',
  roofdeck: 'rooftop',
  rooftop: 'rooftop',
  security: 'security',
  gated: 'security',
  concierge: 'security',
  elevators: 'elevator',
  elevator: 'elevator',
  guestparking: 'visitor_parking',
  dogpark: 'pet_area',
  petarea: 'pet_area',
  garden: 'garden',
  spahottub: 'spa',
  sauna: 'spa',
  spa: 'spa',
  partyroom: 'party_room',
  clubhouse: 'party_room',
  park: 'green_areas',
  greenbelt: 'green_areas',
  tenniscourts: 'sports_court',
  sportcourt: 'sports_court',
  basketballcourt: 'sports_court',
};

/** Two names of one model: case ignored, as the database's unique index and the units' link read them (lower()). */
const sameModel = (a: string | null, b: string) => a !== null && a.toLowerCase() === b.toLowerCase();

/** RESO's UnitTypeType: the bedrooms it says, for a unit type that does not count them */
const TYPE_BEDS: Record<string, number> = {
  studio: 0,
  efficiency: 0,
  onebedroom: 1,
  twobedroom: 2,
  threebedroom: 3,
  fourbedroomormore: 4,
};

/** The month a date names ('2027-06', '2027-06-15'), as its first day; null when it names none. */
function month(v: unknown): string | null {
  const m = /^(\d{4})-(\d{2})(?:-\d{2})?/.exec(text(v, 40) ?? '');
  if (!m || Number(m[2]) < 1 || Number(m[2]) > 12) return null;
  return `${m[1]}-${m[2]}-01`;
}

/** A project's record as ours, or the reasons it is refused. */
export function mapProject(record: FeedRecord, lang: 'es' | 'en' = 'es'): MappedProject {
  const key = text(record.ListingKey, 100) ?? '';
  const reasons: string[] = [];
  const name = text(record.BuildingName, 120) ?? text(record.SubdivisionName, 120);
  const city = text(record.City, 100);
  if (!key) reasons.push('no ListingKey');
  if (!name) reasons.push('no BuildingName: a project needs its name');
  if (!city) reasons.push('no City');
  const condition = squash(text(record.PropertyCondition, 60) ?? '');
  const delivery = month(record.ExpDeliveryDate);
  const today = nowDate().toISOString().slice(0, 7);
  const stage = STAGES[condition] ?? (delivery && delivery.slice(0, 7) < today ? 'delivered' : 'pre_sale');
  if (condition && !STAGES[condition])
    reasons.push(
      `PropertyCondition "${text(record.PropertyCondition, 60)}" is no stage we know (To Be Built, Under Construction, New Construction)`,
    );
  if (stage !== 'delivered' && !delivery)
    reasons.push('no ExpDeliveryDate: a project not yet delivered says when it will be');
  if (stage === 'pre_sale' && delivery && delivery.slice(0, 7) < today)
    reasons.push(`in pre-sale with its delivery in the past (${delivery.slice(0, 7)})`);
  const progress = number(record.ExpConstructionProgress);
  if (stage === 'under_construction' && (progress === null || progress < 0 || progress > 100))
    reasons.push('under construction without its ExpConstructionProgress (0 to 100)');
  const entrada = number(record.ExpEntradaPercent) ?? 30;
  if (entrada < 10 || entrada > 60) reasons.push(`ExpEntradaPercent ${entrada} is not 10 to 60`);
  const types = (record.PropertyUnitTypes as unknown[]).filter(
    (u): u is FeedRecord => Boolean(u) && typeof u === 'object' && !Array.isArray(u),
  );
  if (!types.length) reasons.push('no unit types (PropertyUnitTypes is empty): a project sells at least one');
  const unitTypes: ImportedProject['unit_types'] = [];
  types.forEach((u, i) => {
    const label = text(u.UnitTypeKey, 60) ?? text(u.UnitTypeType, 60) ?? `#${i + 1}`;
    const priceMin = number(u.ExpPriceMin);
    const priceMax = number(u.ExpPriceMax) ?? priceMin;
    const areaMin = number(u.ExpAreaMin);
    const areaMax = number(u.ExpAreaMax) ?? areaMin;
    const beds = number(u.UnitTypeBedsTotal) ?? TYPE_BEDS[squash(text(u.UnitTypeType, 60) ?? '')] ?? null;
    if (priceMin === null || priceMin <= 0) reasons.push(`unit type ${label}: no ExpPriceMin`);
    else if (priceMax !== null && priceMax < priceMin)
      reasons.push(`unit type ${label}: its price runs backwards (${priceMin} to ${priceMax})`);
    if (areaMin === null || areaMin <= 0) reasons.push(`unit type ${label}: no ExpAreaMin`);
    else if (areaMax !== null && areaMax < areaMin)
      reasons.push(`unit type ${label}: its area runs backwards (${areaMin} to ${areaMax} m²)`);
    if (beds === null || !Number.isInteger(beds) || beds < 0 || beds > 20)
      reasons.push(`unit type ${label}: no bedrooms (UnitTypeBedsTotal)`);
    const model = text(u.BuilderModel, 80);
    if (model && types.slice(0, i).some((o) => sameModel(text(o.BuilderModel, 80), model)))
      reasons.push(`unit type ${label}: its BuilderModel ${model} names another type too`);
    if (priceMin && priceMax && areaMin && areaMax && beds !== null)
      unitTypes.push({
        property_type: /house|casa|villa|townhouse/i.test(text(u.UnitTypeDescription, 200) ?? '')
          ? 'house'
          : 'apartment',
        bedrooms: beds,
        bathrooms: number(u.UnitTypeBathsTotal),
        area_min: areaMin,
        area_max: areaMax,
        price_min: priceMin,
        price_max: priceMax,
        units_available: Math.max(0, Math.round(number(u.UnitTypeUnitsTotal) ?? 0)),
        model,
        // its floor plans: its Media of the category, or the CSV template's ExpFloorPlanURL
        source_media: feedPhotos(
          Array.isArray(u.Media)
            ? u.Media
            : list(u.ExpFloorPlanURL).map((url, order) => ({
                MediaURL: url,
                MediaCategory: 'FloorPlan',
                Order: order,
              })),
          'floorPlans',
        ),
      });
  });
  if (!yes(record.NewConstructionYN ?? 'Y')) reasons.push('NewConstructionYN is false: a project is new construction');
  if (reasons.length || !name || !city) return { ok: false, key, reasons };
  const remarks = plainText(record.PublicRemarks)?.slice(0, 8000) ?? null;
  const lat = number(record.Latitude);
  const lng = number(record.Longitude);
  return {
    ok: true,
    project: {
      source_key: key,
      slug: slugify(name).slice(0, 80) || slugify(key),
      name,
      developer: text(record.BuilderName, 120),
      city,
      sector: text(record.SubdivisionName, 100),
      address: text(record.UnparsedAddress, 200),
      geo_lat: lat !== null && Math.abs(lat) <= 90 ? lat : null,
      geo_lon: lng !== null && Math.abs(lng) <= 180 ? lng : null,
      description_es: lang === 'es' ? remarks : (plainText(record.ExpRemarksEs)?.slice(0, 8000) ?? null),
      description_en: lang === 'en' ? remarks : (plainText(record.ExpRemarksEn)?.slice(0, 8000) ?? null),
      amenities: [...new Set(list(record.AssociationAmenities).flatMap((a) => AMENITIES[squash(a)] ?? []))],
      source_media: feedPhotos(record.Media),
      stage,
      progress: stage === 'under_construction' ? Math.round(progress ?? 0) : null,
      delivery,
      reservation: Math.max(0, number(record.ExpReservation) ?? 0),
      entrada_pct: entrada,
      agent_email: text(record.ListAgentEmail, 200),
      unit_types: unitTypes,
    },
  };
}

/**
 * The CSV template of projects: one row a unit type, the project's columns repeated on each (or only
 * on its first row), the rows of one project under one ListingKey. Read as the records a RESO feed
 * sends: one a project, its rows' UnitType* and Exp* type columns its PropertyUnitTypes.
 */
export function projectRecordsOfCsv(rows: FeedRecord[]): FeedRecord[] {
  const byKey = new Map<string, FeedRecord>();
  const TYPE_FIELD = /^(UnitType\w+|ExpPriceM(in|ax)|ExpAreaM(in|ax)|BuilderModel|ExpFloorPlanURL)$/;
  for (const row of rows) {
    const key = String(row.ListingKey ?? '');
    const project = byKey.get(key) ?? { PropertyUnitTypes: [] as FeedRecord[] };
    const type: FeedRecord = {};
    for (const [k, v] of Object.entries(row)) {
      if (TYPE_FIELD.test(k)) type[k] = v;
      else if (project[k] === undefined) project[k] = v;
    }
    if (Object.keys(type).length) (project.PropertyUnitTypes as FeedRecord[]).push(type);
    byKey.set(key, project);
  }
  return [...byKey.values()];
}

/** Whether a CSV's rows are the projects template (a unit type's column in its header). */
export const isProjectsCsv = (rows: FeedRecord[]): boolean =>
  rows.some((r) => Object.keys(r).some((k) => /^UnitType\w+$/.test(k)));

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
