/**
 * Stand-ins for the servers an import talks to (tests/contract/import.test.ts, bench/import.ts):
 *  - a RESO Web API (OData) with the calls the importer makes: `Property` filtered by
 *    ModificationTimestamp, ordered, paged by `$top`/`$skip` and `@odata.nextLink`, Media expanded,
 *    `$select=ListingKey`; a bearer token; faults to play (a 429 with Retry-After, a 500, an HTML
 *    page, an empty answer), once or from a page on;
 *  - a photo host: real JPEGs made with sharp, a 50 MB "photo", an HTML page called .jpg, each
 *    request counted.
 * Both listen on 127.0.0.1 on a free port.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

export interface Fault {
  /** which request: the n-th call of the listings (1-based), or every call from the n-th on */
  page?: number;
  from?: number;
  /** the keys' listing instead of the listings */
  keys?: boolean;
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** played once, then gone */
  once?: boolean;
}

export interface ResoStandIn {
  /** the service root the importer is given */
  url: string;
  token: string;
  /** the feed: ListingKey -> record (ModificationTimestamp set by the test) */
  listings: Map<string, Record<string, unknown>>;
  faults: Fault[];
  /** every request's path and query, in order */
  requests: string[];
  /** counts the calls (the faults' `page` and `from`) from 0 again, and forgets the requests */
  reset(): void;
  close(): Promise<void>;
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: Server; port: number }> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { server, port: (server.address() as AddressInfo).port };
}

const close = (server: Server) =>
  new Promise<void>((r) => {
    server.close(() => r());
    server.closeAllConnections();
  });

/** The feed's listings, kept in the order the service pages them (by change, then key) until one changes. */
class FeedListings extends Map<string, Record<string, unknown>> {
  private sorted: Array<Record<string, unknown>> | null = null;
  override set(key: string, value: Record<string, unknown>): this {
    this.sorted = null;
    return super.set(key, value);
  }
  override delete(key: string): boolean {
    this.sorted = null;
    return super.delete(key);
  }
  ordered(): Array<Record<string, unknown>> {
    this.sorted ??= [...this.values()].sort((a, b) => Date.parse(String(a.ModificationTimestamp)) - Date.parse(String(b.ModificationTimestamp)) || String(a.ListingKey).localeCompare(String(b.ListingKey)));
    return this.sorted;
  }
}

export async function startResoStandIn(options: { token?: string } = {}): Promise<ResoStandIn> {
  const token = options.token ?? 'test-token-123';
  const listings = new FeedListings();
  const faults: Fault[] = [];
  const requests: string[] = [];
  let listingCalls = 0;
  let keyCalls = 0;
  const { server, port } = await listen((req, res) => {
    const url = new URL(req.url ?? '/', `http://127.0.0.1`);
    requests.push(`${url.pathname}${url.search}`);
    const send = (status: number, body: string, headers: Record<string, string> = { 'Content-Type': 'application/json' }) => res.writeHead(status, headers).end(body);
    if (req.headers.authorization !== `Bearer ${token}`) return send(401, JSON.stringify({ error: { code: '401', message: 'Unauthorized' } }));
    if (url.pathname !== '/odata/Property') return send(404, JSON.stringify({ error: { message: 'no such resource' } }));
    const keysOnly = url.searchParams.get('$select') === 'ListingKey';
    const n = keysOnly ? ++keyCalls : ++listingCalls;
    const fault = faults.find((f) => Boolean(f.keys) === keysOnly && (f.page === n || (f.from !== undefined && n >= f.from)));
    if (fault) {
      if (fault.once) faults.splice(faults.indexOf(fault), 1);
      return send(fault.status, fault.body ?? '', { 'Content-Type': 'application/json', ...fault.headers });
    }
    const top = Number(url.searchParams.get('$top') ?? 100);
    const skip = Number(url.searchParams.get('$skip') ?? 0);
    let rows = listings.ordered();
    const filter = /^ModificationTimestamp gt (\S+)$/.exec(url.searchParams.get('$filter') ?? '');
    if (filter) {
      const mark = Date.parse(filter[1] as string);
      rows = rows.filter((r) => Date.parse(String(r.ModificationTimestamp)) > mark);
    }
    const page = rows.slice(skip, skip + top).map((r) => {
      if (keysOnly) return { ListingKey: r.ListingKey };
      if (url.searchParams.get('$expand') === 'Media') return r;
      const { Media: _media, ...rest } = r;
      return rest;
    });
    const next = new URL(url.href.replace('http://127.0.0.1', () => `http://127.0.0.1:${port}`));
    next.searchParams.set('$skip', String(skip + top));
    send(200, JSON.stringify({ '@odata.context': `http://127.0.0.1:${port}/odata/$metadata#Property`, value: page, ...(skip + top < rows.length ? { '@odata.nextLink': next.href } : {}) }));
  });
  const reset = () => {
    listingCalls = 0;
    keyCalls = 0;
    requests.length = 0;
  };
  return { url: `http://127.0.0.1:${port}/odata`, token, listings, faults, requests, reset, close: () => close(server) };
}

export interface PhotoHost {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** a real JPEG at this address (`n` picks its colour and content) */
  photo(n: number): string;
  /** 50 MB of bytes called a photo */
  huge: string;
  /** an HTML page called a photo */
  html: string;
  /** requests per path */
  hits: Map<string, number>;
  close(): Promise<void>;
}

/** Photos of `width` x `height` (feed-sized ones are 3000 x 2000: the benchmark; tests use less). */
export async function startPhotoHost(options: { width?: number; height?: number } = {}): Promise<PhotoHost> {
  const width = options.width ?? 800;
  const height = options.height ?? 533;
  const cache = new Map<number, Buffer>();
  const jpeg = async (n: number) => {
    let body = cache.get(n);
    if (!body) {
      // a gradient with noise, so the encoders have work like a photo's
      const raw = Buffer.alloc(width * height * 3);
      for (let i = 0; i < raw.length; i += 3) {
        const x = (i / 3) % width;
        const y = Math.floor(i / 3 / width);
        raw[i] = (x * 255) / width + ((n * 37) % 60);
        raw[i + 1] = (y * 255) / height;
        raw[i + 2] = ((x ^ y) + n * 11) & 255;
      }
      body = await sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();
      cache.set(n, body);
    }
    return body;
  };
  const hits = new Map<string, number>();
  const { server, port } = await listen((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const m = /^\/photos\/(\d+)\.jpg$/.exec(path);
    if (m) {
      void jpeg(Number(m[1])).then((body) => res.writeHead(200, { 'Content-Type': 'image/jpeg', 'Content-Length': String(body.length) }).end(body));
      return;
    }
    if (path === '/huge.jpg') {
      // no Content-Length: the limit must hold as the body streams
      res.writeHead(200, { 'Content-Type': 'image/jpeg' });
      const chunk = Buffer.alloc(1024 * 1024, 0xff);
      let sent = 0;
      const write = () => {
        while (sent < 50 && res.write(chunk)) sent++;
        if (sent >= 50) res.end();
        else res.once('drain', write);
      };
      res.on('error', () => {});
      write();
      return;
    }
    if (path === '/page.jpg') {
      res.writeHead(200, { 'Content-Type': 'image/jpeg' }).end('<!doctype html><html><body>Not a photo</body></html>');
      return;
    }
    res.writeHead(404).end();
  });
  const origin = `http://127.0.0.1:${port}`;
  return { origin, photo: (n) => `${origin}/photos/${n}.jpg`, huge: `${origin}/huge.jpg`, html: `${origin}/page.jpg`, hits, close: () => close(server) };
}
