/**
 * The feeds that come as a document (docs/import.md): RESO JSON (the RESO Web API's answer or an
 * array of its records), the CSV template, and Kyero's XML (v3). Each is read into records with
 * the RESO Data Dictionary's names (mapping.ts maps those), or refused whole with a clear reason: a
 * document that is not what it says it is (HTML where JSON was expected, XML that does not parse,
 * a DOCTYPE) fails its run, and a failed run withdraws nothing.
 */
import { parse as parseCsv } from 'csv-parse/sync';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { FeedRecord } from './mapping.ts';

export class FeedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FeedError';
  }
}

/** What a body looks like, for a message that says what came instead. */
export function describeBody(text: string): string {
  const head = text.trimStart().slice(0, 200).toLowerCase();
  if (!head) return 'an empty answer';
  if (head.startsWith('<!doctype html') || head.startsWith('<html') || /<(head|body)\b/.test(head))
    return 'an HTML page';
  if (head.startsWith('<')) return 'XML or markup';
  if (head.startsWith('{') || head.startsWith('[')) return 'JSON';
  return `text beginning "${text.trim().slice(0, 40).replace(/\s+/g, ' ')}"`;
}

// ── RESO JSON ─────────────────────────────────────────────────────────────────────────────────────

/** RESO records from JSON: the Web API's `{ "value": [...] }`, or an array of records. */
export function resoJsonRecords(text: string): FeedRecord[] {
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    throw new FeedError(`not JSON: the feed is ${describeBody(text)}`);
  }
  const records = Array.isArray(data)
    ? data
    : data && typeof data === 'object' && Array.isArray((data as { value?: unknown }).value)
      ? (data as { value: unknown[] }).value
      : null;
  if (!records)
    throw new FeedError('JSON without records: expected an array of RESO records or an object with "value": [...]');
  return records as FeedRecord[];
}

// ── CSV ───────────────────────────────────────────────────────────────────────────────────────────

/**
 * The CSV template (docs/import.md): a header of RESO names, one row per listing, `Photos` with the
 * photos' addresses in order (separated by "|", spaces or line ends). UTF-8, a comma or a semicolon
 * between fields (a spreadsheet in Spanish writes semicolons), fields quoted with ".
 */
export function csvRecords(text: string): FeedRecord[] {
  const body = text.replace(/^\uFEFF/, '');
  if (!body.trim()) return [];
  if (/^\s*</.test(body)) throw new FeedError(`not CSV: the feed is ${describeBody(body)}`);
  const firstLine = body.slice(0, body.search(/\r?\n/) >>> 0 || body.length);
  const delimiter = (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
  let rows: Array<Record<string, string>>;
  try {
    rows = parseCsv(body, {
      columns: (header: string[]) => header.map((h) => h.trim()),
      delimiter,
      skip_empty_lines: true,
      trim: true,
      relax_column_count: true,
      bom: true,
      max_record_size: 1_000_000,
    }) as Array<Record<string, string>>;
  } catch (error) {
    throw new FeedError(`the CSV does not parse: ${(error as Error).message}`);
  }
  const header = Object.keys(rows[0] ?? {});
  if (rows.length && !header.includes('ListingKey'))
    throw new FeedError(`the CSV's header has no ListingKey column (it has: ${header.slice(0, 12).join(', ')})`);
  return rows.map((row) => {
    const record: FeedRecord = {};
    for (const [k, v] of Object.entries(row)) if (k && v !== '' && k !== 'Photos') record[k] = v;
    const photos = (row.Photos ?? '').split(/[|\s]+/).filter(Boolean);
    if (photos.length) record.Media = photos.map((url, i) => ({ MediaURL: url, Order: i, MediaCategory: 'Photo' }));
    return record;
  });
}

// ── Kyero ─────────────────────────────────────────────────────────────────────────────────────────

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  trimValues: true,
  isArray: (name) => ['property', 'image', 'feature'].includes(name),
  // only XML's own five entities: a feed has no DTD (one with a DOCTYPE anywhere is refused before
  // this, kyeroRecords; fast-xml-parser reads maxEntityCount 0 as 1, so the refusal is the guard)
  processEntities: { enabled: true, maxEntityCount: 1, maxExpandedLength: 1_000_000 },
  htmlEntities: false,
});

type Node = Record<string, unknown>;
const str = (v: unknown): string | undefined =>
  typeof v === 'string'
    ? v
    : typeof v === 'number'
      ? String(v)
      : v && typeof v === 'object' && '#text' in (v as Node)
        ? String((v as Node)['#text'])
        : undefined;

/** Kyero's words for what our features are. */
const KYERO_FEATURES: Array<[RegExp, string]> = [
  [/pool|piscina/i, 'PoolFeatures'],
  [/garage|garaje|parking|parqueadero|estacionamiento/i, 'GarageYN'],
  [/air ?con|aire acondicionado|a\/c/i, 'CoolingYN'],
  [/view|vista/i, 'ViewYN'],
  [/beach ?front|sea ?front|frente al mar|waterfront/i, 'WaterfrontYN'],
];

/**
 * Kyero v3 (feed_version 3): `<root><kyero><feed_version>3</feed_version></kyero><property>...`.
 * Kyero's feed is whole (every listing, no status): a listing that is in it is on the market, one
 * that is not has left. Kyero has no street address; the address is the urbanisation and the town.
 * A rental (price_freq month, week or year) is read as a RESO lease (its rent made monthly); a
 * holiday let (night, day) and a price in another currency than US dollars are quarantined.
 */
/** Kyero's price_freq as RESO's LeaseAmountFrequency. */
const KYERO_FREQUENCIES: Record<string, string> = {
  month: 'Monthly',
  week: 'Weekly',
  year: 'Annually',
  night: 'Nightly',
  day: 'Daily',
};

export function kyeroRecords(text: string): FeedRecord[] {
  const body = text.replace(/^\uFEFF/, '');
  if (!body.trim()) return [];
  // a DTD wherever it stands (after a long comment, inside the document): no entity of a feed's may expand
  if (/<!(DOCTYPE|ENTITY|ELEMENT|ATTLIST)/i.test(body))
    throw new FeedError('the XML declares a DOCTYPE: a Kyero feed has none (refused, so no entity can expand)');
  // comments hold no "--" (XML 1.0 §2.5), so one cannot swallow what stands between two of them
  if (!/^\s*(<\?xml[^>]*\?>\s*)?(<!--(?:(?!--)[\s\S])*-->\s*)*<root[\s>]/.test(body))
    throw new FeedError(`not a Kyero feed: expected <root>, the feed is ${describeBody(body)}`);
  const valid = XMLValidator.validate(body);
  if (valid !== true) throw new FeedError(`the XML does not parse: ${valid.err.msg} (line ${valid.err.line})`);
  const doc = xml.parse(body) as { root?: { kyero?: Node; property?: Node[] } };
  const root = doc.root;
  if (!root || typeof root !== 'object') throw new FeedError('not a Kyero feed: no <root>');
  const version = str(root.kyero?.feed_version);
  if (version !== undefined && !/^3(\.\d+)?$/.test(version))
    throw new FeedError(`Kyero feed_version ${version}: version 3 is read`);
  return (root.property ?? []).map((p) => kyeroRecord(p));
}

function kyeroRecord(p: Node): FeedRecord {
  const location = (p.location ?? {}) as Node;
  const surface = (p.surface_area ?? {}) as Node;
  const desc = p.desc && typeof p.desc === 'object' ? (p.desc as Node) : undefined;
  const remarks = desc ? (str(desc.es) ?? str(desc.en) ?? Object.values(desc).map(str).find(Boolean)) : str(p.desc);
  const town = str(p.town);
  const detail = str(p.location_detail);
  const record: FeedRecord = {
    ListingKey: str(p.id),
    ListingId: str(p.ref),
    ModificationTimestamp: str(p.date),
    ListPrice: str(p.price),
    PropertySubType: str(p.type),
    City: town,
    SubdivisionName: detail,
    StateOrProvince: str(p.province),
    Country: str(p.country),
    UnparsedAddress: [detail, town].filter(Boolean).join(', ') || undefined,
    Latitude: str(location.latitude),
    Longitude: str(location.longitude),
    BedroomsTotal: str(p.beds),
    BathroomsTotalInteger: str(p.baths),
    LivingArea: str(surface.built),
    LivingAreaUnits: 'Square Meters',
    LotSizeArea: str(surface.plot),
    LotSizeUnits: 'Square Meters',
    PublicRemarks: remarks,
    PoolPrivateYN: str(p.pool) === '1',
    NewConstructionYN: str(p.new_build) === '1',
  };
  const features = (((p.features ?? {}) as Node).feature ?? []) as unknown[];
  for (const f of features) {
    const name = str(f) ?? '';
    for (const [pattern, field] of KYERO_FEATURES)
      if (pattern.test(name)) record[field] = field === 'PoolFeatures' ? name : true;
  }
  const images = (((p.images ?? {}) as Node).image ?? []) as Node[];
  record.Media = images.map((img, i) => ({
    MediaKey: str(img['@id']) ?? str(img.url),
    MediaURL: str(img.url),
    Order: i,
    MediaCategory: 'Photo',
  }));
  const reasons: string[] = [];
  // a rental: the mapping's lease rule makes its rent monthly (or keeps a holiday let out)
  const freq = str(p.price_freq)?.toLowerCase();
  if (freq && freq !== 'sale')
    Object.assign(record, {
      PropertyType: 'Residential Lease',
      LeaseAmount: record.ListPrice,
      LeaseAmountFrequency: KYERO_FREQUENCIES[freq] ?? freq,
    });
  const currency = str(p.currency);
  if (currency && currency.toUpperCase() !== 'USD')
    reasons.push(`price in ${currency.toUpperCase()}: Ecuador's prices are in US dollars`);
  if (reasons.length) record.__quarantine = reasons;
  return record;
}
