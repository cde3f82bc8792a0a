/**
 * Real markets as our listings, for the estimate's accuracy (docs/valuation.md "Accuracy"), each
 * as bench/data/README.md describes it: placed as the listings of one city and its sectors, each
 * home at its place relative to the market's middle, in a sector made of its zone, listed on its
 * sale (or listing) day, moved to end last month, at its price; and one agent who serves the city.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { Database } from '../server/db/database.ts';
import { insertRows } from '../server/seed/apply.ts';

export interface RealMarket {
  /** what it is, for the benchmark's table */
  name: string;
  file: string;
  /** the type of its homes, where the file has no `type` column or a home's cell is empty */
  property_type: 'house' | 'apartment';
  /** the city it is placed as, with its centre */
  city: string;
  state: string;
  centre: { lat: number; lng: number };
  /** brought after the method's constants were first chosen: it only ever measures them (docs/valuation.md "Constants") */
  heldOutOnly?: boolean;
}

export const REAL_MARKETS: readonly RealMarket[] = [
  {
    name: 'Lucas County, Ohio: 25,357 house sales, 1993-1998',
    file: 'lucas-county-sales.csv.gz',
    property_type: 'house',
    city: 'Cuenca',
    state: 'Azuay',
    centre: { lat: -2.9001, lng: -79.0059 },
  },
  {
    name: 'Ames, Iowa: 2,930 house sales, 2006-2010',
    file: 'ames-sales.csv.gz',
    property_type: 'house',
    city: 'Guayaquil',
    state: 'Guayas',
    centre: { lat: -2.1709, lng: -79.9224 },
  },
  {
    name: 'Athens: 1,000 flats for sale, 2017 (asking prices)',
    file: 'athens-asking-prices.csv.gz',
    property_type: 'apartment',
    city: 'Quito',
    state: 'Pichincha',
    centre: { lat: -0.1807, lng: -78.4678 },
  },
  {
    name: 'Baltimore, Maryland: 211 house sales, 1978',
    file: 'baltimore-sales.csv.gz',
    property_type: 'house',
    city: 'Manta',
    state: 'Manabí',
    centre: { lat: -0.9677, lng: -80.7089 },
    heldOutOnly: true,
  },
  {
    name: 'Sacramento, California: 932 home sales, 2008',
    file: 'sacramento-sales.csv.gz',
    property_type: 'house',
    city: 'Ambato',
    state: 'Tungurahua',
    centre: { lat: -1.2491, lng: -78.6168 },
    heldOutOnly: true,
  },
];

const METRES_PER_DEGREE = 111_320;

interface Sale {
  property_type: 'house' | 'apartment';
  price: number;
  sold: string;
  living_m2: number;
  lot_m2: number | null;
  bedrooms: number | null;
  bathrooms: number | null;
  year_built: number | null;
  garage: boolean;
  x: number;
  y: number;
  zone: string;
}

function readSales(market: RealMarket): Sale[] {
  const [head, ...lines] = gunzipSync(readFileSync(new URL(`data/${market.file}`, import.meta.url)))
    .toString('utf8')
    .trim()
    .split('\n');
  const columns = (head as string).split(',');
  return lines.map((line) => {
    const cells = Object.fromEntries(line.split(',').map((value, i) => [columns[i], value])) as Record<string, string>;
    // an empty cell is a fact the market does not give
    const known = (name: string) => (cells[name] ? Number(cells[name]) : null);
    return {
      property_type: cells.type === 'house' || cells.type === 'apartment' ? cells.type : market.property_type,
      price: Number(cells.price),
      sold: cells.sold as string,
      living_m2: Number(cells.living_m2),
      lot_m2: known('lot_m2'),
      bedrooms: known('bedrooms'),
      bathrooms: known('bathrooms'),
      year_built: known('year_built'),
      garage: cells.garage === '1',
      x: Number(cells.x),
      y: Number(cells.y),
      zone: cells.zone as string,
    };
  });
}

/** Replaces the listings of the migrated database `db` with the market's; answers how many. */
export async function loadRealMarket(db: Database, market: RealMarket): Promise<number> {
  const sales = readSales(market);
  const { centre } = market;
  const middle = (values: number[]) => (Math.min(...values) + Math.max(...values)) / 2;
  const x0 = middle(sales.map((s) => s.x));
  const y0 = middle(sales.map((s) => s.y));
  const last = Math.max(...sales.map((s) => Date.parse(s.sold)));
  const lastMonth = new Date();
  lastMonth.setUTCDate(0);
  const moved = lastMonth.getTime() - last;
  await db.transaction(
    async (tx) => {
      // the derived copies (words, cells, places) made once at the end, as the seed does
      await tx.query("select set_config('exp.listing_cells', 'deferred', true)");
      await tx.query('delete from internal.listings');
      // one agent who serves the city: a database without agents is a new one, and the server seeds it
      await tx.query(
        "insert into public.agents (first_name, last_name, email, locations_served) values ('Ana', 'Mercado', 'ana.mercado@example.com', $1)",
        [[market.city]],
      );
      const rows = sales.map((s, i) => {
        const listed = new Date(Date.parse(s.sold) + moved);
        return {
          id: i + 1,
          title: `Casa ${i + 1}`,
          address: `Lote ${i + 1}`,
          price: s.price,
          bedrooms: s.bedrooms,
          bathrooms: s.bathrooms,
          square_feet: s.living_m2,
          lot_size: s.lot_m2,
          year_built: s.year_built,
          features: s.garage ? ['garage'] : [],
          property_type: s.property_type,
          city: market.city,
          state: market.state,
          sector: `Zona ${s.zone}`,
          geo_lat: (centre.lat + (s.y - y0) / METRES_PER_DEGREE).toFixed(6),
          geo_lon: (centre.lng + (s.x - x0) / (METRES_PER_DEGREE * Math.cos((centre.lat * Math.PI) / 180))).toFixed(6),
          listed_at: listed,
          updated_at: listed,
        };
      });
      // as the seed writes its listings
      await insertRows(tx, 'internal.listings', Object.keys(rows[0] as object), rows, 1000);
      await tx.query("select set_config('exp.listing_cells', '', true)");
      await tx.query('select internal.listings_derived_rebuild()');
    },
    { long: true },
  );
  await db.jobs.query('analyze internal.listings');
  await db.jobs.query("select internal.refresh_market_index(interval '0')");
  return sales.length;
}
