/**
 * Where a listing without usable coordinates is placed, approximately (docs/decisions.md #3): near its
 * city when it is a known Ecuador city, else near Quito; never the spec's Lima leftover.
 */
import { fold } from './text.ts';

export const QUITO: [number, number] = [-0.1807, -78.4678];

/** Known places by folded name; the database keeps the same table (public.city_centroid()). */
export const CENTROIDS: Record<string, [number, number]> = {
  quito: QUITO,
  cumbaya: [-0.2005, -78.43],
  tumbaco: [-0.212, -78.399],
  guayaquil: [-2.17, -79.908],
  samborondon: [-2.135, -79.876],
  cuenca: [-2.9001, -79.0059],
  manta: [-0.97, -80.712],
  salinas: [-2.216, -80.948],
  loja: [-3.9931, -79.2042],
  ambato: [-1.2491, -78.6168],
  ibarra: [0.3517, -78.1223],
  montanita: [-1.827, -80.747],
  olon: [-1.798, -80.753],
  cotacachi: [0.3017, -78.2645],
  vilcabamba: [-4.2611, -79.2223],
  'bahia de caraquez': [-0.605, -80.42],
  'puerto lopez': [-1.5597, -80.8122],
  riobamba: [-1.6636, -78.6546],
  latacunga: [-0.9352, -78.6155],
  esmeraldas: [0.9592, -79.6539],
  machala: [-3.2581, -79.9554],
  portoviejo: [-1.0546, -80.4545],
  'santo domingo': [-0.2525, -79.1754],
  banos: [-1.3964, -78.4247],
  otavalo: [0.2343, -78.2625],
  puembo: [-0.1762, -78.3569],
  playas: [-2.63, -80.39],
};

export function cityCentroid(city: string | null | undefined): [number, number] | undefined {
  return city ? CENTROIDS[fold(city).trim().toLowerCase()] : undefined;
}

/** How far an approximate position is moved from its city's centre, per axis (SQL: listing_clusters' jitter). */
const JITTER_DEG = 0.025;

/**
 * The radius of the circle that shows an approximate position (the listing's own map): the
 * farthest the jitter moves it (both axes at their most, in metres at the equator), so the circle
 * holds the city's centre it stands for.
 */
export const APPROXIMATE_RADIUS_M = Math.ceil(Math.SQRT2 * JITTER_DEG * 111_320);

/** A deterministic offset of up to ±JITTER_DEG per axis, so an approximate pin does not jump around. */
export function jitter(seed: string): [number, number] {
  let h = 2166136261;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 16777619);
  const a = ((h >>> 0) % 10000) / 10000;
  const b = ((Math.imul(h, 2654435761) >>> 0) % 10000) / 10000;
  return [(a * 2 - 1) * JITTER_DEG, (b * 2 - 1) * JITTER_DEG];
}
