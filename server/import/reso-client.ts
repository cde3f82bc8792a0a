/**
 * A RESO Web API source (docs/import.md, "RESO Web API"): OData over HTTPS with a bearer token.
 *  - Listings: `GET {service}/Property?$filter=ModificationTimestamp gt {mark}&$orderby=
 *    ModificationTimestamp&$top={page}&$expand=Media`, page after page by `@odata.nextLink`.
 *  - Keys (a full run): `GET {service}/Property?$select=ListingKey&$top={page}`, by nextLink too:
 *    every listing the feed still has, so those it no longer has can leave the market.
 * A 429 waits for its Retry-After (seconds or a date, at most 2 minutes) and asks again; a 5xx or
 * a dropped connection is asked again after 1, 2, 4, 8 s; after that, or at a 401 or 403, the run
 * fails (and a failed run changes nothing). Everything is fetched through the safe fetcher with
 * the service's own host allowed: a nextLink to another host is refused.
 */
import { FetchRefused, safeFetch, type HostRule } from '../http/safe-fetch.ts';
import { describeBody, FeedError } from './feeds.ts';
import type { FeedRecord } from './mapping.ts';
import { nowDate } from '../../core/clock.ts';

export interface ResoOptions {
  /** the service root, e.g. https://api.mls.example/odata */
  service: string;
  token?: string | undefined;
  allow: readonly HostRule[];
  pageSize?: number;
  /** what a listing's record is asked to carry beside its Media (PropertyUnitTypes, OpenHouse) */
  expand?: readonly string[];
  /** 5xx and dropped connections: how many times to ask again (default 4) */
  retries?: number;
  /** the first wait after a 5xx (default 1000 ms; tests use less) */
  backoffMs?: number;
  /** the longest Retry-After honoured (default 120 s) */
  maxRetryAfterMs?: number;
  resolve?: Parameters<typeof safeFetch>[1]['resolve'];
  /** told of each wait and retry */
  log?: (line: string) => void;
  /** how to wait (tests: no real sleeping) */
  sleep?: (ms: number) => Promise<void>;
}

const FEED_MAX_BYTES = 64 * 1024 * 1024;
const MAX_PAGES = 100_000;

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The seconds or date of a Retry-After header, in ms from now. */
function retryAfterMs(value: string | string[] | undefined, now = Date.now()): number | null {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v) return null;
  if (/^\s*\d+\s*$/.test(v)) return Number(v) * 1000;
  const t = Date.parse(v);
  return Number.isFinite(t) ? Math.max(0, t - now) : null;
}

async function getJson(url: string, options: ResoOptions): Promise<Record<string, unknown>> {
  const sleep = options.sleep ?? defaultSleep;
  const retries = options.retries ?? 4;
  let failures = 0;
  for (let attempt = 0; ; attempt++) {
    let status = 0;
    let detail = '';
    let headers: Record<string, string | string[] | undefined> = {};
    let body = '';
    try {
      const res = await safeFetch(url, {
        allow: options.allow,
        maxBytes: FEED_MAX_BYTES,
        totalTimeoutMs: 120_000,
        connectTimeoutMs: 10_000,
        maxRedirects: 2,
        statuses: 'any',
        listName: "RESO source's host",
        headers: {
          Accept: 'application/json',
          'User-Agent': 'exp-ecuador-import/1',
          ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
        },
        ...(options.resolve ? { resolve: options.resolve } : {}),
      });
      status = res.status;
      headers = res.headers;
      body = res.body.toString('utf8');
    } catch (error) {
      if (error instanceof FetchRefused && error.kind === 'refused') throw new FeedError(error.message);
      detail = (error as Error).message;
    }
    if (status === 200) {
      try {
        return JSON.parse(body) as Record<string, unknown>;
      } catch {
        throw new FeedError(`${new URL(url).host} answered ${describeBody(body)}, not JSON`);
      }
    }
    if (status === 401 || status === 403)
      throw new FeedError(`${new URL(url).host} refused the token (HTTP ${status})`);
    if (status === 429 && attempt < 20) {
      const wait = Math.min(retryAfterMs(headers['retry-after']) ?? 5000, options.maxRetryAfterMs ?? 120_000);
      options.log?.(`429 Too Many Requests: waiting ${Math.round(wait / 1000)} s as the service asks`);
      await sleep(wait);
      continue;
    }
    if ((status >= 500 || status === 0) && failures < retries) {
      const wait = (options.backoffMs ?? 1000) * 2 ** failures;
      failures++;
      options.log?.(`${status ? `HTTP ${status}` : detail}: asking again in ${wait} ms`);
      await sleep(wait);
      continue;
    }
    throw new FeedError(
      `${new URL(url).host}: ${status ? `HTTP ${status}` : detail}${failures ? ` (after ${failures} retries)` : ''}`,
    );
  }
}

function pageOf(data: Record<string, unknown>, url: string): { records: FeedRecord[]; next: string | null } {
  if (!Array.isArray(data.value))
    throw new FeedError(`${new URL(url).host} answered JSON without "value": not a RESO Web API answer`);
  const next = typeof data['@odata.nextLink'] === 'string' ? new URL(data['@odata.nextLink'], url).href : null;
  return { records: data.value as FeedRecord[], next };
}

const root = (service: string) => service.replace(/\/+$/, '');

/** OData's DateTimeOffset literal. */
const odataDate = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The listings changed after `since` (every listing when null), page by page, oldest change first. */
export async function* resoListings(options: ResoOptions, since: Date | null): AsyncGenerator<FeedRecord[]> {
  const params = new URLSearchParams();
  if (since) params.set('$filter', `ModificationTimestamp gt ${odataDate(since)}`);
  params.set('$orderby', 'ModificationTimestamp');
  params.set('$top', String(options.pageSize ?? 200));
  params.set('$expand', ['Media', ...(options.expand ?? [])].join(','));
  let url: string | null = `${root(options.service)}/Property?${params.toString().replace(/\+/g, '%20')}`;
  for (let pages = 0; url; pages++) {
    if (pages >= MAX_PAGES) throw new FeedError(`more than ${MAX_PAGES} pages: the service's nextLink does not end`);
    const { records, next } = pageOf(await getJson(url, options), url);
    yield records;
    // a nextLink that does not move is a loop, not a page
    url = next && next !== url ? next : null;
  }
}

/**
 * The open houses not over yet (docs/import.md "Open houses"): `GET {service}/OpenHouse?$filter=
 * OpenHouseEndTime gt {now}&$orderby=OpenHouseStartTime&$top={page}`, by nextLink. Always the whole
 * set still to come (a few per listing at most), so each run replaces the source's.
 */
export async function* resoOpenHouses(options: ResoOptions, now: Date = nowDate()): AsyncGenerator<FeedRecord[]> {
  const params = new URLSearchParams({
    $filter: `OpenHouseEndTime gt ${odataDate(now)}`,
    $orderby: 'OpenHouseStartTime',
    $top: String(Math.max(options.pageSize ?? 200, 500)),
  });
  let url: string | null = `${root(options.service)}/OpenHouse?${params.toString().replace(/\+/g, '%20')}`;
  for (let pages = 0; url; pages++) {
    if (pages >= MAX_PAGES) throw new FeedError(`more than ${MAX_PAGES} pages of open houses`);
    const { records, next } = pageOf(await getJson(url, options), url);
    yield records;
    url = next && next !== url ? next : null;
  }
}

/** Every key the service still lists (a full run). */
export async function* resoKeys(options: ResoOptions): AsyncGenerator<string[]> {
  const params = new URLSearchParams({ $select: 'ListingKey', $top: String(Math.max(options.pageSize ?? 200, 1000)) });
  let url: string | null = `${root(options.service)}/Property?${params}`;
  for (let pages = 0; url; pages++) {
    if (pages >= MAX_PAGES) throw new FeedError(`more than ${MAX_PAGES} pages of keys`);
    const { records, next } = pageOf(await getJson(url, options), url);
    yield records
      .map((r) => (typeof r.ListingKey === 'string' || typeof r.ListingKey === 'number' ? String(r.ListingKey) : ''))
      .filter(Boolean);
    url = next && next !== url ? next : null;
  }
}

/**
 * The pages of `pages`, each asked for while the one before it is being used: the service answers
 * the next page while the database stores this one (two processes, two cores).
 */
export async function* readAhead<T>(pages: AsyncIterable<T>): AsyncGenerator<T> {
  const it = pages[Symbol.asyncIterator]();
  let next = it.next();
  try {
    for (;;) {
      const page = await next;
      if (page.done) return;
      next = it.next();
      // a failure is met when it is awaited, above; not before, as an unhandled rejection
      next.catch(() => {});
      yield page.value;
    }
  } finally {
    await it.return?.();
  }
}
