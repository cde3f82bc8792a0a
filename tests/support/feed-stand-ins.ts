/**
 * Stand-ins for the servers an import talks to (tests/contract/import-*.test.ts, through
 * importer.ts; bench/import.ts):
 *  - a RESO Web API (OData) with the calls the importer makes: `Property` filtered by
 *    ModificationTimestamp, ordered, paged by `$top`/`$skip` and `@odata.nextLink`, Media (and PropertyUnitTypes, OpenHouse) only when expanded,
 *    `$select=ListingKey`; `OpenHouse` filtered by OpenHouseEndTime (when the test gives it one); a bearer token; faults to play (a 429 with Retry-After, a 500, an HTML
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
  /** the status answered (default: the page as usual) */
  status?: number;
  /** the answer comes this many milliseconds late (a slow service: an import caught mid-way) */
  delayMs?: number;
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
  /** the OpenHouse resource: OpenHouseKey -> record; null: the service has none (404) */
  openHouses: Map<string, Record<string, unknown>> | null;
  faults: Fault[];
  /** every request's path and query, in order */
  requests: string[];
  /** counts the calls (the faults' `page` and `from`) from 0 again, and forgets the requests */
  reset(): void;
  close(): Promise<void>;
}

async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ server: Server; port: number }> {
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
    this.sorted ??= [...this.values()].sort(
      (a, b) =>
        Date.parse(String(a.ModificationTimestamp)) - Date.parse(String(b.ModificationTimestamp)) ||
        String(a.ListingKey).localeCompare(String(b.ListingKey)),
    );
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
  const standIn: ResoStandIn = {
    url: '',
    token,
    listings,
    openHouses: null,
    faults,
    requests,
    reset: () => {},
    close: async () => {},
  };
  const { server, port } = await listen((req, res) => {
    const url = new URL(req.url ?? '/', `http://127.0.0.1`);
    requests.push(`${url.pathname}${url.search}`);
    const send = (
      status: number,
      body: string,
      headers: Record<string, string> = { 'Content-Type': 'application/json' },
    ) => res.writeHead(status, headers).end(body);
    if (req.headers.authorization !== `Bearer ${token}`)
      return send(401, JSON.stringify({ error: { code: '401', message: 'Unauthorized' } }));
    if (url.pathname === '/odata/OpenHouse' && standIn.openHouses) {
      const top = Number(url.searchParams.get('$top') ?? 100);
      const skip = Number(url.searchParams.get('$skip') ?? 0);
      const after = /^OpenHouseEndTime gt (\S+)$/.exec(url.searchParams.get('$filter') ?? '');
      const rows = [...standIn.openHouses.values()]
        .filter((r) => !after || Date.parse(String(r.OpenHouseEndTime)) > Date.parse(after[1] as string))
        .sort((a, b) => String(a.OpenHouseStartTime).localeCompare(String(b.OpenHouseStartTime)));
      const next = new URL(url.href.replace('http://127.0.0.1', () => `http://127.0.0.1:${port}`));
      next.searchParams.set('$skip', String(skip + top));
      return send(
        200,
        JSON.stringify({
          value: rows.slice(skip, skip + top),
          ...(skip + top < rows.length ? { '@odata.nextLink': next.href } : {}),
        }),
      );
    }
    if (url.pathname !== '/odata/Property')
      return send(404, JSON.stringify({ error: { message: 'no such resource' } }));
    const keysOnly = url.searchParams.get('$select') === 'ListingKey';
    const n = keysOnly ? ++keyCalls : ++listingCalls;
    const page = () => {
      const top = Number(url.searchParams.get('$top') ?? 100);
      const skip = Number(url.searchParams.get('$skip') ?? 0);
      let rows = listings.ordered();
      const filter = /^ModificationTimestamp gt (\S+)$/.exec(url.searchParams.get('$filter') ?? '');
      if (filter) {
        const mark = Date.parse(filter[1] as string);
        rows = rows.filter((r) => Date.parse(String(r.ModificationTimestamp)) > mark);
      }
      const value = rows.slice(skip, skip + top).map((r) => {
        if (keysOnly) return { ListingKey: r.ListingKey };
        // a navigation property comes only when asked ($expand=Media,PropertyUnitTypes)
        const expand = (url.searchParams.get('$expand') ?? '').split(',');
        return Object.fromEntries(
          Object.entries(r).filter(
            ([k]) => !['Media', 'PropertyUnitTypes', 'OpenHouse'].includes(k) || expand.includes(k),
          ),
        );
      });
      const next = new URL(url.href.replace('http://127.0.0.1', () => `http://127.0.0.1:${port}`));
      next.searchParams.set('$skip', String(skip + top));
      send(
        200,
        JSON.stringify({
          '@odata.context': `http://127.0.0.1:${port}/odata/$metadata#Property`,
          value,
          ...(skip + top < rows.length ? { '@odata.nextLink': next.href } : {}),
        }),
      );
    };
    const fault = faults.find(
      (f) => Boolean(f.keys) === keysOnly && (f.page === n || (f.from !== undefined && n >= f.from)),
    );
    if (!fault) return page();
    if (fault.once) faults.splice(faults.indexOf(fault), 1);
    const answer = () =>
      fault.status !== undefined
        ? send(fault.status, fault.body ?? '', { 'Content-Type': 'application/json', ...fault.headers })
        : page();
    if (fault.delayMs) setTimeout(answer, fault.delayMs);
    else answer();
  });
  const reset = () => {
    listingCalls = 0;
    keyCalls = 0;
    requests.length = 0;
  };
  standIn.reset = reset;
  standIn.url = `http://127.0.0.1:${port}/odata`;
  standIn.close = () => close(server);
  return standIn;
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
  /** a real JPEG whose first request answers 503 */
  flaky(n: number): string;
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
      body = await sharp(raw, { raw: { width, height, channels: 3 } })
        .jpeg({ quality: 90 })
        .toBuffer();
      cache.set(n, body);
    }
    return body;
  };
  const hits = new Map<string, number>();
  const { server, port } = await listen((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const flaky = /^\/flaky\/(\d+)\.jpg$/.exec(path);
    if (flaky && hits.get(path) === 1) return void res.writeHead(503, { 'Retry-After': '1' }).end('busy');
    const m = /^\/(?:photos|flaky)\/(\d+)\.jpg$/.exec(path);
    if (m) {
      void jpeg(Number(m[1])).then((body) =>
        res.writeHead(200, { 'Content-Type': 'image/jpeg', 'Content-Length': String(body.length) }).end(body),
      );
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
  return {
    origin,
    photo: (n) => `${origin}/photos/${n}.jpg`,
    huge: `${origin}/huge.jpg`,
    html: `${origin}/page.jpg`,
    flaky: (n) => `${origin}/flaky/${n}.jpg`,
    hits,
    close: () => close(server),
  };
}

export interface StoredObject {
  body: Buffer;
  type: string;
  cacheControl: string;
}

export interface StorageStandIn {
  /** the project's URL (SUPABASE_URL) */
  url: string;
  serviceKey: string;
  /** bucket -> whether it is public */
  buckets: Map<string, { public: boolean; allowedMimeTypes: string[] | null; fileSizeLimit: number | null }>;
  /** `<bucket>/<path>` -> the object */
  objects: Map<string, StoredObject>;
  /** every request's method and path, in order */
  requests: string[];
  close(): Promise<void>;
}

/**
 * A Supabase Storage stand-in: the calls of @supabase/storage-js the photo store makes, as the
 * Storage API answers them (buckets read and made, objects uploaded with x-upsert, HEAD, public
 * GET), the service role key required for all but a public bucket's objects.
 */
export async function startStorageStandIn(options: { serviceKey?: string } = {}): Promise<StorageStandIn> {
  const serviceKey = options.serviceKey ?? 'service-role-key-for-tests';
  const buckets: StorageStandIn['buckets'] = new Map();
  const objects = new Map<string, StoredObject>();
  const requests: string[] = [];
  const json = (res: ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
  const failure = (res: ServerResponse, status: number, error: string, message = error) =>
    json(res, status === 404 ? 400 : status, { statusCode: String(status), error, message });
  const { server, port } = await listen(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const path = decodeURIComponent(url.pathname);
    requests.push(`${req.method} ${path}`);
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const publicObject = /^\/storage\/v1\/object\/public\/([^/]+)\/(.+)$/.exec(path);
    if (publicObject && (req.method === 'GET' || req.method === 'HEAD')) {
      const [, bucket, key] = publicObject as unknown as [string, string, string];
      const found = buckets.get(bucket)?.public ? objects.get(`${bucket}/${key}`) : undefined;
      if (!found) return failure(res, 404, 'not_found', 'Object not found');
      res.writeHead(200, {
        'Content-Type': found.type,
        'Content-Length': String(found.body.length),
        'Cache-Control': found.cacheControl,
      });
      return void res.end(req.method === 'HEAD' ? undefined : found.body);
    }
    if (req.headers.authorization !== `Bearer ${serviceKey}` || req.headers.apikey !== serviceKey)
      return failure(res, 403, 'Unauthorized', 'Invalid Compact JWS');
    const bucketPath = /^\/storage\/v1\/bucket(?:\/([^/]+))?$/.exec(path);
    if (bucketPath) {
      if (req.method === 'GET' && bucketPath[1]) {
        const b = buckets.get(bucketPath[1]);
        if (!b) return failure(res, 404, 'Bucket not found');
        return json(res, 200, {
          id: bucketPath[1],
          name: bucketPath[1],
          public: b.public,
          allowed_mime_types: b.allowedMimeTypes,
          file_size_limit: b.fileSizeLimit,
        });
      }
      if (req.method === 'POST' && !bucketPath[1]) {
        const made = JSON.parse(body.toString('utf8') || '{}') as {
          id?: string;
          public?: boolean;
          allowed_mime_types?: string[];
          file_size_limit?: number;
        };
        if (!made.id) return failure(res, 400, 'Invalid request', 'the bucket needs an id');
        if (buckets.has(made.id)) return failure(res, 409, 'Duplicate', 'The resource already exists');
        buckets.set(made.id, {
          public: Boolean(made.public),
          allowedMimeTypes: made.allowed_mime_types ?? null,
          fileSizeLimit: made.file_size_limit ?? null,
        });
        return json(res, 200, { name: made.id });
      }
    }
    const objectPath = /^\/storage\/v1\/object\/([^/]+)\/(.+)$/.exec(path);
    if (objectPath) {
      const [, bucket, key] = objectPath as unknown as [string, string, string];
      const b = buckets.get(bucket);
      if (!b) return failure(res, 404, 'Bucket not found');
      const id = `${bucket}/${key}`;
      if (req.method === 'HEAD') return void res.writeHead(objects.has(id) ? 200 : 404).end();
      if (req.method === 'POST' || req.method === 'PUT') {
        const type = String(req.headers['content-type'] ?? 'application/octet-stream');
        if (b.allowedMimeTypes && !b.allowedMimeTypes.includes(type))
          return failure(res, 415, 'invalid_mime_type', `mime type ${type} is not supported`);
        if (b.fileSizeLimit !== null && body.length > b.fileSizeLimit)
          return failure(res, 413, 'Payload too large', 'The object exceeded the maximum allowed size');
        if (req.method === 'POST' && objects.has(id) && req.headers['x-upsert'] !== 'true')
          return failure(res, 409, 'Duplicate', 'The resource already exists');
        objects.set(id, { body, type, cacheControl: String(req.headers['cache-control'] ?? 'no-cache') });
        return json(res, 200, { Key: id, Id: id });
      }
    }
    failure(res, 404, 'not_found', `no route ${req.method} ${path}`);
  });
  return { url: `http://127.0.0.1:${port}`, serviceKey, buckets, objects, requests, close: () => close(server) };
}
