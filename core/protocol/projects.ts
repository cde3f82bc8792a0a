/**
 * A new development as the data API answers it (public.projects, public.project_unit_types:
 * supabase/schemas/47_projects.sql; docs/projects.md), and what its card and its page say of it.
 */
import type { Translate } from '../translate.ts';
import { formatArea, formatCount, formatPrice } from './format.ts';
import { normaliseImages, typeLabel } from './listing.ts';
import { PROJECT_STAGES, type ProjectStage } from './filters.ts';

export interface Project {
  id: string;
  slug: string;
  name: string;
  developer: string | null;
  city: string;
  sector: string | null;
  address: string | null;
  lat: number | null;
  lng: number | null;
  description: { en: string; es: string };
  amenities: string[];
  images: string[];
  stage: ProjectStage;
  /** how far the works are, percent (while being built) */
  progress: number | null;
  /** the month of delivery, 'YYYY-MM-01' */
  delivery: string | null;
  reservation: number;
  entradaPct: number;
  agentId: string | null;
  /** its listing in the search (docs/projects.md "In the search"): what an inquiry about it names */
  listingId: string | null;
  priceFrom: number;
  priceTo: number;
  bedroomsMin: number;
  bedroomsMax: number;
  areaFrom: number;
  unitsAvailable: number;
  updatedAt: string;
}

export interface UnitType {
  id: string;
  type: string;
  bedrooms: number;
  bathrooms: number | null;
  areaMin: number;
  areaMax: number;
  priceMin: number;
  priceMax: number;
  available: number;
  floorPlans: string[];
  /** the builder's name of the model ("Tipo B"), when the project names it */
  model: string | null;
}

/** A unit of the project for sale, a listing of its own (docs/projects.md "Its units"). */
export interface ListedUnit {
  id: string;
  title: string;
  price: number;
  area: number | null;
  typeId: string;
}

const num = (v: unknown): number | null =>
  v === null || v === undefined || v === '' || !Number.isFinite(Number(v)) ? null : Number(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v : null);

/** A row of public.projects; its photos as a listing's (only safe addresses, relative ones on `apiBase`). */
export function parseProject(row: Record<string, unknown>, apiBase: string): Project {
  return {
    id: String(row.id),
    slug: String(row.slug),
    name: String(row.name ?? ''),
    developer: str(row.developer),
    city: String(row.city ?? ''),
    sector: str(row.sector),
    address: str(row.address),
    lat: num(row.geo_lat),
    lng: num(row.geo_lon),
    description: { en: str(row.description_en) ?? '', es: str(row.description_es) ?? '' },
    amenities: Array.isArray(row.amenities) ? row.amenities.filter((a): a is string => typeof a === 'string') : [],
    images: normaliseImages(row.images, apiBase),
    stage: (PROJECT_STAGES as readonly unknown[]).includes(row.stage) ? (row.stage as ProjectStage) : 'pre_sale',
    progress: num(row.progress),
    delivery: str(row.delivery)?.slice(0, 10) ?? null,
    reservation: num(row.reservation) ?? 0,
    entradaPct: num(row.entrada_pct) ?? 30,
    agentId: row.agent_id === null || row.agent_id === undefined ? null : String(row.agent_id),
    listingId: row.listing_id === null || row.listing_id === undefined ? null : String(row.listing_id),
    priceFrom: num(row.price_from) ?? 0,
    priceTo: num(row.price_to) ?? 0,
    bedroomsMin: num(row.bedrooms_min) ?? 0,
    bedroomsMax: num(row.bedrooms_max) ?? 0,
    areaFrom: num(row.area_from) ?? 0,
    unitsAvailable: num(row.units_available) ?? 0,
    updatedAt: String(row.updated_at ?? ''),
  };
}

export function parseUnitType(row: Record<string, unknown>, apiBase: string): UnitType {
  return {
    id: String(row.id),
    type: String(row.property_type ?? ''),
    bedrooms: num(row.bedrooms) ?? 0,
    bathrooms: num(row.bathrooms),
    areaMin: num(row.area_min) ?? 0,
    areaMax: num(row.area_max) ?? 0,
    priceMin: num(row.price_min) ?? 0,
    priceMax: num(row.price_max) ?? 0,
    available: num(row.units_available) ?? 0,
    floorPlans: normaliseImages(row.floor_plans, apiBase),
    model: str(row.model),
  };
}

export function parseListedUnit(row: Record<string, unknown>): ListedUnit {
  return {
    id: String(row.id),
    title: String(row.title ?? ''),
    price: num(row.price) ?? 0,
    area: num(row.square_feet),
    typeId: String(row.unit_type_id),
  };
}

/** A range as a card says it: '1-3', or '2' when both ends are one. */
const range = (a: number, b: number) => (a === b ? String(a) : `${a}-${b}`);

/** The year of delivery, or null. */
const deliveryYear = (p: Pick<Project, 'delivery'>) => (p.delivery ? Number(p.delivery.slice(0, 4)) : null);

/** The month of delivery in words ('June 2028', 'junio de 2028'). */
export function deliveryMonth(p: Pick<Project, 'delivery'>, lang: string): string | null {
  if (!p.delivery) return null;
  const d = new Date(`${p.delivery.slice(0, 10)}T12:00:00Z`);
  return new Intl.DateTimeFormat(lang === 'es' ? 'es-EC' : 'en-US', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(d);
}

/** What a project's card says under its name: "From $98,000 · 1-3 bedrooms · Delivery 2027". */
export function projectLine(p: Project, t: Translate): string {
  const year = deliveryYear(p);
  return [
    t('projects.from', { price: formatPrice(p.priceFrom) }),
    t('projects.bedrooms', { count: p.bedroomsMax, range: range(p.bedroomsMin, p.bedroomsMax) }),
    p.stage === 'delivered' ? t('projects.stage.delivered') : year ? t('projects.delivery', { year }) : null,
  ]
    .filter(Boolean)
    .join(' · ');
}

/**
 * A unit type's row of the table (its type and bedrooms, its areas and its prices), and its choice
 * in the payment plan's select: its model and type, the price the plan starts from, then its areas
 * (a phone cuts a select's text at its end: at 320 px after about 39 characters).
 */
export function unitTypeCells(
  u: UnitType,
  t: Translate,
): { name: string; area: string; price: string; choice: string } {
  const area = u.areaMin === u.areaMax ? formatArea(u.areaMin) : `${formatCount(u.areaMin)}-${formatArea(u.areaMax)}`;
  const kind = [u.model, typeLabel(u.type, t)].filter(Boolean).join(' · ');
  return {
    name: [kind, t('projects.bedrooms', { count: u.bedrooms, range: String(u.bedrooms) })].join(' · '),
    area,
    price: u.priceMin === u.priceMax ? formatPrice(u.priceMin) : t('projects.from', { price: formatPrice(u.priceMin) }),
    choice: `${kind}, ${formatPrice(u.priceMin)}, ${area}`,
  };
}
