/**
 * What the saved-searches function accepts, checked once for Deno and Node alike: a request for
 * alerts (the e-mail, the search's filters, the frequency, the language, an idempotency key, the
 * honeypot) or an action with a link's token. Every filter is checked before it is kept: a saved
 * search is read by SQL for as long as it lives.
 */
import { checkAttribution, type Attribution } from '../../protocol/attribution.ts';
import {
  ALERT_FREQUENCIES,
  checkAlertEmail,
  MARKET_FREQUENCY,
  type MarketFollowRequest,
  type SavedFrequency,
} from '../../protocol/alerts.ts';
import { isTypeGroup, MARKET_PATH } from '../../protocol/market.ts';
import { FILTERS, filterArgs, type FilterArgs, type SearchFilters } from '../../protocol/filters.ts';
import { checkFilterValue } from '../../protocol/filter-params.ts';
import { RECORD_ID, type FieldError } from '../../protocol/inquiry.ts';
import { IDEMPOTENCY_KEY } from '../request-key.ts';
import { problems } from '../function-http.ts';
import { LANGUAGES, type Lang } from '../../lang.ts';

export const ALERT_LIMITS = { body: 12 * 1024 } as const;

export interface AlertInput {
  email: string;
  filters: FilterArgs;
  /** a market follow instead of a search's alerts (its filters are empty) */
  market: MarketFollowRequest | null;
  /** a home report instead: the home's facts (public.estimate_value checks them; the handler names the field it refuses) */
  home: Record<string, unknown> | null;
  frequency: SavedFrequency;
  lang: Lang;
  idempotencyKey: string | null;
  website: string;
  /** the lead's owner asked for (checked to be one of ours by the handler) */
  leadAgentId: string | null;
  /** where the visitor was; null when the request did not say */
  source: Attribution | null;
}

export type AlertValidation =
  { ok: true; value: AlertInput } | { ok: false; fields: Record<string, FieldError>; message: string };

/** The search's filters, each checked by the filter table's rule (core/protocol/filters.ts): texts short and on one line, numbers in their range, a real place and map area. */
function checkFilters(raw: unknown, fields: Record<string, FieldError>): SearchFilters {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    fields.filters = 'invalid';
    return {};
  }
  const f = raw as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const spec of FILTERS) {
    const { value, problem } = checkFilterValue(spec, f[spec.key]);
    if (problem) fields[`filters.${spec.key}`] = problem;
    else if (value !== undefined) out[spec.key] = value;
  }
  return out as SearchFilters;
}

/** A market follow's place and type group (docs/market.md); whether the place has a report is the handler's to ask. */
function checkMarket(raw: unknown, fields: Record<string, FieldError>): MarketFollowRequest | null {
  if (raw === undefined || raw === null) return null;
  const m = raw as Record<string, unknown>;
  if (typeof raw !== 'object' || Array.isArray(raw) || typeof m.place !== 'string' || !MARKET_PATH.test(m.place)) {
    fields.market = 'invalid';
    return null;
  }
  const typeGroup = m.typeGroup ?? 'all';
  if (!isTypeGroup(typeGroup)) {
    fields['market.typeGroup'] = 'invalid';
    return null;
  }
  return { place: m.place, typeGroup };
}

/** `origin`: the request's Origin header (the page's origin, set by the browser). */
export function validateAlertRequest(raw: unknown, origin: string | null = null): AlertValidation {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    return { ok: false, fields: {}, message: 'The body must be a JSON object.' };
  const body = raw as Record<string, unknown>;
  const fields: Record<string, FieldError> = {};
  const email = typeof body.email === 'string' ? body.email.trim() : '';
  if (body.email !== undefined && typeof body.email !== 'string') fields.email = 'invalid';
  else {
    const problem = checkAlertEmail(email);
    if (problem) fields.email = problem;
  }
  const market = checkMarket(body.market, fields);
  const home =
    body.home === undefined || body.home === null
      ? null
      : typeof body.home === 'object' && !Array.isArray(body.home)
        ? (body.home as Record<string, unknown>)
        : null;
  if (body.home !== undefined && body.home !== null && !home) fields.home = 'invalid';
  if (body.market && body.home) fields.home = 'invalid';
  const isFollow =
    (body.market !== undefined && body.market !== null) || (body.home !== undefined && body.home !== null);
  // a market follow is mailed monthly, and only it is
  const frequency = isFollow ? (body.frequency ?? MARKET_FREQUENCY) : body.frequency;
  const frequencies: readonly unknown[] = isFollow ? [MARKET_FREQUENCY] : ALERT_FREQUENCIES;
  if (!frequencies.includes(frequency))
    fields.frequency = frequency === undefined || frequency === '' ? 'required' : 'invalid';
  if (
    isFollow &&
    body.filters !== undefined &&
    body.filters !== null &&
    (typeof body.filters !== 'object' || Object.keys(body.filters).length)
  )
    fields.filters = 'invalid';
  const lang = body.lang === undefined ? 'en' : body.lang;
  if (!(LANGUAGES as readonly unknown[]).includes(lang)) fields.lang = 'invalid';
  const filters = checkFilters(body.filters, fields);
  let idempotencyKey: string | null = null;
  if (body.idempotencyKey !== undefined && body.idempotencyKey !== null && body.idempotencyKey !== '') {
    if (typeof body.idempotencyKey !== 'string' || !IDEMPOTENCY_KEY.test(body.idempotencyKey))
      fields.idempotencyKey = 'invalid';
    else idempotencyKey = body.idempotencyKey;
  }
  const website = typeof body.website === 'string' ? body.website.slice(0, 200) : '';
  let leadAgentId: string | null = null;
  if (body.leadAgentId !== undefined && body.leadAgentId !== null && body.leadAgentId !== '') {
    if (!RECORD_ID.test(String(body.leadAgentId).trim())) fields.leadAgentId = 'invalid';
    else leadAgentId = String(body.leadAgentId).trim();
  }
  const source = checkAttribution(body.source, origin);
  if (!source.ok) fields.source = 'invalid';
  if (Object.keys(fields).length) return { ok: false, fields, message: problems(fields) };
  return {
    ok: true,
    value: {
      email,
      filters: filterArgs(filters),
      market,
      home,
      frequency: frequency as SavedFrequency,
      lang: lang as Lang,
      idempotencyKey,
      website,
      leadAgentId,
      source: source.ok ? source.value : null,
    },
  };
}

/** An address as one saved search per address counts it. */
export const emailKey = (email: string) => email.trim().toLowerCase();
