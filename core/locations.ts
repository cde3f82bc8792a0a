/**
 * The search hero's known locations (docs/decisions.md #4): the spec's three sample neighbourhoods and
 * the places of Ecuador we have listings in. A location comes from /search-properties/{slug} or
 * ?location=; an Ecuador place also presets the search to its city.
 */
import { slugify } from './routes.ts';

export interface KnownLocation {
  slug: string;
  /** the city filter it presets (Ecuador places only) */
  city?: string;
  /** the hero video that suits it */
  video: 'quito' | 'coast' | 'cuenca';
}

export const LOCATIONS: readonly KnownLocation[] = [
  { slug: 'quito', city: 'Quito', video: 'quito' },
  { slug: 'guayaquil', city: 'Guayaquil', video: 'coast' },
  { slug: 'cuenca', city: 'Cuenca', video: 'cuenca' },
  { slug: 'cumbaya', city: 'Cumbayá', video: 'quito' },
  { slug: 'tumbaco', city: 'Tumbaco', video: 'quito' },
  { slug: 'samborondon', city: 'Samborondón', video: 'coast' },
  { slug: 'salinas', city: 'Salinas', video: 'coast' },
  { slug: 'manta', city: 'Manta', video: 'coast' },
  { slug: 'montanita', city: 'Montañita', video: 'coast' },
  { slug: 'olon', city: 'Olón', video: 'coast' },
  { slug: 'bahia-de-caraquez', city: 'Bahía de Caráquez', video: 'coast' },
  { slug: 'loja', city: 'Loja', video: 'cuenca' },
  { slug: 'vilcabamba', city: 'Vilcabamba', video: 'cuenca' },
  { slug: 'ambato', city: 'Ambato', video: 'quito' },
  { slug: 'ibarra', city: 'Ibarra', video: 'quito' },
  { slug: 'cotacachi', city: 'Cotacachi', video: 'quito' },
  { slug: 'point-loma', video: 'coast' },
  { slug: 'ocean-beach', video: 'coast' },
  { slug: 'sunset-cliffs', video: 'coast' },
];

export function findLocation(text: string | null | undefined): KnownLocation | undefined {
  const slug = slugify(text ?? '');
  return slug ? LOCATIONS.find((l) => l.slug === slug) : undefined;
}

export interface HeroLocation {
  /** the known location, if any */
  known?: KnownLocation;
  /** what the visitor asked for, when it is not a known location (shown nowhere, logged) */
  unknown?: string;
}

/** The path segment wins over ?location=, which wins over ?city= (the home page's city buttons). */
export function heroLocation(pathname: string, search: string): HeroLocation {
  const params = new URLSearchParams(search);
  const segment = /^\/search-properties\/([^/]+)\/?$/.exec(pathname)?.[1];
  const asked = segment ? decodeURIComponent(segment) : (params.get('location') ?? params.get('city') ?? '');
  if (!asked.trim()) return {};
  const known = findLocation(asked);
  return known ? { known } : { unknown: asked.slice(0, 80) };
}
