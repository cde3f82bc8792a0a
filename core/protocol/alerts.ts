/**
 * Saved searches with e-mail alerts, as both sides see them: the alert form in the browser and the
 * saved-searches function (docs/decisions.md #23). One list of frequencies and one e-mail rule (the
 * inquiry's), so the form never accepts what the function refuses.
 */
import type { Attribution } from './attribution.ts';
import type { TypeGroup } from './market.ts';
import type { HomeFacts } from './valuation.ts';
import { filtersFromArgs, type FilterArgs, type SearchFilters } from './filters.ts';
import { filterPhrases } from './filter-words.ts';
import { CONTROL_CHARACTERS, EMAIL_PATTERN, LIMITS, LINE_BREAK, type FieldError } from './inquiry.ts';
import type { Lang } from '../lang.ts';

export const ALERT_FREQUENCIES = ['instant', 'daily', 'weekly'] as const;
export type AlertFrequency = (typeof ALERT_FREQUENCIES)[number];
/** A market follow's one frequency (docs/market.md "Follow a market"): its report early each month. */
export const MARKET_FREQUENCY = 'monthly';
/** How often a saved search is mailed: a search's alerts, or a market follow's report. */
export type SavedFrequency = AlertFrequency | typeof MARKET_FREQUENCY;

/** What a market follow asks for: a place's report (core/protocol/market.ts MARKET_PATH) and its type group. */
export interface MarketFollowRequest {
  place: string;
  typeGroup: TypeGroup;
}

/** A market follow as it is kept: the place, the group and the place's name as our index names it. */
export interface MarketFollow {
  place: string;
  type_group: TypeGroup;
  name: string;
}

/** A home report as it is kept: the home's facts and its place as the estimate named it. */
export interface HomeFollow {
  facts: HomeFacts;
  place: { path: string; name: string } | null;
}

/** What the form sends to ask for alerts on a search, or for a place's monthly market report. */
export interface AlertRequest {
  action: 'subscribe';
  email: string;
  /** the search's filters as the element holds them (only the applied ones are kept) */
  filters?: SearchFilters;
  /** instead of a search: the market report to follow (its frequency is MARKET_FREQUENCY) */
  market?: MarketFollowRequest;
  /** instead of a search: a home whose estimate is mailed each month (docs/valuation.md) */
  home?: HomeFacts;
  frequency?: AlertFrequency;
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

/**
 * A saved search in words, for the alert form, the mails and the alert pages: what and where first
 * ("House in Quito", "Properties in the area chosen on the map"), then the rest ("House in Quito ·
 * 3+ bedrooms · from $100,000"), each filter as the filter table says it (core/protocol/filters.ts),
 * from the locale files' `phrases` (and the property types of `listing.types`).
 */
export function describeSearch(args: FilterArgs, t: Translate): string {
  const phrases = filterPhrases(filtersFromArgs(args), t, 'say');
  const [what] = phrases.filter((x) => x.part === 'what').map((x) => x.text);
  // new developments of no one type are projects ("New developments in Cumbayá", docs/projects.md)
  const projects = !what && args.operation === 'project';
  const part = (p: string) =>
    phrases.filter((x) => x.part === p && !(projects && x.key === 'operation')).map((x) => x.text);
  const where = part('where');
  const rest = part('rest');
  if (!what && !where.length && !rest.length && !projects) return t('phrases.everything');
  return [[what ?? t(projects ? 'phrases.projects' : 'phrases.properties'), ...where].join(' '), ...rest].join(' · ');
}

/** How often a saved search is mailed, in words ("Once a day"; a follow's "Once a month, early in the month"). */
export function frequencyLabel(frequency: string, t: Translate): string {
  return frequency === MARKET_FREQUENCY ? t('follow.monthly') : t(`alerts.frequencies.${frequency}`);
}

/**
 * A saved search in words, whichever it is: a search's alerts (describeSearch), or a market
 * follow ("The market report of Cumbayá", "The market report of Quito (Houses)").
 */
export function describeAlert(
  saved: { filters: FilterArgs; market?: MarketFollow | null; home?: HomeFollow | null },
  t: Translate,
): string {
  if (saved.home)
    return saved.home.place
      ? t('follow.summary.home', { place: saved.home.place.name })
      : t('follow.summary.homeAnywhere');
  const m = saved.market;
  if (!m) return describeSearch(saved.filters, t);
  return m.type_group === 'all'
    ? t('follow.summary.market', { place: m.name })
    : t('follow.summary.marketType', { place: m.name, type: t(`market.groups.${m.type_group}`) });
}
