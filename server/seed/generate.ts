/**
 * The deterministic seed: the same rows on every machine and in every test (fixed random seed,
 * fixed reference date). Realistic listings over the places of places.ts, plus the rows that
 * exercise the rules: inactive and foreign listings that must never show, coordinates that are
 * missing, empty, non-numeric or numeric strings, missing title / price / type, odd types, HTML in
 * text, every shape of the images field, and agent fields partly empty.
 */
import { generateAgents, type AgentRow } from './agents.ts';
import { AREA, PLACES, type Place } from './places.ts';
import { descriptionFor, titleFor, type Pick } from './text.ts';
import type { ListingRow, PriceChangeRow, OpenHouseRow, SpellRow, Seed } from './rows.ts';
import {
  SEED,
  REFERENCE_DATE,
  random,
  imagesFor,
  pointNear,
  sectorPlace,
  listingExtras,
  listingFacts,
  weighted,
  agentColumns,
  NO_AGENT,
  homeColumns,
  roundPrice,
  HOUR,
  DAY,
} from './draw.ts';
import { sectorFactor, askingPrice, marketFactor, priceHistoryFor } from './prices.ts';
import { seedLeads } from './leads.ts';
import { seedListingWeeks } from './listing-weeks.ts';
import { rentalsFor } from './rentals.ts';
import { seedProjects, seedUnits } from './projects.ts';
import { seedPointsOfInterest } from './nearby.ts';
import { specialRows } from './special-rows.ts';

export const DEFAULT_LISTINGS = 1800;

/**
 * Open houses over the next two weekends, as agents hold them: every 29th active house or
 * apartment on Saturday 10:00-12:00 in Ecuador (UTC-5), some on Sunday 11:00-13:00 too, a few on a
 * weekday evening this week, a few streamed, one by appointment. From `now` (the seed's day), so
 * "this week" always has some.
 */
function openHousesFor(listings: readonly ListingRow[], now: number): OpenHouseRow[] {
  const out: OpenHouseRow[] = [];
  const day = Math.floor(now / DAY) * DAY;
  // the next Saturday (or today's) and the one after, at 00:00 in Ecuador
  const saturday = day + ((6 - new Date(day).getUTCDay() + 7) % 7) * DAY + 5 * HOUR;
  const chosen = listings
    .filter(
      (l) =>
        l.status === '1' && l.country_code === 'EC' && (l.property_type === 'house' || l.property_type === 'apartment'),
    )
    .filter((_, i) => i % 29 === 3);
  for (const [i, l] of chosen.entries()) {
    const week = i % 3 === 2 ? 7 * DAY : 0;
    const at = (start: number, hours: number, n: number, extra: Partial<OpenHouseRow> = {}) =>
      out.push({
        listing_id: l.id,
        source: 'seed',
        source_key: `seed-${l.id}-${n}`,
        starts_at: new Date(start).toISOString(),
        ends_at: new Date(start + hours * HOUR).toISOString(),
        remarks: null,
        livestream_url: null,
        appointment_required: false,
        ...extra,
      });
    at(
      saturday + week + 10 * HOUR,
      2,
      1,
      i % 5 === 0 ? { livestream_url: `https://live.expecuador.example/open-house/${l.id}` } : {},
    );
    if (i % 4 === 1) at(saturday + week + DAY + 11 * HOUR, 2, 2, { remarks: 'Café y recorrido guiado por el agente.' });
    // a weekday evening within the next days
    if (i % 7 === 4) at(day + 2 * DAY + 5 * HOUR + 17 * HOUR, 2, 3, { appointment_required: i % 14 === 4 });
  }
  return out;
}

/**
 * `now` is the seed's day: the listings, their price changes and the rest are placed before it (the
 * server passes the time it seeds); without it, the reference date, so the seed is the same on every call.
 */
export function generateSeed(options: { listings?: number; seed?: number; now?: number } = {}): Seed {
  const total = options.listings ?? DEFAULT_LISTINGS;
  const rand = random(options.seed ?? SEED);
  const pick: Pick = (items) => items[Math.floor(rand() * items.length)] as (typeof items)[number];
  const agents = generateAgents(rand);
  const ecAgents = agents.filter((a) => a.country_code === 'EC');
  const byCity = new Map<string, AgentRow[]>();
  for (const a of ecAgents) for (const c of a.home) byCity.set(c, [...(byCity.get(c) ?? []), a]);
  const placeWeights = Object.fromEntries(PLACES.map((p, i) => [String(i), p.weight])) as Record<string, number>;

  // the start of that day (UTC): two databases seeded the same day hold the same rows; the listings
  // came on the market in the two years before it, at its prices then (so the market the site shows
  // is as fresh on any day it is seeded: a new listing last month, a price cut this week)
  const now = Math.floor((options.now ?? REFERENCE_DATE) / DAY) * DAY;
  const listings: ListingRow[] = [];
  const span = 730 * 86_400_000;
  for (let i = 0; i < total; i++) {
    const place = PLACES[Number(weighted(placeWeights, rand))] as Place;
    const type = weighted(place.mix, rand);
    const [aLo, aHi] = AREA[type];
    // areas cluster at the low end, as real stock does
    let area = Math.round(aLo + (aHi - aLo) * Math.pow(rand(), type === 'land' ? 3 : 2.2));
    if (type === 'land' && area > 2000) area = Math.round(area / 50) * 50;
    // what is the home's own in its price (finishes, condition, the owner's hopes): about 13%, lognormal
    const own = Math.exp(0.13 * Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand()));
    let bedrooms = 0;
    let bathrooms = type === 'land' ? 0 : 1;
    if (type === 'apartment') {
      bedrooms = Math.max(1, Math.min(4, Math.round(area / 55 + rand() * 0.8)));
      bathrooms = Math.min(4, bedrooms === 1 ? 1 + (rand() < 0.4 ? 0.5 : 0) : bedrooms - (rand() < 0.5 ? 0.5 : 0));
    } else if (type === 'house') {
      bedrooms = Math.max(2, Math.min(6, Math.round(area / 85 + rand())));
      bathrooms = Math.min(6, bedrooms + (rand() < 0.5 ? -0.5 : rand() < 0.5 ? 0.5 : 0));
    } else if (type === 'office' || type === 'business_premises') {
      bathrooms = 1 + (area > 150 ? 1 : 0) + (area > 300 ? 1 : 0);
    } else if (type === 'commercial_building') {
      bathrooms = 4 + Math.floor(area / 600);
    }
    const neighbourhood = pick(place.neighbourhoods);
    const english = rand() < place.expat;
    const facts = { type, city: place.city, neighbourhood, bedrooms, bathrooms, area, region: place.region, english };
    const [lat, lng] = pointNear(sectorPlace(place, neighbourhood), rand);
    const street = pick(place.streets);
    const number =
      place.city === 'Quito' || place.city === 'Cumbayá' || place.city === 'Tumbaco'
        ? `${pick(['N', 'E', 'S', 'Oe'])}${10 + Math.floor(rand() * 70)}-${100 + Math.floor(rand() * 300)}`
        : String(100 + Math.floor(rand() * 1900));
    const candidates = byCity.get(place.city) ?? ecAgents;
    const agent = rand() < 0.85 ? pick(candidates) : pick(ecAgents);
    const created = new Date(now - Math.floor(rand() * span) - i).toISOString();
    const status = rand() < 0.05 ? pick(['0', '2', '3']) : '1';

    const row: ListingRow = {
      id: i + 1,
      title: titleFor(facts, pick),
      address: `${street} ${number}, ${neighbourhood}`,
      price: null,
      ...homeColumns({ place, sector: neighbourhood, type, area, bedrooms, bathrooms, lat, lng }),
      images: imagesFor(type, rand, pick),
      description: descriptionFor(facts, pick, rand),
      created_at: created,
      status,
      ...agentColumns(agent),
    };
    Object.assign(row, listingExtras(row.id, type, place, area, `${row.title} ${row.description}`));
    Object.assign(
      row,
      listingFacts(
        row.id,
        type,
        area,
        sectorFactor(row.city ?? '', neighbourhood ?? ''),
        `${row.title} ${row.description}`,
      ),
    );
    row.price = askingPrice(type, place, neighbourhood, row, own);
    // feeds are imperfect: a sprinkle of the real-world defects on ordinary rows
    const defect = rand();
    if (defect < 0.012) row.agent_email = null;
    else if (defect < 0.02) row.agent_phone = null;
    else if (defect < 0.03) Object.assign(row, NO_AGENT);
    else if (defect < 0.036) Object.assign(row, { geo_lat: null, geo_lon: null });
    else if (defect < 0.04) row.geo_lat = ` ${row.geo_lat} `;
    listings.push(row);
  }
  // each asking price as the market stood when the listing came on it (marketFactor)
  for (const row of listings)
    if (row.price)
      row.price = Math.max(
        roundPrice(row.price * marketFactor(row.city, row.sector, Date.parse(row.created_at), now)),
        row.property_type === 'land' ? 8000 : 25_000,
      );
  listings.push(...specialRows(listings.length + 1, ecAgents, rand, now));
  const priceChanges: PriceChangeRow[] = [];
  for (const row of listings) {
    row.listed_at = row.created_at;
    const changes = priceHistoryFor(row, now, options.seed ?? SEED);
    priceChanges.push(...changes);
    const last = changes.at(-1);
    if (last && last.new_price < last.old_price)
      Object.assign(row, { price_cut_at: last.changed_at, price_before_cut: last.old_price });
  }
  const past = pastListings(listings, now, options.seed ?? SEED);
  // the next id after every row (a loop: 200,000 arguments to Math.max overflow the stack)
  const nextId = [...listings, ...past.listings].reduce((max, l) => Math.max(max, l.id), 0) + 1;
  const rentals = rentalsFor(listings, nextId, byCity, now, options.seed ?? SEED);
  // every row says its operation (the column is not null; a sale is the database's default)
  for (const l of [...listings, ...past.listings]) l.operation ??= 'sale';
  // each appeared here when it came on the market (the seed's history is this site's)
  const all = [...listings, ...past.listings, ...rentals].map((row) => ({ ...row, appeared_at: row.listed_at }));
  const { projects, unitTypes } = seedProjects(now);
  return {
    agents,
    listings: all,
    priceChanges,
    spells: [...spellsOfInactive(listings, now), ...past.spells],
    openHouses: openHousesFor(listings, now),
    projects,
    unitTypes,
    units: seedUnits(projects, unitTypes, agents, now),
    pointsOfInterest: seedPointsOfInterest(),
    leads: seedLeads(agents, all, now, options.seed ?? SEED),
    listingWeeks: seedListingWeeks(agents, all, now, options.seed ?? SEED),
  };
}

/** The listings seeded off the market were on it for a while before: from their creation, 1 to 8 months. */
function spellsOfInactive(listings: ListingRow[], now: number): SpellRow[] {
  return listings
    .filter((l) => l.status !== '1')
    .map((l) => {
      const on = Date.parse(l.created_at);
      const off = Math.min(now - DAY, on + (30 + (l.id % 210)) * DAY);
      return { listing_id: l.id, on_at: new Date(on).toISOString(), off_at: new Date(Math.max(on, off)).toISOString() };
    });
}

/**
 * The market's last two years (docs/market.md, "The seed"): as many listings again, like the ones
 * on the market now (the same places, types and sizes), that came on it at some time in the last
 * 24 months, stayed 3 weeks to 8 months and were sold or withdrawn, each asked at the price of its
 * place and time (marketFactor). Its own random sequence: the rest of the seed is the same.
 */
function pastListings(
  current: ListingRow[],
  now: number,
  seed: number,
): { listings: ListingRow[]; spells: SpellRow[] } {
  const rand = random(seed * 17 + 3);
  const models = current.filter(
    (l) =>
      l.status === '1' && l.price && l.price > 0 && l.city && !/[<>]/.test(`${l.title ?? ''}${l.description ?? ''}`),
  );
  const listings: ListingRow[] = [];
  const spells: SpellRow[] = [];
  let id = current.reduce((max, l) => Math.max(max, l.id), 0) + 1;
  for (let i = 0; i < models.length; i++) {
    const model = models[Math.floor(rand() * models.length)] as ListingRow;
    const stay = (21 + Math.floor(rand() * 220)) * DAY;
    const on = now - Math.floor(rand() * 730 * DAY) - stay;
    const off = Math.min(on + stay, now - DAY);
    if (off <= on) continue;
    const today = (model.price as number) / marketFactor(model.city, model.sector, Date.parse(model.created_at), now);
    const price = Math.max(
      roundPrice(today * marketFactor(model.city, model.sector, on, now) * (0.9 + rand() * 0.2)),
      model.property_type === 'land' ? 8000 : 25_000,
    );
    const created = new Date(on).toISOString();
    listings.push({
      ...model,
      id,
      price,
      status: rand() < 0.7 ? '2' : '0',
      created_at: created,
      listed_at: created,
      price_cut_at: null,
      price_before_cut: null,
    });
    spells.push({ listing_id: id, on_at: created, off_at: new Date(off).toISOString() });
    id++;
  }
  return { listings, spells };
}
