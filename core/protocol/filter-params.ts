/**
 * The filters in a request (core/protocol/filters.ts has the table): the search page's address
 * (its parameter names, docs/product.md §4) written and read back, and one filter's value of a
 * request (an address, an alert request's field) checked. What is malformed is left out, never an
 * error.
 */
import {
  appliedFilters,
  cleanKeywords,
  FEATURE_FLAGS,
  FILTERS,
  parsePlace,
  validBbox,
  type FilterSpec,
  type SearchFilters,
} from './filters.ts';
import { CONTROL_CHARACTERS, LINE_BREAK, RECORD_ID } from './inquiry.ts';
import { decodePolygon, encodePolygon, validPolygon, type LngLat } from './polygon.ts';

/** One filter in the search page's address: its parameters (a feature each, the area as formatBbox writes it). */
function toParams(spec: FilterSpec, value: unknown): Array<[string, string]> {
  switch (spec.kind) {
    case 'features':
      return FEATURE_FLAGS.filter((flag) => (value as SearchFilters['features'])?.[flag]).map((flag) => [flag, 'true']);
    case 'bbox':
      return [[spec.key, formatBbox(value as [number, number, number, number])]];
    case 'polygon':
      return [[spec.key, encodePolygon(value as LngLat[])]];
    case 'id':
      // an embed's scope, never in the address
      return [];
    default:
      return [[spec.key, String(value)]];
  }
}

/** Every parameter name the filters use in the search page's address. */
export const FILTER_PARAMS: readonly string[] = FILTERS.flatMap((spec) =>
  spec.kind === 'features' ? [...FEATURE_FLAGS] : spec.kind === 'id' ? [] : [spec.key],
);

/**
 * The search page's query for these filters (its own parameter names, docs/product.md §4), e.g. the
 * "see all" link of an alert mail and the search's own address; filtersFromParams reads it back to
 * the same filters.
 */
export function searchPageQuery(filters: SearchFilters, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams();
  const f = appliedFilters(filters);
  for (const spec of FILTERS)
    if (f[spec.key] !== undefined) for (const [k, v] of toParams(spec, f[spec.key])) q.set(k, v);
  for (const [k, v] of Object.entries(extra)) q.set(k, v);
  return q.toString();
}

/** A value of a request (a URL parameter, an alert request's field) for one filter, checked; `problem` when it cannot be one. */
export function checkFilterValue(spec: FilterSpec, raw: unknown): { value?: unknown; problem?: 'invalid' | 'tooLong' } {
  if (raw === undefined || raw === null || raw === '') return {};
  switch (spec.kind) {
    case 'operation':
      if (raw === 'rent' || raw === 'project') return { value: raw };
      return raw === 'sale' ? {} : { problem: 'invalid' };
    case 'type':
    case 'text':
    case 'place':
    case 'placeName':
    case 'id':
    case 'words': {
      if (typeof raw !== 'string') return { problem: 'invalid' };
      const v = spec.kind === 'words' ? cleanKeywords(raw) : raw.trim();
      if (raw.trim().length > (spec.maxLength ?? 100)) return { problem: 'tooLong' };
      if (CONTROL_CHARACTERS.test(raw) || LINE_BREAK.test(raw)) return { problem: 'invalid' };
      if (spec.kind === 'place' && !parsePlace(v.toLowerCase())) return { problem: 'invalid' };
      if (spec.kind === 'id' && !RECORD_ID.test(v)) return { problem: 'invalid' };
      return v ? { value: spec.kind === 'place' ? v.toLowerCase() : v } : {};
    }
    case 'number': {
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
      if (
        !Number.isFinite(n) ||
        n < 0 ||
        n > (spec.max ?? Number.MAX_SAFE_INTEGER) ||
        (spec.integer && !Number.isInteger(n))
      )
        return { problem: 'invalid' };
      if (n === 0) return {};
      if (spec.min !== undefined && n < spec.min) return { problem: 'invalid' };
      return { value: n };
    }
    case 'features': {
      if (
        typeof raw !== 'object' ||
        Array.isArray(raw) ||
        Object.entries(raw as object).some(
          ([k, v]) => !(FEATURE_FLAGS as readonly string[]).includes(k) || typeof v !== 'boolean',
        )
      )
        return { problem: 'invalid' };
      return { value: raw };
    }
    case 'bbox': {
      const box = validBbox(raw);
      return box ? { value: box } : { problem: 'invalid' };
    }
    case 'polygon': {
      const polygon = validPolygon(raw);
      return polygon ? { value: polygon } : { problem: 'invalid' };
    }
    case 'flag':
      if (raw === true || raw === 'true') return { value: true };
      return raw === false || raw === 'false' ? {} : { problem: 'invalid' };
    case 'choice':
      return spec.choices?.includes(raw as string) ? { value: raw } : { problem: 'invalid' };
  }
}

/** The filters a search page's address says; anything malformed is left out, never an error; a text too long is cut. */
export function filtersFromParams(params: URLSearchParams): SearchFilters {
  const f: Record<string, unknown> = {};
  for (const spec of FILTERS) {
    let raw: unknown;
    if (spec.kind === 'features') {
      const flags = FEATURE_FLAGS.filter((flag) => params.get(flag) === 'true');
      raw = flags.length ? Object.fromEntries(flags.map((flag) => [flag, true])) : undefined;
    } else if (spec.kind === 'bbox') raw = parseBbox(params.get(spec.key));
    else if (spec.kind === 'polygon') raw = decodePolygon(params.get(spec.key));
    else if (spec.kind === 'id') continue;
    else {
      raw = params.get(spec.key)?.trim() ?? undefined;
      // a free text too long for its filter is cut to its length (a shared link keeps what it can)
      if (typeof raw === 'string' && ['text', 'words', 'type', 'placeName'].includes(spec.kind))
        raw = raw.slice(0, spec.maxLength ?? 100);
    }
    const { value } = checkFilterValue(spec, raw);
    if (value !== undefined) f[spec.key] = value;
  }
  return appliedFilters(f as SearchFilters);
}

/** "w,s,e,n" with 5 decimals (about a metre), as the search page's address writes 'Search this area'. */
function formatBbox(b: [number, number, number, number]): string {
  return b.map((n) => Number(n.toFixed(5))).join(',');
}

/** Back from formatBbox's "w,s,e,n"; anything else is no area. */
export function parseBbox(text: string | null | undefined): [number, number, number, number] | undefined {
  const parts = (text ?? '').split(',');
  return parts.length === 4 && parts.every((p) => p.trim() !== '') ? validBbox(parts.map(Number)) : undefined;
}
