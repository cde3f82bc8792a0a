/**
 * The values a feed's record holds, read as ours (docs/import.md "The mapping"): text, numbers,
 * yes and no, lists and times checked; remarks reduced to their words; the lookups of statuses,
 * types, area units, fees, furnishing and pets; and the title a listing without one is given.
 * server/import/field-map.ts applies them field by field.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Parser } from 'htmlparser2';
import { translatorFor, type Dict, type Translate } from '../../core/translate.ts';
import type { Lang } from '../../core/lang.ts';
import { isKnownType } from '../../core/protocol/listing.ts';
import type { ImportedListing } from './mapping.ts';

// ── values ────────────────────────────────────────────────────────────────────────────────────────

export const text = (v: unknown, max = 500): string | null => {
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
  else if (dot >= 0 && /^-?\d{1,3}(\.\d{3})+$/.test(s) && (s.match(/\./g)?.length ?? 0) >= 1 && !/^-?0\./.test(s))
    s = s.replace(/\./g, '');
  const n = Number(s);
  return s && Number.isFinite(n) ? n : null;
}

export const yes = (v: unknown): boolean =>
  v === true || (typeof v === 'string' && /^(true|yes|y|1|s[ií])$/i.test(v.trim())) || v === 1;

/** A list the feed may send as an array or as "a, b, c". */
export const list = (v: unknown): string[] =>
  (Array.isArray(v) ? v : typeof v === 'string' ? v.split(/[,;|]/) : [])
    .map((x) => text(x, 100) ?? '')
    .filter((x) => x && !/^none$/i.test(x));

export const when = (v: unknown): string | null => {
  const s = text(v, 40);
  if (!s) return null;
  // "2026-11-03 10:00:00" (Kyero, CSV) is read as UTC, as RESO's timestamps are
  const t = Date.parse(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/.test(s) ? `${s.replace(' ', 'T')}Z` : s);
  return Number.isFinite(t) ? new Date(t).toISOString() : null;
};

/** Elements whose content is never text of the listing. */
const SKIPPED = new Set(['script', 'style', 'template', 'iframe', 'object', 'noscript', 'svg', 'head']);
/** Elements that end a line. */
const BLOCKS = new Set([
  'p',
  'div',
  'li',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'tr',
  'blockquote',
  'ul',
  'ol',
  'table',
  'section',
  'article',
]);

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
export const STATUSES: Record<string, 'on' | 'off'> = {
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

export const squash = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '');

/** Square metres in one of these units; RESO's AreaUnits and LotSizeUnits, and the usual short forms. */
export const AREA_UNITS: Record<string, number> = {
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

export const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Ecuador with the Galápagos, with a margin of a few kilometres. */
/** How many months an association fee's period is (AssociationFeeFrequency, letters and case ignored). */
/** A lease by the night, the day or the season (letters and case ignored): a holiday let, not a home to rent. */
export const HOLIDAY_LETS = new Set(['daily', 'nightly', 'night', 'day', 'seasonal', 'onetime']);

export const FEE_MONTHS: Record<string, number> = {
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
export const FURNISHED: Record<string, 'yes' | 'partly' | 'no'> = {
  furnished: 'yes',
  yes: 'yes',
  y: 'yes',
  partially: 'partly',
  partly: 'partly',
  unfurnished: 'no',
  no: 'no',
  n: 'no',
};

/** PetsAllowed's values that allow some pets (letters and case ignored). */
export const PETS_YES = new Set(['yes', 'catsok', 'dogsok', 'numberlimit', 'sizelimit', 'breedrestrictions']);

export const ECUADOR = { south: -5.1, north: 1.7, west: -92.1, east: -75.1 };

export const COUNTRY = /^(ec|ecu|ecuador)$/i;

// ── composed titles ───────────────────────────────────────────────────────────────────────────────

const dicts = new Map<Lang, Translate>();
function tr(lang: Lang): Translate {
  let t = dicts.get(lang);
  if (!t) {
    const dict = JSON.parse(
      readFileSync(resolve(import.meta.dirname, '../../core/locales', `${lang}.json`), 'utf8'),
    ) as Dict;
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
export function composeTitle(
  l: Pick<ImportedListing, 'property_type' | 'bedrooms' | 'sector' | 'city' | 'square_feet' | 'lot_size'>,
  lang: Lang,
): string {
  const t = tr(lang);
  const place = l.sector || l.city || t('site.composedTitle.somewhere');
  const Type = t(`listing.types.${isKnownType(l.property_type) ? l.property_type : 'residential'}`);
  if (l.property_type === 'land' && (l.lot_size || l.square_feet)) {
    const area = Math.round((l.lot_size || l.square_feet) as number);
    return t('site.composedTitle.land', { area: area.toLocaleString(lang === 'es' ? 'es-EC' : 'en-US'), place });
  }
  if (l.bedrooms && l.bedrooms > 0 && l.property_type !== 'land')
    return t('site.composedTitle.withBeds', { count: l.bedrooms, Type, type: Type.toLowerCase(), place });
  return t('site.composedTitle.plain', { Type, place });
}
