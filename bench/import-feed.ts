/**
 * The feed bench/import.ts imports (docs/import.md): the seed's listings written as the records of a
 * RESO Web API (tests/support/feed-stand-ins.ts serves them), and photos as a feed's, 3000 x 2000
 * JPEGs about as heavy to decode as a camera's.
 */
import sharp from 'sharp';
import type { ListingRow } from '../server/seed/rows.ts';

const SUBTYPES: Record<string, string> = {
  house: 'Single Family Residence',
  apartment: 'Condominium',
  land: 'Unimproved Land',
  office: 'Office',
  business_premises: 'Retail',
  commercial_building: 'Industrial',
};

/** A seed listing as a RESO Web API record. */
export function resoRecord(l: ListingRow, at: string): Record<string, unknown> {
  return {
    ListingKey: `S-${l.id}`,
    ListingId: `MLS-${l.id}`,
    StandardStatus: 'Active',
    ListPrice: l.price,
    BedroomsTotal: l.bedrooms,
    BathroomsTotalInteger: l.bathrooms,
    LivingArea: l.square_feet,
    LivingAreaUnits: 'Square Meters',
    LotSizeArea: l.lot_size,
    LotSizeUnits: 'Square Meters',
    YearBuilt: l.year_built,
    PropertyType: 'Residential',
    PropertySubType: SUBTYPES[l.property_type ?? ''] ?? l.property_type,
    Latitude: l.geo_lat,
    Longitude: l.geo_lon,
    UnparsedAddress: l.address,
    City: l.city,
    SubdivisionName: l.sector,
    StateOrProvince: l.state,
    Country: 'EC',
    PublicRemarks: l.description,
    ListAgentEmail: l.agent_email,
    PoolPrivateYN: l.features.includes('pool'),
    GarageYN: l.features.includes('garage'),
    ViewYN: l.features.includes('view'),
    ModificationTimestamp: at,
    Media: [],
  };
}

/** A photo-like 3000 x 2000 JPEG (structure and noise, about as heavy to decode as a camera's). */
export async function feedPhoto(n: number): Promise<Buffer> {
  const w = 3000;
  const h = 2000;
  const raw = Buffer.alloc(w * h * 3);
  let seed = n * 2654435761;
  for (let i = 0; i < raw.length; i += 3) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    const x = (i / 3) % w;
    const y = Math.floor(i / 3 / w);
    const noise = (seed >>> 24) % 40;
    raw[i] = ((x >> 3) * 7 + y / 9 + noise + n * 13) & 255;
    raw[i + 1] = ((y >> 2) + noise + n * 29) & 255;
    raw[i + 2] = (((x + y) >> 4) * 11 + noise) & 255;
  }
  return sharp(raw, { raw: { width: w, height: h, channels: 3 } })
    .blur(1.2)
    .jpeg({ quality: 90 })
    .toBuffer();
}
