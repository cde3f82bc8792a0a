/**
 * What the server's pages read, through the same REST protocol the widgets use (@supabase/
 * postgrest-js), so they render the same over our own server or a hosted Supabase project
 * (SITE_API_URL and SITE_API_KEY: the project's URL and anon key). Nothing privileged: the public
 * key sees what any visitor's browser sees.
 */
import { PostgrestClient } from '@supabase/postgrest-js';
import type { RequestContext } from '../http/request-context.ts';
import type { Row } from '../db/database.ts';
import type { AgentProfileRecord, AgentRecord } from '../../core/protocol/records.ts';
import { AGENT_COLUMNS, AGENT_PROFILE_COLUMNS } from '../../core/protocol/agent.ts';
import { PUBLIC_LISTING } from '../../core/protocol/listing.ts';
import { parsePriceHistory, type PriceEvent } from '../../core/protocol/price-history.ts';
import { parseOpenHouseRows, type OpenHouse } from '../../core/protocol/open-house-details.ts';
import {
  parseMarketFigures,
  parseMarketRanking,
  parseMarketReport,
  type MarketFigure,
  type MarketRank,
  type TypeGroup,
} from '../../core/protocol/market.ts';
import { parseNearby, type NearbyPlace } from '../../core/protocol/nearby.ts';

export interface SiteData {
  /** an active EC listing, or null */
  listing(id: string): Promise<Row | null>;
  /** true: active; false: was listed and is gone; null: never was */
  availability(id: string): Promise<boolean | null>;
  /** active EC listings like this one (same city, else anywhere), newest first */
  similar(city: string | null, excludeId: string | null, limit: number): Promise<Row[]>;
  /**
   * One page of a search and how many listings it finds: the search element's own two calls
   * (public.search_listings and search_listings_count, with core/protocol/search-state.ts's arguments).
   */
  search(args: Record<string, unknown>): Promise<{ rows: Row[]; total: number }>;
  /** one page of a search without its count (public.search_listings): the featured block's call */
  listingsPage(args: Record<string, unknown>): Promise<Row[]>;
  /** the active listings most like this one, best first (public.similar_listings; the listing may be gone) */
  like(id: string, limit: number): Promise<Row[]>;
  /** an active listing's price since it came on the market, newest first (public.listing_price_history) */
  priceHistory(id: string): Promise<PriceEvent[]>;
  /** an active listing's open houses not ended yet, first first (public.listing_open_houses) */
  openHouses(id: string): Promise<OpenHouse[]>;
  agent(id: string): Promise<AgentProfileRecord | null>;
  /** active EC listings after an id, in id order, for the sitemaps */
  listingsAfter(
    afterId: number,
    limit: number,
  ): Promise<Array<{ id: number; title: string | null; updated_at: string }>>;
  /** EC agents for the sitemaps */
  agentIds(): Promise<number[]>;
  /** every EC agent as the directory lists them (AGENT_COLUMNS, in id order) */
  agents(): Promise<AgentRecord[]>;
  /** the cities with active EC listings, and how many each has */
  cities(): Promise<Array<{ city: string; listings: number }>>;
  /** a place's market index, month by month (public.market_index; docs/market.md) */
  marketIndex(place: string, typeGroup: TypeGroup, months: number): Promise<MarketFigure[]>;
  /** everything a place's report shows, in one call (public.market_report) */
  marketReport(place: string): Promise<ReturnType<typeof parseMarketReport>>;
  /** an active listing's market: its sector's index for its type, last month and this one (public.listing_market) */
  listingMarket(id: string): Promise<MarketFigure[]>;
  /** the places in a place with last month's figure (public.market_ranking) */
  marketRanking(place: string, typeGroup: TypeGroup, kind?: 'city'): Promise<MarketRank[]>;
  /** the active new developments, delivery first (public.projects; docs/projects.md): rows for core/protocol/projects.ts */
  projects(): Promise<Row[]>;
  /** an active new development by its slug, with its unit types in its order; null when there is none */
  /** a project, its unit types, and its units for sale as listings of their own (docs/projects.md "Its units") */
  project(slug: string): Promise<{ project: Row; units: Row[]; listed: Row[] } | null>;
  /** the places of interest near a point, nearest first (public.nearby_places; docs/projects.md "What is near") */
  nearby(lat: number, lng: number): Promise<NearbyPlace[]>;
  /** what the location box would suggest first for a text (public.place_suggestions): a place, a listing, or null */
  placeFor(text: string): Promise<{ kind: string; path: string; name: string } | null>;
}

/** The data behind a page could not be read; `status` is the data API's (429: this visitor must wait; else it is away). */
export class SiteDataError extends Error {
  constructor(
    message: string,
    readonly status = 503,
  ) {
    super(message);
  }
}

/** The rows of an answer (as plain records: the view's columns are ours to know), or the error. */
function check(
  result: { data: unknown; error: { message: string; code?: string } | null; status?: number },
  what: string,
): unknown[] {
  if (result.error) throw new SiteDataError(`${what}: ${result.error.message}`, result.status);
  return (result.data ?? []) as unknown[];
}

/** Where the pages read: the API's address and key, and the token of this server's calls to itself (its own API). */
export interface SiteApi {
  url: string;
  key: string;
  internalToken?: string | undefined;
}

/**
 * The pages' fetch: a call made for a page's request (server/http/request-context.ts) ends when
 * the page's deadline passes or its visitor leaves, and a call to our own API names the visitor,
 * whose share of the database it then counts against (server/http/app.ts); a call made for no
 * request (the sitemaps, the cities), the server's own.
 */
function requestFetch(internalToken: string | undefined, request: RequestContext | undefined): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    if (internalToken) {
      headers.set('X-Exp-Internal', internalToken);
      headers.set('X-Exp-Client', request?.client ?? 'server');
    }
    if (!request) return fetch(input, { ...init, headers });
    const signal = init?.signal ? AbortSignal.any([init.signal, request.signal]) : request.signal;
    return fetch(input, { ...init, headers, signal });
  };
}

export function createSiteData(options: SiteApi, request?: RequestContext): SiteData {
  // from this machine to itself (npm start's own data API), compressing the answers only costs both ends
  const loopback = /^(localhost|127\.[\d.]+|\[::1\])$/.test(new URL(options.url).hostname);
  const rest = new PostgrestClient(`${options.url.replace(/\/+$/, '')}/rest/v1`, {
    headers: {
      apikey: options.key,
      Authorization: `Bearer ${options.key}`,
      ...(loopback ? { 'Accept-Encoding': 'identity' } : {}),
    },
    fetch: requestFetch(options.internalToken, request),
  });
  const listings = (columns: string) => rest.from('listings').select<string, Row>(columns).match(PUBLIC_LISTING);
  // page after page until one is empty: a project's Max Rows may answer fewer than asked
  const everyAgent = async (columns: string, what: string): Promise<Row[]> => {
    const rows: Row[] = [];
    for (;;) {
      const page = check(
        await rest
          .from('agents')
          .select(columns)
          .eq('country_code', 'EC')
          .gt('id', rows.at(-1)?.id ?? 0)
          .order('id', { ascending: true })
          .limit(1000),
        what,
      ) as Row[];
      if (!page.length) return rows;
      rows.push(...page);
    }
  };
  return {
    async listing(id) {
      const rows = check(await listings('*').eq('id', id).limit(1), 'listing');
      return (rows as Row[])[0] ?? null;
    },
    async availability(id) {
      const rows = check(await rest.rpc('listing_availability', { listing_id: Number(id) }), 'availability') as Array<{
        available: boolean;
      }>;
      return rows[0] ? rows[0].available : null;
    },
    async similar(city, excludeId, limit) {
      let q = listings('*');
      if (excludeId) q = q.neq('id', excludeId);
      const byCity = city
        ? (check(await q.eq('city', city).order('created_at', { ascending: false }).limit(limit), 'similar') as Row[])
        : [];
      if (byCity.length >= limit) return byCity;
      let more = listings('*');
      if (excludeId) more = more.neq('id', excludeId);
      const others = check(await more.order('created_at', { ascending: false }).limit(limit), 'similar') as Row[];
      const seen = new Set(byCity.map((r) => String(r.id)));
      return [...byCity, ...others.filter((r) => !seen.has(String(r.id)))].slice(0, limit);
    },
    async listingsPage(args) {
      return check(await rest.rpc('search_listings', args), 'listings') as Row[];
    },
    async search(args) {
      const [rows, total] = await Promise.all([
        rest.rpc('search_listings', args),
        rest.rpc('search_listings_count', { filters: args.filters }),
      ]);
      return { rows: check(rows, 'search') as Row[], total: Number(check(total, 'search count') ?? 0) };
    },
    async like(id, limit) {
      return check(await rest.rpc('similar_listings', { listing_id: Number(id), max_results: limit }), 'like') as Row[];
    },
    async priceHistory(id) {
      return parsePriceHistory(
        check(await rest.rpc('listing_price_history', { listing_id: Number(id) }), 'price history'),
      );
    },
    async openHouses(id) {
      return parseOpenHouseRows(
        check(await rest.rpc('listing_open_houses', { listing_id: Number(id) }), 'open houses'),
      );
    },
    async agent(id) {
      const rows = check(
        await rest.from('agents').select(AGENT_PROFILE_COLUMNS).eq('id', id).eq('country_code', 'EC').limit(1),
        'agent',
      );
      return ((rows as unknown[])[0] as AgentProfileRecord | undefined) ?? null;
    },
    async listingsAfter(afterId, limit) {
      // a new development's listing is its project's page, which the pages' sitemap has (docs/projects.md)
      const rows = check(
        await listings('id,title,updated_at')
          .gt('id', afterId)
          .neq('operation', 'project')
          .order('id', { ascending: true })
          .limit(limit),
        'sitemap listings',
      );
      return rows as Array<{ id: number; title: string | null; updated_at: string }>;
    },
    async agentIds() {
      return (await everyAgent('id', 'sitemap agents')).map((r) => Number(r.id));
    },
    async agents() {
      return (await everyAgent(AGENT_COLUMNS, 'agents')) as unknown as AgentRecord[];
    },

    async marketIndex(place, typeGroup, months) {
      return parseMarketFigures(
        check(await rest.rpc('market_index', { place, type_group: typeGroup, months }), 'market index'),
      );
    },
    async marketReport(place) {
      const { data, error } = await rest.rpc('market_report', { place });
      if (error) throw new SiteDataError(`market report: ${error.message}`);
      return parseMarketReport(data);
    },
    async listingMarket(id) {
      return parseMarketFigures(check(await rest.rpc('listing_market', { listing_id: Number(id) }), 'listing market'));
    },
    async marketRanking(place, typeGroup, kind) {
      return parseMarketRanking(
        check(
          await rest.rpc('market_ranking', { place, type_group: typeGroup, ...(kind ? { kind } : {}) }),
          'market ranking',
        ),
      );
    },
    async nearby(lat, lng) {
      return parseNearby(check(await rest.rpc('nearby_places', { lat, lng }), 'nearby places') as Row[]);
    },
    async placeFor(text) {
      const [first] = check(
        await rest.rpc('place_suggestions', { q: text.slice(0, 100), max_results: 1 }),
        'place suggestions',
      ) as Row[];
      return first ? { kind: String(first.kind), path: String(first.path), name: String(first.name ?? '') } : null;
    },
    async projects() {
      const rows = check(
        await rest
          .from('projects')
          .select('*')
          .order('delivery', { ascending: true })
          .order('id', { ascending: true })
          .limit(500),
        'projects',
      );
      return rows as Row[];
    },
    async project(slug) {
      const [row] = check(await rest.from('projects').select('*').eq('slug', slug).limit(1), 'project') as Row[];
      if (!row) return null;
      const units = check(
        await rest
          .from('project_unit_types')
          .select('*')
          .eq('project_id', String(row.id))
          .order('position', { ascending: true }),
        'project unit types',
      ) as Row[];
      const listed = units.length
        ? (check(
            await rest
              .from('listings')
              .select('id,title,price,bedrooms,square_feet,unit_type_id')
              .in(
                'unit_type_id',
                units.map((u) => String(u.id)),
              )
              .order('price', { ascending: true })
              .order('id', { ascending: true })
              .limit(200),
            'project units',
          ) as Row[])
        : [];
      return { project: row, units, listed };
    },
    async cities() {
      const cities: Array<{ city: string; listings: number }> = [];
      for (;;) {
        const rows = check(
          await rest
            .from('listing_cities')
            .select('city,listings')
            .order('listings', { ascending: false })
            .order('city')
            .range(cities.length, cities.length + 999),
          'cities',
        ) as Array<{ city: string; listings: number }>;
        if (!rows.length) return cities;
        cities.push(...rows);
      }
    },
  };
}
