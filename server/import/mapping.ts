/**
 * From a feed's record to our listing (docs/import.md, "The mapping"): every feed is read into a
 * record with the RESO Data Dictionary's field names (the RESO Web API and RESO JSON as they come;
 * the CSV template's columns are those names; Kyero's XML is renamed in kyero.ts), then this one
 * table maps it. The table is what runs, what docs/import.md shows (a test holds the two together)
 * and what the tests take their cases from.
 *
 * What a record says is data: text stays text (markup in remarks is reduced to its words, rendered
 * escaped like all data), numbers are checked, and a value we do not know (a status, a type, a unit)
 * is kept as it came and counted in the run's report, never dropped without a word. A record that
 * cannot be a listing (no key, no price, no address, a place outside Ecuador) is quarantined with its
 * reasons, and the run goes on.
 */
import type { Operation } from '../../core/protocol/filters.ts';
import type { Lang } from '../../core/lang.ts';
import { FIELD_MAP, type Context } from './field-map.ts';
import { text, STATUSES, AREA_UNITS, TYPES } from './values.ts';

/** A feed's record: RESO Data Dictionary names (Media as RESO's Media resource, expanded). */
export type FeedRecord = Record<string, unknown>;

/** A photo as the feed names it, before it is fetched. */
export interface FeedPhoto {
  url: string;
  /** the feed's key for it (RESO MediaKey), else the URL */
  key: string;
  order: number;
  /** when the feed last changed it, as the feed wrote it ('' when it does not say) */
  modified: string;
}

/** Our listing as an import writes it (internal.listings' columns, and the feed's own). */
export interface ImportedListing {
  source_key: string;
  listing_ref: string | null;
  status: string;
  source_status: string | null;
  title: string;
  address: string;
  price: number;
  bedrooms: number | null;
  bathrooms: number | null;
  square_feet: number | null;
  lot_size: number | null;
  year_built: number | null;
  property_type: string | null;
  city: string | null;
  sector: string | null;
  state: string | null;
  country_code: string;
  geo_lat: string | null;
  geo_lon: string | null;
  description: string | null;
  features: string[];
  agent_key: string | null;
  agent_email: string | null;
  agent_first_name: string | null;
  agent_last_name: string | null;
  agent_phone: string | null;
  listed_at: string | null;
  source_modified_at: string | null;
  media: FeedPhoto[];
  /** the alícuota, USD a month */
  hoa_fee?: number | null;
  /** 'rent': the price is a month's rent; none: a sale */
  operation?: Operation;
  parking_spaces?: number | null;
  storage_unit?: boolean | null;
  furnished?: 'yes' | 'partly' | 'no' | null;
  pets_allowed?: boolean | null;
}

/** Per source: what a record leaves unsaid. */
export interface MappingDefaults {
  /** the language of listings whose remarks do not tell (titles are composed in it) */
  language: Lang;
  /** the unit of LivingArea when LivingAreaUnits is missing (RESO's own default is square feet) */
  areaUnit: 'Square Feet' | 'Square Meters';
}

export type Mapped =
  | { ok: true; listing: ImportedListing; notes: string[] }
  | { ok: false; key: string; reasons: string[]; notes: string[] };

/** One record mapped: the listing, or why it cannot be one. */
export function mapRecord(record: FeedRecord, defaults: MappingDefaults): Mapped {
  const c: Context = { record, listing: {}, defaults, reasons: [], notes: [] };
  if (!record || typeof record !== 'object' || Array.isArray(record))
    return { ok: false, key: '', reasons: ['not a record'], notes: [] };
  for (const field of FIELD_MAP) field.apply(c);
  // what a feed's own reader found wrong (a rental in Kyero, a price in euros)
  if (Array.isArray(record.__quarantine)) c.reasons.push(...record.__quarantine.map(String));
  if (c.reasons.length)
    return { ok: false, key: text(record.ListingKey, 100) ?? '', reasons: c.reasons, notes: c.notes };
  return { ok: true, listing: c.listing as ImportedListing, notes: c.notes };
}

/** The mapping as docs/import.md shows it (a test holds the document to this). */
export function mappingTable(): string {
  return [
    '| RESO field | ours | rule |',
    '|---|---|---|',
    ...FIELD_MAP.map((f) => `| ${f.reso} | ${f.ours} | ${f.rule.replace(/\|/g, '\\|')} |`),
  ].join('\n');
}

/** The lookups as docs/import.md shows them. */
export function lookupTables(): string {
  const group = (map: Record<string, string>) => {
    const by = new Map<string, string[]>();
    for (const [k, v] of Object.entries(map)) by.set(v, [...(by.get(v) ?? []), k]);
    return [...by.entries()].map(([v, ks]) => `| ${v} | ${ks.join(', ')} |`);
  };
  return [
    '| status | StandardStatus (letters and case ignored) |',
    '|---|---|',
    ...group(
      Object.fromEntries(
        Object.entries(STATUSES).map(([k, v]) => [k, v === 'on' ? 'on the market (1)' : 'off the market']),
      ),
    ),
    '',
    '| our type | PropertySubType or PropertyType (letters and case ignored) |',
    '|---|---|',
    ...group(TYPES),
    '',
    '| unit | square metres each |',
    '|---|---|',
    ...Object.entries(AREA_UNITS).map(([k, v]) => `| ${k} | ${v} |`),
  ].join('\n');
}
