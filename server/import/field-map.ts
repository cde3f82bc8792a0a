/**
 * The mapping's table (docs/import.md "The mapping"): one rule per field, in the order it runs,
 * each naming the RESO field it reads, the column it writes and the rule in words (what
 * docs/import.md shows; a test holds the two together).
 */
import { featureColumn, type FeatureFlag } from '../../core/protocol/filters.ts';
import { parseCoordinate } from '../../core/protocol/text.ts';
import { ecuadorYear } from '../../core/protocol/calendar.ts';
import {
  text,
  yes,
  list,
  when,
  STATUSES,
  squash,
  AREA_UNITS,
  round,
  HOLIDAY_LETS,
  FEE_MONTHS,
  FURNISHED,
  PETS_YES,
  COUNTRY,
  number,
  plainText,
  TYPES,
  ECUADOR,
  languageOf,
  composeTitle,
} from './values.ts';
import type { FeedRecord, FeedPhoto, ImportedListing, MappingDefaults } from './mapping.ts';

export interface Context {
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
export const FIELD_MAP: readonly FieldRule[] = [
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
      c.listing.square_feet = squareMetres(
        c,
        number(get(c, 'LivingArea')),
        text(get(c, 'LivingAreaUnits'), 40) ?? c.defaults.areaUnit,
        'living area',
        1,
      );
    },
  },
  {
    reso: 'LotSizeArea, LotSizeUnits (else LotSizeSquareFeet, LotSizeAcres)',
    ours: 'lot_size (square metres)',
    rule: 'Acres, hectares, square feet and square metres become square metres. Another unit: left empty and reported.',
    apply(c) {
      let n = number(get(c, 'LotSizeArea'));
      let unit = text(get(c, 'LotSizeUnits'), 40) ?? c.defaults.areaUnit;
      if (n === null && number(get(c, 'LotSizeSquareFeet')) !== null)
        [n, unit] = [number(get(c, 'LotSizeSquareFeet')), 'Square Feet'];
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
      const street = [get(c, 'StreetName'), get(c, 'StreetNumber')]
        .filter((x) => x !== undefined && x !== null && x !== '')
        .join(' ');
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
      const parts = [number(get(c, 'GarageSpaces')), number(get(c, 'CarportSpaces'))].filter(
        (n): n is number => n !== null,
      );
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
      c.listing.media = feedPhotos(get(c, 'Media'));
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

/** A record's photos as the feed lists them (RESO Media): photos only (or a unit type's floor plans only), in their order, at most 50 (a listing's, a project's, a type's alike). */
export function feedPhotos(media: unknown, kind: 'photos' | 'floorPlans' = 'photos'): FeedPhoto[] {
  const photos: FeedPhoto[] = [];
  if (Array.isArray(media)) {
    for (const [i, m] of (media as Array<Record<string, unknown>>).entries()) {
      if (!m || typeof m !== 'object') continue;
      const category = text(m.MediaCategory, 40);
      // a photo says so or says nothing; a floor plan says so (RESO's MediaCategory "Floor Plan")
      if (
        kind === 'photos' ? category && !/^(photo|image)s?$/i.test(category) : !/^floor ?plans?$/i.test(category ?? '')
      )
        continue;
      const url = text(m.MediaURL, 2000);
      if (!url) continue;
      photos.push({
        url,
        key: text(m.MediaKey, 200) ?? url,
        order: number(m.Order) ?? i,
        modified: text(m.MediaModificationTimestamp ?? m.ModificationTimestamp, 40) ?? '',
      });
    }
  }
  photos.sort((a, b) => a.order - b.order);
  return photos.slice(0, 50);
}
