/**
 * The rows the seed writes (docs/architecture.md "The seed"), as their tables name their columns.
 */
import type { ProjectRow, UnitListingRow, UnitTypeRow } from './projects.ts';
import type { PointOfInterestRow } from '../import/nearby.ts';
import type { LeadRow } from './leads.ts';
import type { ListingWeekRow } from './listing-weeks.ts';
import { type AgentRow } from './agents.ts';
import type { Operation } from '../../core/protocol/filters.ts';

export interface ListingRow {
  id: number;
  title: string | null;
  address: string | null;
  price: number | null;
  bedrooms: number | null;
  bathrooms: number | null;
  square_feet: number | null;
  property_type: string | null;
  city: string | null;
  state: string | null;
  images: unknown;
  geo_lat: string | null;
  geo_lon: string | null;
  description: string | null;
  created_at: string;
  status: string;
  country_code: string;
  agent_id: number | null;
  agent_first_name: string | null;
  agent_last_name: string | null;
  agent_email: string | null;
  agent_phone: string | null;
  agent_picture: string | null;
  sector: string | null;
  features: string[];
  year_built: number | null;
  lot_size: number | null;
  /** when it came on the market (its creation, for the seed); the database's default is now */
  listed_at?: string | null;
  /** when it appeared here (the alerts' new): when it came on the market, for the seed; the default is now */
  appeared_at?: string | null;
  /** its last price cut and the price before it (priceHistoryFor) */
  price_cut_at?: string | null;
  price_before_cut?: number | null;
  hoa_fee?: number | null;
  parking_spaces?: number | null;
  storage_unit?: boolean | null;
  furnished?: 'yes' | 'partly' | 'no' | null;
  pets_allowed?: boolean | null;
  /** 'rent': the price is a month's (rentalsFor); the database's default is 'sale' */
  operation?: Operation;
}

/** One kept price change (internal.listing_price_changes). */
export interface PriceChangeRow {
  listing_id: number;
  old_price: number;
  new_price: number;
  changed_at: string;
}

// prettier-ignore
export const LISTING_COLUMNS = [
  'id', 'title', 'address', 'price', 'bedrooms', 'bathrooms', 'square_feet', 'property_type', 'city', 'state', 'images', 'geo_lat', 'geo_lon',
  'description', 'created_at', 'status', 'country_code', 'agent_id', 'agent_first_name', 'agent_last_name', 'agent_email', 'agent_phone', 'agent_picture',
  'sector', 'features', 'year_built', 'lot_size', 'listed_at', 'price_cut_at', 'price_before_cut',
  'hoa_fee', 'parking_spaces', 'storage_unit', 'furnished', 'pets_allowed', 'operation', 'appeared_at',
] as const satisfies ReadonlyArray<keyof ListingRow>;

export const PRICE_CHANGE_COLUMNS = [
  'listing_id',
  'old_price',
  'new_price',
  'changed_at',
] as const satisfies ReadonlyArray<keyof PriceChangeRow>;

/** One open house (internal.open_houses; docs/visits.md "Open houses"). */
export interface OpenHouseRow {
  listing_id: number;
  source: string;
  source_key: string;
  starts_at: string;
  ends_at: string;
  remarks: string | null;
  livestream_url: string | null;
  appointment_required: boolean;
}

export const OPEN_HOUSE_COLUMNS = [
  'listing_id',
  'source',
  'source_key',
  'starts_at',
  'ends_at',
  'remarks',
  'livestream_url',
  'appointment_required',
] as const satisfies ReadonlyArray<keyof OpenHouseRow>;

// prettier-ignore
export const AGENT_COLUMNS = [
  'id', 'first_name', 'last_name', 'email', 'phone', 'picture', 'country_code', 'location', 'about', 'about_es', 'languages', 'specializations', 'certifications',
  'locations_served', 'facebook', 'instagram', 'linkedin', 'website', 'private_notes', 'created_at',
] as const satisfies ReadonlyArray<keyof AgentRow>;

/** A time a listing was on the market that is over (internal.listing_spells; the open ones the database writes). */
export interface SpellRow {
  listing_id: number;
  on_at: string;
  off_at: string;
}

export const SPELL_COLUMNS = ['listing_id', 'on_at', 'off_at'] as const satisfies ReadonlyArray<keyof SpellRow>;

export interface Seed {
  agents: AgentRow[];
  listings: ListingRow[];
  priceChanges: PriceChangeRow[];
  spells: SpellRow[];
  openHouses: OpenHouseRow[];
  /** the new developments and their unit types (projects.ts) */
  projects: ProjectRow[];
  unitTypes: UnitTypeRow[];
  /** some of their available units, for sale as listings of their own (seedUnits) */
  units: UnitListingRow[];
  /** the places of interest around them (nearby.ts) */
  pointsOfInterest: PointOfInterestRow[];
  /** what visitors asked the office's agents (leads.ts) */
  leads: LeadRow[];
  /** their newest listings' page views and saves, week by week (listing-weeks.ts) */
  listingWeeks: ListingWeekRow[];
}
