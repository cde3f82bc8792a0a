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
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Parser } from 'htmlparser2';
import { featureColumn, type FeatureFlag, type Operation } from '../../core/protocol/filters.ts';
import { translatorFor, type Dict, type Translate } from '../../core/translate.ts';
import type { Lang } from '../../core/lang.ts';
import { isKnownType } from '../../core/protocol/listing.ts';
import { parseCoordinate } from '../../core/protocol/text.ts';
import { ecuadorYear } from '../../core/protocol/calendar.ts';

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

export type Mapped = { ok: true; listing: ImportedListing; notes: string[] } | { ok: false; key: string; reasons: string[]; notes: string[] };

// ── values ────────────────────────────────────────────────────────────────────────────────────────

const text = (v: unknown, max = 500): string | null => {
  if (v === null || v === undefined) return null;
  if (typeof v !== 'string' && typeof v !== 'number') return null;
  // control characters out (a tab or a line end stays), whitespace tidied
  const s = String(v)
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '')
    .replace(/[ \t]+/g, ' ')
    .trim();
  return s ? s.slice(0, max) : null;
};

/**
 * A number as feeds write it: 250000, "250,000.00" (RESO, English), "250.000" and "1.250.000,50"
 * (a Spanish spreadsheet), "2,5" and "2.5". A separator followed by groups of three digits only is
 * a thousands separator; with both, the last one is the decimal point.
 */
export function number(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v !== 'string') return null;
  let s = v.trim().replace(/[$\s]|USD/gi, '');
  if (!/^-?[\d.,]+$/.test(s)) return null;
  const dot = s.lastIndexOf('.');
  const comma = s.lastIndexOf(',');
  if (dot >= 0 && comma >= 0) s = dot > comma ? s.replace(/,/g, '') : s.replace(/\./g, '').replace(',', '.');
  else if (comma >= 0) s = /^-?\d{1,3}(,\d{3})+$/.test(s) ? s.replace(/,/g, '') : s.replace(',', '.');
  else if (dot >= 0 && /^-?\d{1,3}(\.\d{3})+$/.test(s) && (s.match(/\./g)?.length ?? 0) >= 1 && !/^-?0\./.test(s)) s = s.replace(/\./g, '');
  const n = Number(s);
  return s && Number.isFinite(n) ? n : null;
}

const yes = (v: unknown): boolean => v === true || (typeof v === 'string' && /^(true|yes|y|1|s[ií])$/i.test(v.trim())) || v === 1;

/** A list the feed may send as an array or as "a, b, c". */
const list = (v: unknown): string[] => (Array.isArray(v) ? v : typeof v === 'string' ? v.split(/[,;|]/) : []).map((x) => text(x, 100) ?? '').filter((x) => x && !/^none$/i.test(x));

const when = (v: unknown): string | null => {
  const s = text(v, 40);
  if (!s) return null;
  // "2026-11-03 10:00:00" (Kyero, CSV) is read as UTC, as RESO's timestamps are
  const t = Date.parse(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/.test(s) ? `${s.replace(' ', 'T')}Z` : s);
  return Number.isFinite(t) ? new Date(t).toISOString() : null;
};

/** Elements whose content is never text of the listing. */
const SKIPPED = new Set(['script', 'style', 'template', 'iframe', 'object', 'noscript', 'svg', 'head']);
/** Elements that end a line. */
const BLOCKS = new Set(['p', 'div', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'tr', 'blockquote', 'ul', 'ol', 'table', 'section', 'article']);

/**
 * Remarks as text: markup read by an HTML parser (htmlparser2) and reduced to its words (a
 * paragraph or a break becomes a line end; scripts and styles go whole; every entity read), at
 * most 20,000 characters. A text with no markup is only tidied: "2 < 3" stays as it is.
 */
export function plainText(v: unknown): string | null {
  if (typeof v !== 'string') return text(v, 20_000);
  let s = v;
  if (/<[a-z!/]/i.test(s) || /&(#\d+|#x[\da-f]+|[a-z]+\d*);/i.test(s)) {
    const out: string[] = [];
    let skipping = 0;
    const parser = new Parser(
      {
        onopentag(name) {
          if (SKIPPED.has(name)) skipping++;
          else if (name === 'br' && !skipping) out.push('\n');
        },
        onclosetag(name) {
          if (SKIPPED.has(name)) skipping = Math.max(0, skipping - 1);
          else if (BLOCKS.has(name) && !skipping) out.push('\n');
        },
        ontext(chunk) {
          if (!skipping) out.push(chunk);
        },
      },
      { decodeEntities: true, lowerCaseTags: true },
    );
    parser.write(s.slice(0, 200_000));
    parser.end();
    s = out.join('');
  }
  s = s
    .replace(/\u00a0/g, ' ')
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '')
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return s ? s.slice(0, 20_000) : null;
}

// ── lookups ───────────────────────────────────────────────────────────────────────────────────────

/** RESO StandardStatus: on the market (public) or not; anything else is kept as sent and reported. */
const STATUSES: Record<string, 'on' | 'off'> = {
  active: 'on',
  activeundercontract: 'on',
  comingsoon: 'off',
  pending: 'off',
  hold: 'off',
  withdrawn: 'off',
  canceled: 'off',
  cancelled: 'off',
  expired: 'off',
  closed: 'off',
  delete: 'off',
  incomplete: 'off',
};

/** RESO PropertyType and PropertySubType to our types (core/protocol/listing.ts KNOWN_TYPES): the subtype first. */
export const TYPES: Record<string, string> = {
  // subtypes
  singlefamilyresidence: 'house',
  singlefamily: 'house',
  house: 'house',
  townhouse: 'house',
  villa: 'house',
  farm: 'house',
  ranch: 'house',
  quinta: 'quinta',
  suite: 'suite',
  studio: 'suite',
  minidepartamento: 'suite',
  casa: 'house',
  condominium: 'apartment',
  condo: 'apartment',
  apartment: 'apartment',
  stockcooperative: 'apartment',
  penthouse: 'apartment',
  departamento: 'apartment',
  duplex: 'apartment',
  unimprovedland: 'land',
  land: 'land',
  lot: 'land',
  terreno: 'land',
  office: 'office',
  oficina: 'office',
  retail: 'business_premises',
  businessopportunity: 'business_premises',
  local: 'business_premises',
  localcomercial: 'business_premises',
  commercialproperty: 'commercial_building',
  industrial: 'commercial_building',
  warehouse: 'commercial_building',
  mixeduse: 'commercial_building',
  hotel: 'commercial_building',
  // types, when the subtype says nothing we know
  residential: 'house',
  residentialincome: 'commercial_building',
  commercialsale: 'commercial_building',
  commerciallease: 'commercial_building',
  residentiallease: 'apartment',
  farmandranch: 'house',
};

const squash = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '');

/** Square metres in one of these units; RESO's AreaUnits and LotSizeUnits, and the usual short forms. */
const AREA_UNITS: Record<string, number> = {
  squarefeet: 0.09290304,
  sqft: 0.09290304,
  squaremeters: 1,
  squaremetres: 1,
  sqm: 1,
  m: 1,
  acres: 4046.8564224,
  hectares: 10_000,
  ha: 10_000,
};

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Ecuador with the Galápagos, with a margin of a few kilometres. */
/** How many months an association fee's period is (AssociationFeeFrequency, letters and case ignored). */
/** A lease by the night, the day or the season (letters and case ignored): a holiday let, not a home to rent. */
const HOLIDAY_LETS = new Set(['daily', 'nightly', 'night', 'day', 'seasonal', 'onetime']);

const FEE_MONTHS: Record<string, number> = {
  monthly: 1,
  annually: 12,
  annual: 12,
  yearly: 12,
  semiannually: 6,
  quarterly: 3,
  bimonthly: 2,
  semimonthly: 0.5,
  weekly: 12 / 52,
  biweekly: 12 / 26,
};

/** Furnished's values (letters and case ignored), as ours. */
const FURNISHED: Record<string, 'yes' | 'partly' | 'no'> = { furnished: 'yes', yes: 'yes', y: 'yes', partially: 'partly', partly: 'partly', unfurnished: 'no', no: 'no', n: 'no' };

/** PetsAllowed's values that allow some pets (letters and case ignored). */
const PETS_YES = new Set(['yes', 'catsok', 'dogsok', 'numberlimit', 'sizelimit', 'breedrestrictions']);

export const ECUADOR = { south: -5.1, north: 1.7, west: -92.1, east: -75.1 };

const COUNTRY = /^(ec|ecu|ecuador)$/i;

// ── composed titles ───────────────────────────────────────────────────────────────────────────────

const dicts = new Map<Lang, Translate>();
function tr(lang: Lang): Translate {
  let t = dicts.get(lang);
  if (!t) {
    const dict = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../core/locales', `${lang}.json`), 'utf8')) as Dict;
    dicts.set(lang, (t = translatorFor(dict, lang)));
  }
  return t;
}

/** The language a listing is written in: its remarks' commonest small words, else the source's. */
export function languageOf(remarks: string | null, fallback: Lang): Lang {
  if (!remarks) return fallback;
  const words = remarks.toLowerCase().match(/\p{L}+/gu) ?? [];
  let es = 0;
  let en = 0;
  for (const w of words.slice(0, 400)) {
    if (/^(de|la|el|los|las|con|y|en|para|del|una|un|por|su)$/.test(w)) es++;
    else if (/^(the|and|with|of|in|for|a|an|to|this|is|on)$/.test(w)) en++;
  }
  return es === en ? fallback : es > en ? 'es' : 'en';
}

/** A title in the listing's language, for a feed that sends none: "Casa de 3 dormitorios en Cumbayá". */
export function composeTitle(l: Pick<ImportedListing, 'property_type' | 'bedrooms' | 'sector' | 'city' | 'square_feet' | 'lot_size'>, lang: Lang): string {
  const t = tr(lang);
  const place = l.sector || l.city || t('site.composedTitle.somewhere');
  const Type = t(`listing.types.${isKnownType(l.property_type) ? l.property_type : 'residential'}`);
  if (l.property_type === 'land' && (l.lot_size || l.square_feet)) {
    const area = Math.round((l.lot_size || l.square_feet) as number);
    return t('site.composedTitle.land', { area: area.toLocaleString(lang === 'es' ? 'es-EC' : 'en-US'), place });
  }
  if (l.bedrooms && l.bedrooms > 0 && l.property_type !== 'land') return t('site.composedTitle.withBeds', { count: l.bedrooms, Type, type: Type.toLowerCase(), place });
  return t('site.composedTitle.plain', { Type, place });
}

// ── the table ─────────────────────────────────────────────────────────────────────────────────────

interface Context {
  record: FeedRecord;
  listing: Partial<ImportedListing>;
  defaults: MappingDefaults;
  reasons: string[];
  notes: string[];
}

export interface FieldRule {
  /** the RESO Data Dictionary field(s) read */
  reso: string;
  /** our column(s) written */
  ours: string;
  /** the rule, as docs/import.md says it */
  rule: string;
  apply(c: Context): void;
}

const get = (c: Context, field: string): unknown => c.record[field];

/** A field the listing cannot be without: written, else the record is quarantined for `reason`. */
function required(c: Context, column: 'source_key' | 'address', value: string | null, reason: string): void {
  if (value) c.listing[column] = value;
  else c.reasons.push(reason);
}

/** An area in square metres; none when the unit is not one we know (or bigger than `largest`), with a note. */
function squareMetres(c: Context, n: number | null, unit: string, what: string, largest = Infinity): number | null {
  if (n === null || n <= 0) return null;
  const factor = AREA_UNITS[squash(unit)];
  if (factor === undefined || factor > largest) {
    c.notes.push(`${what} unit "${unit}"`);
    return null;
  }
  return round(n * factor);
}

/** The mapping, in the order it runs (a rule may read what an earlier one wrote). */
const FIELD_MAP: readonly FieldRule[] = [
  {
    reso: 'ListingKey',
    ours: 'source_key',
    rule: "Required: with the source, the listing's identity (a re-run updates the same listing). At most 100 characters.",
    apply(c) {
      required(c, 'source_key', text(get(c, 'ListingKey'), 100), 'no ListingKey');
    },
  },
  {
    reso: 'ListingId',
    ours: 'listing_ref',
    rule: 'The public reference (MLS number); kept as text.',
    apply(c) {
      c.listing.listing_ref = text(get(c, 'ListingId'), 100);
    },
  },
  {
    reso: 'StandardStatus (else MlsStatus)',
    ours: 'status, source_status',
    rule: 'Active and Active Under Contract are on the market (status 1); Coming Soon, Pending, Hold, Withdrawn, Canceled, Expired, Closed, Delete and Incomplete are not (the listing leaves the public view: its page answers 410). Missing: Active. Another value: kept in source_status, not on the market, and reported.',
    apply(c) {
      const raw = text(get(c, 'StandardStatus'), 60) ?? text(get(c, 'MlsStatus'), 60);
      c.listing.source_status = raw;
      if (!raw) {
        c.listing.status = '1';
        return;
      }
      const known = STATUSES[squash(raw)];
      if (!known) c.notes.push(`status "${raw}"`);
      // off the market: the status says which (closed, withdrawn...); only '1' is public
      c.listing.status = known === 'on' ? '1' : squash(raw).slice(0, 30) || 'off';
    },
  },
  {
    reso: 'PropertyType (Residential Lease, Commercial Lease), LeaseAmount, LeaseAmountFrequency',
    ours: 'operation, price',
    rule: "A lease type is a rental (operation rent), else a sale. A rental's price is a month's rent: LeaseAmount made monthly by LeaseAmountFrequency (Annually divided by 12, Weekly times 52/12, as the alícuota's), else ListPrice as a month's; a rent made monthly is reported. A Daily, Nightly, Seasonal or OneTime lease (a holiday let) is quarantined: the site lists homes to live in.",
    apply(c) {
      if (!/lease|rental|alquiler|arriendo/i.test(squash(text(get(c, 'PropertyType'), 60) ?? ''))) return;
      c.listing.operation = 'rent';
      const freq = text(get(c, 'LeaseAmountFrequency'), 40);
      if (freq && HOLIDAY_LETS.has(squash(freq))) {
        c.reasons.push(`a holiday let (rent ${freq}): this site lists homes to live in`);
        return;
      }
      const amount = number(get(c, 'LeaseAmount'));
      if (amount === null || amount <= 0) return;
      const months = FEE_MONTHS[squash(freq ?? 'monthly')];
      if (months === undefined) {
        c.reasons.push(`a rent ${freq} (LeaseAmountFrequency) that is not a month's, a week's or a year's`);
        return;
      }
      c.listing.price = Math.round((amount / months) * 100) / 100;
      if (months !== 1) c.notes.push(`rent ${amount} ${freq} made ${c.listing.price} a month`);
    },
  },
  {
    reso: 'ListPrice',
    ours: 'price',
    rule: 'Required: a number above 0 (US dollars, Ecuador\'s currency); "250,000.00" is read as 250000. A rental\'s LeaseAmount, when it has one, wins.',
    apply(c) {
      if (c.listing.operation === 'rent' && (c.listing.price !== undefined || c.reasons.length)) return;
      const price = number(get(c, 'ListPrice'));
      if (price === null || price <= 0) c.reasons.push('no price');
      else if (price > 1e10) c.reasons.push(`price ${price} is not a price`);
      else c.listing.price = round(price, 2);
    },
  },
  {
    reso: 'BedroomsTotal',
    ours: 'bedrooms',
    rule: 'A whole number from 0 to 100; else left empty.',
    apply(c) {
      const n = number(get(c, 'BedroomsTotal'));
      c.listing.bedrooms = n !== null && n >= 0 && n <= 100 ? Math.round(n) : null;
    },
  },
  {
    reso: 'BathroomsTotalInteger (else BathroomsFull + BathroomsHalf / 2)',
    ours: 'bathrooms',
    rule: 'From 0 to 100; half baths count a half.',
    apply(c) {
      let n = number(get(c, 'BathroomsTotalInteger'));
      if (n === null) {
        const full = number(get(c, 'BathroomsFull'));
        const half = number(get(c, 'BathroomsHalf'));
        if (full !== null || half !== null) n = (full ?? 0) + (half ?? 0) / 2;
      }
      c.listing.bathrooms = n !== null && n >= 0 && n <= 100 ? n : null;
    },
  },
  {
    reso: 'LivingArea, LivingAreaUnits',
    ours: 'square_feet (square metres)',
    rule: "Square feet become square metres (× 0.09290304), square metres stay; without a unit, the source's (RESO's default, square feet, unless the source says square metres). Another unit: left empty and reported.",
    apply(c) {
      // a living area in acres or hectares is not one we believe
      c.listing.square_feet = squareMetres(c, number(get(c, 'LivingArea')), text(get(c, 'LivingAreaUnits'), 40) ?? c.defaults.areaUnit, 'living area', 1);
    },
  },
  {
    reso: 'LotSizeArea, LotSizeUnits (else LotSizeSquareFeet, LotSizeAcres)',
    ours: 'lot_size (square metres)',
    rule: 'Acres, hectares, square feet and square metres become square metres. Another unit: left empty and reported.',
    apply(c) {
      let n = number(get(c, 'LotSizeArea'));
      let unit = text(get(c, 'LotSizeUnits'), 40) ?? c.defaults.areaUnit;
      if (n === null && number(get(c, 'LotSizeSquareFeet')) !== null) [n, unit] = [number(get(c, 'LotSizeSquareFeet')), 'Square Feet'];
      if (n === null && number(get(c, 'LotSizeAcres')) !== null) [n, unit] = [number(get(c, 'LotSizeAcres')), 'Acres'];
      c.listing.lot_size = squareMetres(c, n, unit, 'lot size');
    },
  },
  {
    reso: 'YearBuilt',
    ours: 'year_built',
    rule: 'From 1600 to three years ahead; else left empty.',
    apply(c) {
      const n = number(get(c, 'YearBuilt'));
      c.listing.year_built = n !== null && n >= 1600 && n <= ecuadorYear() + 3 ? Math.round(n) : null;
    },
  },
  {
    reso: 'PropertySubType, PropertyType',
    ours: 'property_type',
    rule: 'Our types (house, apartment, land, office, business_premises, commercial_building), the subtype read first: Single Family Residence and Townhouse a house, Condominium an apartment, Unimproved Land land, Office an office, Retail business premises, Industrial and Mixed Use a commercial building (docs/import.md lists them all). Another value: kept, lower case, and reported.',
    apply(c) {
      const sub = text(get(c, 'PropertySubType'), 80);
      const type = text(get(c, 'PropertyType'), 80);
      const ours = (sub && TYPES[squash(sub)]) || (type && TYPES[squash(type)]);
      if (ours) c.listing.property_type = ours;
      else if (sub || type) {
        c.notes.push(`property type "${[type, sub].filter(Boolean).join(' / ')}"`);
        c.listing.property_type = (sub ?? type ?? '').toLowerCase();
      } else c.listing.property_type = null;
    },
  },
  {
    reso: 'UnparsedAddress (else StreetNumber StreetName)',
    ours: 'address',
    rule: 'Required: a listing without an address is quarantined.',
    apply(c) {
      const street = [get(c, 'StreetName'), get(c, 'StreetNumber')].filter((x) => x !== undefined && x !== null && x !== '').join(' ');
      required(c, 'address', text(get(c, 'UnparsedAddress'), 300) ?? text(street, 300), 'no address');
    },
  },
  {
    reso: 'City, SubdivisionName, StateOrProvince',
    ours: 'city, sector, state',
    rule: 'As they come (the places and sectors of the location box are made from them).',
    apply(c) {
      c.listing.city = text(get(c, 'City'), 100);
      c.listing.sector = text(get(c, 'SubdivisionName'), 100);
      c.listing.state = text(get(c, 'StateOrProvince'), 100);
    },
  },
  {
    reso: 'Country',
    ours: 'country_code',
    rule: "EC, ECU or Ecuador (or none); any other country is quarantined: this site is Ecuador's.",
    apply(c) {
      const country = text(get(c, 'Country'), 60);
      if (country && !COUNTRY.test(country)) c.reasons.push(`country "${country}" is not Ecuador`);
      c.listing.country_code = 'EC';
    },
  },
  {
    reso: 'Latitude, Longitude',
    ours: 'geo_lat, geo_lon',
    rule: 'Both, within Ecuador (the Galápagos included); a position outside it is quarantined. None: the listing shows near its city, marked approximate.',
    apply(c) {
      const lat = parseCoordinate(get(c, 'Latitude'), Infinity);
      const lng = parseCoordinate(get(c, 'Longitude'), Infinity);
      if (lat === null || lng === null || (lat === 0 && lng === 0)) {
        c.listing.geo_lat = null;
        c.listing.geo_lon = null;
        return;
      }
      if (lat < ECUADOR.south || lat > ECUADOR.north || lng < ECUADOR.west || lng > ECUADOR.east) {
        c.reasons.push(`coordinates ${lat}, ${lng} are outside Ecuador`);
        return;
      }
      c.listing.geo_lat = String(lat);
      c.listing.geo_lon = String(lng);
    },
  },
  {
    reso: 'PublicRemarks',
    ours: 'description',
    rule: 'As text: markup is reduced to its words, scripts dropped, at most 20,000 characters.',
    apply(c) {
      c.listing.description = plainText(get(c, 'PublicRemarks'));
    },
  },
  {
    reso: 'PoolPrivateYN, PoolFeatures, ViewYN, View, WaterfrontYN, GarageYN, GarageSpaces, NewConstructionYN, CoolingYN, Cooling',
    ours: 'features',
    rule: 'pool, view, waterfront, garage, new_construction and air_conditioning, when the feed says yes (a list other than "None" counts as yes).',
    apply(c) {
      const f: FeatureFlag[] = [];
      if (yes(get(c, 'PoolPrivateYN')) || list(get(c, 'PoolFeatures')).length) f.push('pool');
      if (yes(get(c, 'ViewYN')) || list(get(c, 'View')).length) f.push('view');
      if (yes(get(c, 'WaterfrontYN'))) f.push('waterfront');
      if (yes(get(c, 'GarageYN')) || (number(get(c, 'GarageSpaces')) ?? 0) > 0) f.push('garage');
      if (yes(get(c, 'NewConstructionYN'))) f.push('newConstruction');
      if (yes(get(c, 'CoolingYN')) || list(get(c, 'Cooling')).length) f.push('airConditioning');
      // as the database names them (new_construction)
      c.listing.features = f.map(featureColumn);
    },
  },
  {
    reso: 'AssociationFee, AssociationFeeFrequency',
    ours: 'hoa_fee',
    rule: 'The alícuota, in US dollars a month: a Monthly fee (or one without a frequency) as it is; Annually, SemiAnnually, Quarterly and BiMonthly divided into months; SemiMonthly, Weekly and BiWeekly multiplied to a month. A OneTime, Daily or Seasonal fee, or one of 100,000 or more a month, is left out and reported.',
    apply(c) {
      const fee = number(get(c, 'AssociationFee'));
      if (fee === null || fee < 0) return;
      const freq = text(get(c, 'AssociationFeeFrequency'), 40);
      const months = FEE_MONTHS[squash(freq ?? 'monthly')];
      const monthly = months === undefined ? null : Math.round((fee / months) * 100) / 100;
      if (monthly === null || monthly >= 100_000) c.notes.push(`alícuota ${fee} ${freq ?? ''}`.trim());
      else c.listing.hoa_fee = monthly;
    },
  },
  {
    reso: 'ParkingTotal (else GarageSpaces plus CarportSpaces)',
    ours: 'parking_spaces',
    rule: 'The parking spaces (parqueaderos), a whole number from 0 to 99; anything else is left out.',
    apply(c) {
      const total = number(get(c, 'ParkingTotal'));
      const parts = [number(get(c, 'GarageSpaces')), number(get(c, 'CarportSpaces'))].filter((n): n is number => n !== null);
      const n = total ?? (parts.length ? parts.reduce((a, b) => a + b, 0) : null);
      c.listing.parking_spaces = n !== null && Number.isInteger(n) && n >= 0 && n <= 99 ? n : null;
    },
  },
  {
    reso: 'StorageYN (not in the Data Dictionary: a local field), else "Storage" in OtherStructures',
    ours: 'storage_unit',
    rule: 'A storage unit (bodega): yes or no when the feed says so, else unknown.',
    apply(c) {
      const said = get(c, 'StorageYN');
      if (said !== undefined && said !== null && said !== '') c.listing.storage_unit = yes(said);
      else if (list(get(c, 'OtherStructures')).some((x) => /storage|bodega/i.test(x))) c.listing.storage_unit = true;
      else c.listing.storage_unit = null;
    },
  },
  {
    reso: 'Furnished',
    ours: 'furnished',
    rule: 'Furnished (or yes): yes; Partially: partly; Unfurnished (or no): no; Negotiable or another value: unknown, and another value is reported.',
    apply(c) {
      const raw = get(c, 'Furnished');
      const v = typeof raw === 'boolean' ? (raw ? 'furnished' : 'unfurnished') : squash(text(raw, 40) ?? '');
      const known = FURNISHED[v];
      c.listing.furnished = known ?? null;
      if (v && known === undefined && v !== 'negotiable') c.notes.push(`furnished "${text(raw, 40)}"`);
    },
  },
  {
    reso: 'PetsAllowed',
    ours: 'pets_allowed',
    rule: 'No (or None): no; Yes, Cats OK, Dogs OK, Number Limit, Size Limit, Breed Restrictions: yes (with conditions the agent tells); Call or another value: unknown.',
    apply(c) {
      const values = list(get(c, 'PetsAllowed')).map(squash);
      const raw = get(c, 'PetsAllowed');
      if (typeof raw === 'boolean') c.listing.pets_allowed = raw;
      else if (values.some((v) => v === 'no' || v === 'none' || v === 'nopets')) c.listing.pets_allowed = false;
      else if (values.some((v) => PETS_YES.has(v))) c.listing.pets_allowed = true;
      else c.listing.pets_allowed = null;
    },
  },
  {
    reso: 'ListAgentKey, ListAgentEmail, ListAgentFirstName, ListAgentLastName, ListAgentDirectPhone',
    ours: 'agent_id (through agent_key or e-mail), agent_*',
    rule: "The agent is one of ours when the key is an agent's agent_key, else when the e-mail is an agent's; an unknown agent is reported, and the listing's inquiries go to the team.",
    apply(c) {
      c.listing.agent_key = text(get(c, 'ListAgentKey'), 100);
      const email = text(get(c, 'ListAgentEmail'), 200);
      c.listing.agent_email = email && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) ? email.toLowerCase() : null;
      c.listing.agent_first_name = text(get(c, 'ListAgentFirstName'), 100);
      c.listing.agent_last_name = text(get(c, 'ListAgentLastName'), 100);
      c.listing.agent_phone = text(get(c, 'ListAgentDirectPhone') ?? get(c, 'ListAgentMobilePhone'), 40);
    },
  },
  {
    reso: 'OnMarketDate (else ListingContractDate)',
    ours: 'listed_at',
    rule: 'When the listing came on the market (days on the market, the price history); none: the first import that sees it.',
    apply(c) {
      c.listing.listed_at = when(get(c, 'OnMarketDate')) ?? when(get(c, 'ListingContractDate'));
    },
  },
  {
    reso: 'ModificationTimestamp',
    ours: 'source_modified_at',
    rule: "When the feed last changed the listing: the RESO source's high-water mark for the next incremental run.",
    apply(c) {
      c.listing.source_modified_at = when(get(c, 'ModificationTimestamp'));
    },
  },
  {
    reso: 'Media (Order, MediaKey, MediaURL, MediaCategory, MediaModificationTimestamp)',
    ours: 'images (photos re-hosted)',
    rule: 'Photos (MediaCategory Photo or none), in Order, at most 50; fetched, stored by their content and made in the sizes every screen needs. A photo is fetched again only when its key, timestamp or URL changes.',
    apply(c) {
      const media = get(c, 'Media');
      const photos: FeedPhoto[] = [];
      if (Array.isArray(media)) {
        for (const [i, m] of (media as Array<Record<string, unknown>>).entries()) {
          if (!m || typeof m !== 'object') continue;
          const category = text(m.MediaCategory, 40);
          if (category && !/^(photo|image)s?$/i.test(category)) continue;
          const url = text(m.MediaURL, 2000);
          if (!url) continue;
          photos.push({ url, key: text(m.MediaKey, 200) ?? url, order: number(m.Order) ?? i, modified: text(m.MediaModificationTimestamp ?? m.ModificationTimestamp, 40) ?? '' });
        }
      }
      photos.sort((a, b) => a.order - b.order);
      c.listing.media = photos.slice(0, 50);
    },
  },
  {
    reso: '(no field: a title)',
    ours: 'title',
    rule: 'Composed in the listing\'s language (its remarks\', else the source\'s): "Casa de 3 dormitorios en Cumbayá", "3-bedroom house in Cumbayá", "Terreno de 500 m² en Tumbaco". A title the feed sends (ListingTitle, or Kyero\'s) is kept instead.',
    apply(c) {
      const given = text(get(c, 'ListingTitle'), 200);
      const lang = languageOf(c.listing.description ?? null, c.defaults.language);
      c.listing.title = given ?? composeTitle(c.listing as ImportedListing, lang);
    },
  },
];

/** One record mapped: the listing, or why it cannot be one. */
export function mapRecord(record: FeedRecord, defaults: MappingDefaults): Mapped {
  const c: Context = { record, listing: {}, defaults, reasons: [], notes: [] };
  if (!record || typeof record !== 'object' || Array.isArray(record)) return { ok: false, key: '', reasons: ['not a record'], notes: [] };
  for (const field of FIELD_MAP) field.apply(c);
  // what a feed's own reader found wrong (a rental in Kyero, a price in euros)
  if (Array.isArray(record.__quarantine)) c.reasons.push(...record.__quarantine.map(String));
  if (c.reasons.length) return { ok: false, key: text(record.ListingKey, 100) ?? '', reasons: c.reasons, notes: c.notes };
  return { ok: true, listing: c.listing as ImportedListing, notes: c.notes };
}

/** The mapping as docs/import.md shows it (a test holds the document to this). */
export function mappingTable(): string {
  return ['| RESO field | ours | rule |', '|---|---|---|', ...FIELD_MAP.map((f) => `| ${f.reso} | ${f.ours} | ${f.rule.replace(/\|/g, '\\|')} |`)].join('\n');
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
    ...group(Object.fromEntries(Object.entries(STATUSES).map(([k, v]) => [k, v === 'on' ? 'on the market (1)' : 'off the market']))),
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
