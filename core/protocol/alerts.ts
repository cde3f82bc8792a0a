/**
 * Saved searches with e-mail alerts, as both sides see them: the alert form in the browser and the
 * saved-searches function (docs/decisions.md #23). One list of frequencies and one e-mail rule (the
 * inquiry's), so the form never accepts what the function refuses.
 */
import type { Attribution } from './attribution.ts';
import { featureFlag, parsePlace, type FeatureFlag, type FilterArgs, type SearchFilters } from './filters.ts';
import { formatArea, formatPrice } from './format.ts';
import { typeLabel } from './listing.ts';
import { CONTROL_CHARACTERS, EMAIL_PATTERN, LIMITS, LINE_BREAK, type FieldError } from './inquiry.ts';
import type { Lang } from '../lang.ts';

export const ALERT_FREQUENCIES = ['instant', 'daily', 'weekly'] as const;
export type AlertFrequency = (typeof ALERT_FREQUENCIES)[number];


/** What the form sends to ask for alerts on a search. */
export interface AlertRequest {
  action: 'subscribe';
  email: string;
  /** the search's filters as the element holds them (only the applied ones are kept) */
  filters: SearchFilters;
  frequency: AlertFrequency;
  lang: Lang;
  /** the same key for a retry of the same request */
  idempotencyKey?: string;
  /** the honeypot: people leave it empty */
  website?: string;
  /** the lead's owner (an element's `lead-agent-id`): the agent told of the confirmed alert */
  leadAgentId?: string;
  /** where the visitor was (core/protocol/attribution.ts) */
  source?: Attribution;
}

/** The e-mail field: required, at most 254 characters, one address. */
export function checkAlertEmail(value: string): FieldError | undefined {
  const v = value.trim();
  if (!v) return 'required';
  if (v.length > LIMITS.email) return 'tooLong';
  if (CONTROL_CHARACTERS.test(v) || LINE_BREAK.test(v) || !EMAIL_PATTERN.test(v)) return 'invalid';
  return undefined;
}

type Translate = (key: string, params?: Record<string, unknown>) => string;

/** A place's path in words when its name was not kept: 'quito/la-carolina' -> 'La Carolina, Quito'. */
function placeWords(path: string): string {
  const p = parsePlace(path);
  const words = (slug: string) => slug.split('-').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ');
  if (!p) return path;
  if ('province' in p) return words(p.province);
  return p.sector ? `${words(p.sector)}, ${words(p.city)}` : words(p.city);
}

/**
 * A saved search in words, for the alert form, the mails and the alert pages: what and where first
 * ("House in Quito", "Properties in the area chosen on the map"), then the rest ("House in Quito ·
 * from $100,000 · 3+ bedrooms"). Texts from the locale files' `alerts.summary` (and the property
 * types of `listing.types`).
 */
export function describeSearch(args: FilterArgs, t: Translate): string {
  const where: string[] = [];
  if (args.place) where.push(t('alerts.summary.city', { city: args.place_name || placeWords(args.place) }));
  if (args.city) where.push(t('alerts.summary.city', { city: args.city }));
  if (typeof args.area_west === 'number' || args.polygon) where.push(t(args.polygon ? 'alerts.summary.drawnArea' : 'alerts.summary.mapArea'));
  const rest: string[] = [];
  if (args.words) rest.push(t('alerts.summary.words', { words: args.words }));
  if (args.price_min) rest.push(t('alerts.summary.minPrice', { price: formatPrice(args.price_min) }));
  if (args.price_max) rest.push(t('alerts.summary.maxPrice', { price: formatPrice(args.price_max) }));
  if (args.beds_min) rest.push(t('alerts.summary.beds', { count: args.beds_min }));
  if (args.baths_min) rest.push(t('alerts.summary.baths', { count: args.baths_min }));
  if (args.area_min) rest.push(t('alerts.summary.minArea', { area: formatArea(args.area_min) }));
  if (args.area_max) rest.push(t('alerts.summary.maxArea', { area: formatArea(args.area_max) }));
  const features = (args.features ?? []).map(featureFlag).filter((f): f is FeatureFlag => f !== undefined);
  if (features.length) rest.push(t('alerts.summary.features', { list: features.map((f) => t(`search.filters.feature.${f}`).toLowerCase()).join(', ') }));
  if (args.year_min) rest.push(t('alerts.summary.builtFrom', { year: args.year_min }));
  if (args.year_max) rest.push(t('alerts.summary.builtTo', { year: args.year_max }));
  if (args.lot_min) rest.push(t('alerts.summary.minLot', { area: formatArea(args.lot_min) }));
  if (args.lot_max) rest.push(t('alerts.summary.maxLot', { area: formatArea(args.lot_max) }));
  if (args.agent) rest.push(t('alerts.summary.agent'));
  if (!args.property_type && !where.length && !rest.length) return t('alerts.summary.everything');
  const what = args.property_type ? typeLabel(args.property_type, t) : t('alerts.summary.properties');
  return [[what, ...where].join(' '), ...rest].join(' · ');
}
