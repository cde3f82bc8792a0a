/**
 * The seed's new developments (docs/projects.md "The seed"): projects as Quito's, Guayaquil's and
 * Cuenca's market sells them, each with the unit types its sector's buyers compare, some in
 * pre-sale, some being built, some delivered; their delivery months counted from the seed's day,
 * so a project in pre-sale is always to be delivered. Prices per m² near their sectors' asking
 * prices, a little above resale, as new construction asks.
 */
import type { AgentRow } from './agents.ts';
import { agentColumns, MEDIA } from './draw.ts';
import type { ProjectColumns, UnitTypeColumns } from '../import/projects.ts';

export interface ProjectRow extends ProjectColumns {
  id: number;
  images: string[];
  developer: string;
  sector: string;
  address: string;
  geo_lat: number;
  geo_lon: number;
  description_en: string;
  description_es: string;
  agent_id: number;
  source: string;
}

export interface UnitTypeRow extends UnitTypeColumns {
  id: number;
  project_id: number;
  position: number;
  bathrooms: number;
  floor_plans: string[];
  model: string;
}

export const PROJECT_COLUMNS = [
  'id',
  'slug',
  'name',
  'developer',
  'city',
  'sector',
  'address',
  'geo_lat',
  'geo_lon',
  'description_en',
  'description_es',
  'amenities',
  'images',
  'stage',
  'progress',
  'delivery',
  'reservation',
  'entrada_pct',
  'agent_id',
  'source',
  'source_key',
] as const satisfies ReadonlyArray<keyof ProjectRow>;

export const UNIT_TYPE_COLUMNS = [
  'id',
  'project_id',
  'position',
  'property_type',
  'bedrooms',
  'bathrooms',
  'area_min',
  'area_max',
  'price_min',
  'price_max',
  'units_available',
  'floor_plans',
  'model',
] as const satisfies ReadonlyArray<keyof UnitTypeRow>;

/** A unit of a project for sale (docs/projects.md "Its units"): a listing of its own that names its type. */
export interface UnitListingRow {
  title: string;
  address: string;
  price: number;
  bedrooms: number;
  bathrooms: number;
  square_feet: number;
  property_type: string;
  city: string;
  state: string;
  sector: string;
  images: string[];
  geo_lat: string;
  geo_lon: string;
  description: string;
  status: string;
  agent_id: number;
  agent_first_name: string | null;
  agent_last_name: string | null;
  agent_email: string | null;
  agent_phone: string | null;
  agent_picture: string | null;
  features: string[];
  year_built: number | null;
  created_at: string;
  listed_at: string;
  appeared_at: string;
  operation: 'sale';
  unit_type_id: number;
  source: string;
  source_key: string;
}

export const UNIT_LISTING_COLUMNS = [
  'title',
  'address',
  'price',
  'bedrooms',
  'bathrooms',
  'square_feet',
  'property_type',
  'city',
  'state',
  'sector',
  'images',
  'geo_lat',
  'geo_lon',
  'description',
  'status',
  'agent_id',
  'agent_first_name',
  'agent_last_name',
  'agent_email',
  'agent_phone',
  'agent_picture',
  'features',
  'year_built',
  'created_at',
  'listed_at',
  'appeared_at',
  'operation',
  'unit_type_id',
  'source',
  'source_key',
] as const satisfies ReadonlyArray<keyof UnitListingRow>;

/** A unit type as written below: type, bedrooms, bathrooms, m² from-to, USD/m² of the smallest and of the largest, units left. */
type Unit = [
  type: string,
  beds: number,
  baths: number,
  areaMin: number,
  areaMax: number,
  perM2Min: number,
  perM2Max: number,
  left: number,
];

interface Project {
  slug: string;
  name: string;
  developer: string;
  city: string;
  sector: string;
  address: string;
  at: [lat: number, lng: number];
  en: string;
  es: string;
  amenities: string[];
  photos: string[];
  stage: ProjectRow['stage'];
  progress?: number;
  /** months from the seed's day to delivery (negative: delivered that long ago) */
  deliveryIn: number;
  reservation: number;
  entradaPct: number;
  agent: number;
  units: Unit[];
}

const photo = (name: string) => `${MEDIA}/${name}.webp`;

// prettier-ignore
const PROJECTS: Project[] = [
  {
    slug: 'altos-de-la-carolina', name: 'Altos de La Carolina', developer: 'Constructora Andina', city: 'Quito', sector: 'La Carolina',
    address: 'Av. República de El Salvador N35-120', at: [-0.1837, -78.4823],
    en: 'Eighteen floors beside La Carolina park, a walk from the financial district. Suites and flats with a view of the Pichincha, a rooftop with a coworking room and a gym, two lifts and security around the clock.',
    es: 'Dieciocho pisos junto al parque La Carolina, a pasos del centro financiero. Suites y departamentos con vista al Pichincha, terraza con coworking y gimnasio, dos ascensores y seguridad las 24 horas.',
    amenities: ['rooftop', 'coworking', 'gym', 'elevator', 'security', 'visitor_parking'], photos: ['apartment-3', 'living-2', 'kitchen-1', 'view-1'],
    stage: 'pre_sale', deliveryIn: 26, reservation: 2000, entradaPct: 30, agent: 1,
    units: [['suite', 1, 1, 58, 66, 1790, 1850, 14], ['apartment', 2, 2, 82, 96, 1720, 1790, 22], ['apartment', 3, 3, 118, 134, 1690, 1760, 9]],
  },
  {
    slug: 'torre-quito-tenis', name: 'Torre Quito Tenis', developer: 'Grupo Pichincha Desarrollos', city: 'Quito', sector: 'Quito Tenis',
    address: 'Calle Rumipamba E2-45 y Av. Brasil', at: [-0.1712, -78.4901],
    en: 'A quiet street of Quito Tenis, twelve floors of large flats with a garden on the ground floor, a party room and a children\'s play area. The structure is done; the works are on the finishes.',
    es: 'Una calle tranquila de Quito Tenis, doce pisos de departamentos amplios con jardín en planta baja, sala comunal y juegos infantiles. La estructura está terminada; la obra va en acabados.',
    amenities: ['garden', 'party_room', 'playground', 'elevator', 'security', 'bbq'], photos: ['apartment-5', 'living-4', 'bedroom-2', 'garden-1'],
    stage: 'under_construction', progress: 65, deliveryIn: 9, reservation: 3000, entradaPct: 30, agent: 1,
    units: [['apartment', 2, 2, 98, 112, 1890, 1950, 6], ['apartment', 3, 3, 142, 168, 1850, 1920, 4], ['apartment', 4, 4, 235, 260, 2100, 2150, 1]],
  },
  {
    slug: 'bosque-norte', name: 'Bosque Norte', developer: 'Inmobiliaria Los Andes', city: 'Quito', sector: 'El Bosque',
    address: 'Av. Occidental y Calle Edmundo Carvajal', at: [-0.1601, -78.4987],
    en: 'Flats for a first home near El Bosque shopping centre, priced for a BIESS mortgage: a pool, a gym and green areas inside a closed complex.',
    es: 'Departamentos para la primera vivienda cerca del Centro Comercial El Bosque, con precios para crédito BIESS: piscina, gimnasio y áreas verdes dentro de un conjunto cerrado.',
    amenities: ['pool', 'gym', 'green_areas', 'playground', 'security'], photos: ['apartment-1', 'living-1', 'kitchen-3'],
    stage: 'pre_sale', deliveryIn: 20, reservation: 1000, entradaPct: 30, agent: 1,
    units: [['apartment', 1, 1, 52, 58, 1350, 1420, 18], ['apartment', 2, 2, 68, 79, 1320, 1390, 26], ['apartment', 3, 2, 88, 96, 1300, 1360, 12]],
  },
  {
    slug: 'jardines-de-cumbaya', name: 'Jardines de Cumbayá', developer: 'Valle Verde Constructores', city: 'Cumbayá', sector: 'Jardines del Este',
    address: 'Calle Pampite y Vía Láctea', at: [-0.2041, -78.4338],
    en: 'Twenty houses with their own gardens in a gated community, ten minutes from the international schools of the valley. Delivered this year: the last houses are ready to move into.',
    es: 'Veinte casas con jardín propio en un conjunto cerrado, a diez minutos de los colegios internacionales del valle. Entregado este año: las últimas casas están listas para habitar.',
    amenities: ['garden', 'security', 'playground', 'bbq', 'pet_area', 'visitor_parking'], photos: ['house-2', 'garden-2', 'living-5', 'kitchen-4'],
    stage: 'delivered', deliveryIn: -4, reservation: 5000, entradaPct: 30, agent: 1,
    units: [['house', 3, 3.5, 185, 210, 1620, 1680, 3], ['house', 4, 4.5, 240, 265, 1600, 1650, 1]],
  },
  {
    slug: 'mirador-de-cumbaya', name: 'Mirador de Cumbayá', developer: 'Constructora Andina', city: 'Cumbayá', sector: 'Miravalle',
    address: 'Calle Miravalle Alto, lote 14', at: [-0.1959, -78.4412],
    en: 'Terraced flats on the slope of Miravalle with a view over the valley, a heated pool and a spa. Foundations poured; the second floor is rising.',
    es: 'Departamentos escalonados en la ladera de Miravalle con vista al valle, piscina temperada y spa. Cimentación lista; se levanta el segundo piso.',
    amenities: ['pool', 'spa', 'gym', 'green_areas', 'security', 'elevator'], photos: ['apartment-7', 'view-2', 'living-6', 'bathroom-1'],
    stage: 'under_construction', progress: 30, deliveryIn: 18, reservation: 2500, entradaPct: 35, agent: 1,
    units: [['apartment', 2, 2, 95, 110, 1750, 1820, 8], ['apartment', 3, 3, 130, 150, 1720, 1800, 5]],
  },
  {
    slug: 'riverside-samborondon', name: 'Riverside Samborondón', developer: 'Costa Urbana', city: 'Samborondón', sector: 'Km 5 Vía Samborondón',
    address: 'Km 5 Vía Samborondón, junto al río Babahoyo', at: [-2.1354, -79.8781],
    en: 'Towers on the bank of the Babahoyo with flats facing the river, a lagoon pool, sports courts and a clubhouse. Sold off the plan with a 30% entrada in monthly cuotas.',
    es: 'Torres a orillas del río Babahoyo con departamentos frente al río, piscina tipo laguna, canchas deportivas y casa club. En preventa con el 30% de entrada en cuotas mensuales.',
    amenities: ['pool', 'sports_court', 'gym', 'party_room', 'security', 'elevator', 'playground'], photos: ['apartment-2', 'view-3', 'living-3', 'bedroom-4'],
    stage: 'pre_sale', deliveryIn: 30, reservation: 2000, entradaPct: 30, agent: 2,
    units: [['apartment', 1, 1, 55, 62, 1650, 1700, 20], ['apartment', 2, 2, 85, 98, 1600, 1680, 30], ['apartment', 3, 3, 125, 140, 1580, 1650, 14]],
  },
  {
    slug: 'costa-serena', name: 'Costa Serena', developer: 'Costa Urbana', city: 'Guayaquil', sector: 'Vía a la Costa',
    address: 'Km 14 Vía a la Costa', at: [-2.1902, -80.0198],
    en: 'Houses of two floors in a gated community on the Vía a la Costa, with a clubhouse, a pool and green areas. Phase two is being built; phase one is lived in.',
    es: 'Casas de dos plantas en una urbanización cerrada de la Vía a la Costa, con casa club, piscina y áreas verdes. La segunda etapa está en construcción; la primera ya está habitada.',
    amenities: ['pool', 'green_areas', 'party_room', 'security', 'sports_court', 'pet_area'], photos: ['house-4', 'garden-3', 'living-2', 'kitchen-2'],
    stage: 'under_construction', progress: 45, deliveryIn: 12, reservation: 1500, entradaPct: 30, agent: 2,
    units: [['house', 3, 2.5, 120, 135, 1050, 1100, 15], ['house', 4, 3.5, 160, 180, 1030, 1080, 7]],
  },
  {
    slug: 'el-vergel-cuenca', name: 'El Vergel', developer: 'Austro Construcciones', city: 'Cuenca', sector: 'El Vergel',
    address: 'Calle de las Herrerías y Av. 12 de Abril', at: [-2.9058, -79.0013],
    en: 'Six floors by the Tomebamba river, a walk from the historic centre: flats with balconies, a rooftop terrace over the domes of Cuenca and a bicycle room.',
    es: 'Seis pisos junto al río Tomebamba, a pasos del centro histórico: departamentos con balcón, terraza con vista a las cúpulas de Cuenca y cuarto de bicicletas.',
    amenities: ['rooftop', 'elevator', 'security', 'bbq'], photos: ['apartment-4', 'view-4', 'living-1', 'bedroom-1'],
    stage: 'pre_sale', deliveryIn: 22, reservation: 1500, entradaPct: 30, agent: 3,
    units: [['apartment', 1, 1, 60, 68, 1350, 1400, 8], ['apartment', 2, 2, 88, 102, 1320, 1380, 12], ['apartment', 3, 2, 115, 128, 1300, 1350, 5]],
  },
  {
    slug: 'challuabamba-villas', name: 'Challuabamba Villas', developer: 'Austro Construcciones', city: 'Cuenca', sector: 'Challuabamba',
    address: 'Vía a Challuabamba, sector La Campiña', at: [-2.8741, -78.9335],
    en: 'Houses with gardens in the sunny valley east of Cuenca, delivered last year: two left, ready to move into, with a BIESS-approved price.',
    es: 'Casas con jardín en el valle soleado al este de Cuenca, entregadas el año pasado: quedan dos, listas para habitar, con precio aprobado por el BIESS.',
    amenities: ['garden', 'green_areas', 'security', 'bbq', 'playground'], photos: ['house-6', 'garden-4', 'living-4'],
    stage: 'delivered', deliveryIn: -14, reservation: 3000, entradaPct: 30, agent: 3,
    units: [['house', 3, 3, 160, 175, 1150, 1200, 2]],
  },
];

/** The first day of the month `months` after the seed's day `now` (ms), as a date. */
function monthFrom(now: number, months: number): string {
  const d = new Date(now);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1)).toISOString().slice(0, 10);
}

/** The names developers give their houses' models, in the order of the types. */
const HOUSE_MODELS = ['Arupo', 'Guayacán', 'Cedro', 'Nogal'];

/** Rounds a price to the thousand, as developers' price lists do. */
const thousand = (x: number) => Math.round(x / 1000) * 1000;

export function seedProjects(now: number): { projects: ProjectRow[]; unitTypes: UnitTypeRow[] } {
  const projects: ProjectRow[] = [];
  const unitTypes: UnitTypeRow[] = [];
  PROJECTS.forEach((p, i) => {
    const id = i + 1;
    projects.push({
      id,
      slug: p.slug,
      name: p.name,
      developer: p.developer,
      city: p.city,
      sector: p.sector,
      address: p.address,
      geo_lat: p.at[0],
      geo_lon: p.at[1],
      description_en: p.en,
      description_es: p.es,
      amenities: p.amenities,
      images: p.photos.map(photo),
      stage: p.stage,
      progress: p.stage === 'under_construction' ? (p.progress ?? 0) : null,
      delivery: monthFrom(now, p.deliveryIn),
      reservation: p.reservation,
      entrada_pct: p.entradaPct,
      agent_id: p.agent,
      source: 'seed',
      source_key: p.slug,
    });
    p.units.forEach(([type, beds, baths, areaMin, areaMax, perMin, perMax, left], position) => {
      unitTypes.push({
        id: unitTypes.length + 1,
        project_id: id,
        position,
        property_type: type,
        bedrooms: beds,
        bathrooms: baths,
        area_min: areaMin,
        area_max: areaMax,
        price_min: thousand(areaMin * perMin),
        price_max: thousand(areaMax * perMax),
        units_available: left,
        // a drawing of the type's layout (supabase/seed/media/listings/plan-*.svg, served as .webp: drawings.ts)
        floor_plans: [
          photo(type === 'house' ? 'plan-house' : beds <= 1 ? 'plan-suite' : beds === 2 ? 'plan-2br' : 'plan-3br'),
        ],
        model: type === 'house' ? `Modelo ${HOUSE_MODELS[position]}` : `Tipo ${'ABCDEFGH'[position]}`,
      });
    });
  });
  return { projects, unitTypes };
}

/** The provinces of the projects' cities (a listing says its province). */
const PROVINCE: Record<string, string> = {
  Quito: 'Pichincha',
  Cumbayá: 'Pichincha',
  Guayaquil: 'Guayas',
  Samborondón: 'Guayas',
  Cuenca: 'Azuay',
};

const DAY = 86_400_000;

/**
 * Some of each project's available units for sale as listings of their own (docs/projects.md "Its
 * units"): one of each type in pre-sale, two (as many as are left) once it is being built or
 * delivered; the first the type's smallest and cheapest, the next its middle. Titled in Spanish, as
 * the developers list them, each with its project's description.
 */
export function seedUnits(
  projects: ProjectRow[],
  unitTypes: UnitTypeRow[],
  agents: AgentRow[],
  now: number,
): UnitListingRow[] {
  const units: UnitListingRow[] = [];
  for (const t of unitTypes) {
    const p = projects.find((x) => x.id === t.project_id);
    const agent = agents.find((a) => a.id === p?.agent_id);
    if (!p || !agent) continue;
    const n = Math.min(p.stage === 'pre_sale' ? 1 : 2, t.units_available);
    for (let k = 0; k < n; k++) {
      const share = k / 2;
      const area = Math.round(t.area_min + (t.area_max - t.area_min) * share);
      const price = Math.min(
        t.price_max,
        Math.max(t.price_min, Math.round((t.price_min + (t.price_max - t.price_min) * share) / 1000) * 1000),
      );
      const house = t.property_type === 'house';
      const number = house
        ? `${3 + t.position * 4 + k * 2}`
        : `${2 + ((t.position * 3 + k * 5) % 10)}0${1 + t.position + k}`;
      const what = house ? `Casa ${number}` : `${t.property_type === 'suite' ? 'Suite' : 'Departamento'} ${number}`;
      const onSale = new Date(now - (10 + ((t.id * 7 + k * 3) % 50)) * DAY).toISOString();
      units.push({
        title: `${what} · ${t.model}, ${p.name}`,
        address: `${p.address}, ${house ? 'casa' : 'unidad'} ${number}`,
        price,
        bedrooms: t.bedrooms,
        bathrooms: t.bathrooms,
        square_feet: area,
        property_type: t.property_type,
        city: p.city,
        state: PROVINCE[p.city] ?? p.city,
        sector: p.sector,
        images: p.images,
        geo_lat: String(p.geo_lat),
        geo_lon: String(p.geo_lon),
        description: `${p.description_es} ${what}, ${t.model}: ${area} m², ${t.bedrooms} dormitorios y ${String(t.bathrooms).replace('.', ',')} baños, de ${p.developer}.`,
        status: '1',
        ...agentColumns(agent),
        features: p.amenities.includes('pool') ? ['new_construction', 'pool'] : ['new_construction'],
        year_built: p.delivery ? Number(p.delivery.slice(0, 4)) : null,
        // put on sale in the two months before the seed's date, among the other listings, which are
        // spread over the two years before it: the home's newest are the market's
        created_at: onSale,
        listed_at: onSale,
        appeared_at: onSale,
        operation: 'sale',
        unit_type_id: t.id,
        source: 'seed',
        source_key: `${p.slug}/${t.model}/${number}`,
      });
    }
  }
  return units;
}
