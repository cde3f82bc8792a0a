/**
 * The seed's homes for rent: a share of the cities' homes, priced by the month per m², with the
 * words agents write for them.
 */
import { type AgentRow } from './agents.ts';
import { PLACES } from './places.ts';
import { type Pick } from './text.ts';
import type { ListingRow } from './rows.ts';
import {
  random,
  imagesFor,
  pointNear,
  sectorPlace,
  listingExtras,
  drawnFacts,
  weighted,
  agentColumns,
  NO_AGENT,
  homeColumns,
  HOUR,
  DAY,
} from './draw.ts';
import { sectorFactor } from './prices.ts';

/** Rent a month per m² at Quito's mid-range (priceFactor 1.0), as [low, high]: a suite's dearer per m², a house's cheaper. */
const RENT_PER_M2: Record<'suite' | 'apartment' | 'house', [number, number]> = {
  suite: [7.5, 12],
  apartment: [5, 9],
  house: [3.5, 6.5],
};

const RENT_AREA: Record<'suite' | 'apartment' | 'house', [number, number]> = {
  suite: [28, 60],
  apartment: [55, 190],
  house: [110, 380],
};

const RENT_CITIES: Record<string, number> = {
  Quito: 0.3,
  Guayaquil: 0.28,
  Cuenca: 0.25,
  Cumbayá: 0.15,
  Samborondón: 0.15,
  Salinas: 0.1,
  Manta: 0.1,
};

/**
 * The homes for rent (docs/product.md "Rent and buy"): in Quito, Guayaquil and Cuenca about a
 * quarter as many as the homes for sale there (fewer in the valleys and on the coast), flats,
 * suites and houses at a month's rent that fits their sector (the sale's sector levels), listed
 * over the last four months; a suite furnished more often than not, pets allowed in about half,
 * the alícuota and parking of the homes for sale. Their own random stream, after every other row.
 */
export function rentalsFor(
  current: ListingRow[],
  firstId: number,
  byCity: Map<string, AgentRow[]>,
  now: number,
  seed: number,
): ListingRow[] {
  const rand = random(seed * 13 + 5);
  const pick: Pick = (items) => items[Math.floor(rand() * items.length)] as (typeof items)[number];
  const out: ListingRow[] = [];
  let id = firstId;
  for (const place of PLACES) {
    const share = RENT_CITIES[place.city];
    if (!share) continue;
    const sales = current.filter((l) => l.city === place.city && l.status === '1').length;
    const agents = byCity.get(place.city) ?? [...byCity.values()].flat();
    for (let i = 0; i < Math.round(sales * share); i++) {
      const type = weighted({ apartment: 58, suite: 20, house: 22 }, rand);
      const [aLo, aHi] = RENT_AREA[type];
      const area = Math.round(aLo + (aHi - aLo) * Math.pow(rand(), 1.8));
      const hood = pick(place.neighbourhoods);
      const bedrooms =
        type === 'suite'
          ? 1
          : type === 'apartment'
            ? Math.max(1, Math.min(4, Math.round(area / 50 + rand() * 0.6)))
            : Math.max(2, Math.min(5, Math.round(area / 80 + rand())));
      const bathrooms = type === 'suite' ? 1 : Math.min(5, bedrooms + (rand() < 0.5 ? -0.5 : 0.5));
      const [pLo, pHi] = RENT_PER_M2[type];
      const own = 0.88 + rand() * 0.24;
      const rent = Math.max(
        180,
        Math.round(
          (area *
            Math.sqrt(pLo * pHi) *
            place.priceFactor *
            sectorFactor(place.city, hood) *
            Math.pow(area / Math.sqrt(aLo * aHi), -0.15) *
            own) /
            10,
        ) * 10,
      );
      const english = rand() < place.expat;
      const [lat, lng] = pointNear(sectorPlace(place, hood), rand);
      const furnishedDraw = rand();
      const furnished =
        type === 'suite'
          ? furnishedDraw < 0.6
            ? 'yes'
            : furnishedDraw < 0.75
              ? 'partly'
              : 'no'
          : furnishedDraw < 0.18
            ? 'yes'
            : furnishedDraw < 0.28
              ? 'partly'
              : 'no';
      const petsDraw = rand();
      const pets = petsDraw < 0.45 ? true : petsDraw < 0.8 ? false : null;
      const words = rentalWords(
        type,
        { beds: bedrooms, hood, city: place.city, area, furnished: furnished === 'yes', pets: pets === true },
        english,
        pick,
      );
      const created = new Date(now - Math.floor(rand() * 120 * DAY) - 3 * HOUR).toISOString();
      const agent = pick(agents);
      const row: ListingRow = {
        id,
        title: words.title,
        address: `${pick(place.streets)} ${100 + Math.floor(rand() * 900)}, ${hood}`,
        price: rent,
        ...homeColumns({ place, sector: hood, type, area, bedrooms, bathrooms, lat, lng }),
        images: imagesFor(type === 'house' ? 'house' : 'apartment', rand, pick),
        description: words.description,
        created_at: created,
        listed_at: created,
        status: rand() < 0.05 ? '2' : '1',
        ...(agent ? agentColumns(agent) : NO_AGENT),
        operation: 'rent',
        pets_allowed: pets,
      };
      Object.assign(
        row,
        listingExtras(id, type === 'house' ? 'house' : 'apartment', place, area, `${row.title} ${row.description}`),
      );
      Object.assign(
        row,
        drawnFacts(id, type === 'house' ? 'house' : 'apartment', area, sectorFactor(place.city, hood)),
        { furnished },
      );
      out.push(row);
      id++;
    }
  }
  return out;
}

/** A rental's title and description, as agents write them (Spanish, or English where foreigners rent). */
function rentalWords(
  type: 'suite' | 'apartment' | 'house',
  f: { beds: number; hood: string; city: string; area: number; furnished: boolean; pets: boolean },
  english: boolean,
  pick: Pick,
): { title: string; description: string } {
  const values: Record<string, string> = { beds: String(f.beds), hood: f.hood, city: f.city, area: String(f.area) };
  const fill = (text: string) => text.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? '');
  const titles = english
    ? {
        suite: ['Studio suite in {hood}, monthly lease', 'Suite near {hood}, {city}: long-term lease'],
        apartment: ['{beds}-bedroom apartment to lease in {hood}', 'Bright apartment on lease in {hood}, {city}'],
        house: ['{beds}-bedroom house to lease in {hood}', 'Family home to lease in a gated community, {hood}'],
      }
    : {
        suite: [
          'Suite en arriendo en {hood}',
          'Arriendo suite cerca de {hood}, {city}',
          'Suite de {area} m² en arriendo, {hood}',
        ],
        apartment: [
          'Departamento de {beds} dormitorios en arriendo, {hood}',
          'Arriendo departamento en {hood}, {city}',
          'Departamento en arriendo con balcón en {hood}',
        ],
        house: [
          'Casa de {beds} dormitorios en arriendo, {hood}',
          'Arriendo casa en conjunto privado, {hood}',
          'Casa en arriendo con jardín en {hood}, {city}',
        ],
      };
  const about = english
    ? [
        `${f.area} m² in ${f.hood}, ${f.city}, close to shops and transport.`,
        f.furnished ? 'Comes fully equipped, ready to move in.' : 'Unfurnished.',
        f.pets ? 'Pets welcome.' : '',
        'Minimum one-year lease, one month deposit.',
      ]
    : [
        `${f.area} m² en ${f.hood}, ${f.city}, cerca de comercios y transporte.`,
        f.furnished ? 'Amoblado, listo para habitar.' : 'Sin amoblar.',
        f.pets ? 'Se aceptan mascotas.' : '',
        'Contrato mínimo de un año, un mes de garantía.',
      ];
  return { title: fill(pick(titles[type])), description: about.filter(Boolean).join(' ') };
}
