/**
 * New developments from the feeds (docs/import.md "New developments", docs/projects.md): a record
 * that carries RESO's `PropertyUnitTypes` (a RESO Web API or JSON record; a CSV of the projects
 * template, one row a unit type) is a project, not a listing. Its fields are read as RESO names
 * them (`BuildingName`, `BuilderName`, `PropertyCondition`, `NewConstructionYN`, the unit types'
 * `UnitTypeType`, `UnitTypeBedsTotal`, `UnitTypeBathsTotal`, `UnitTypeUnitsTotal`) and, where RESO
 * has no name (a sale's delivery, progress, payment plan and each type's ranges), by ours with the
 * `Exp` prefix. What the database would refuse is refused here first, with its reason: a project
 * without a unit type, a range that runs backwards, a project in pre-sale delivered in the past.
 * Stored per source and key (./project-store.ts).
 */
import { nowDate } from '../../core/clock.ts';
import { slugify } from '../../core/routes.ts';
import type { ProjectStage } from '../../core/protocol/filters.ts';
import type { Project } from '../../core/protocol/projects.ts';
import { feedPhotos } from './field-map.ts';
import type { FeedPhoto, FeedRecord } from './mapping.ts';
import { list, number, plainText, squash, text, yes } from './values.ts';

/**
 * A row of internal.projects as written (47_projects.sql), nullable where the table is; the seed's
 * rows are these too. Its names and place are the ones the data API answers (core/protocol/projects.ts).
 */
export interface ProjectColumns extends Pick<Project, 'slug' | 'name' | 'developer' | 'city' | 'sector' | 'address'> {
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
export const sameModel = (a: string | null, b: string) => a !== null && a.toLowerCase() === b.toLowerCase();

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
