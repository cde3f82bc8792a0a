import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { timingSafeEqual } from 'node:crypto';
import { clientAddress, clientKey, NO_PROXY, type ProxyTrust } from '../../core/functions/client-address.ts';
import { ANY_ORIGIN } from '../../core/functions/cors.ts';
import type { ClientShares } from './client-shares.ts';
import { setRequestContext } from './request-context.ts';
import type { SeedDrawings } from '../seed/drawings.ts';
import { StaticFiles } from './static.ts';

export interface Logger {
  (line: string): void;
}

/** A handler for a mounted prefix; answers or returns false to fall through. */
export type Mount = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean | void>;

export interface AppOptions {
  /** the build output: dist/ with widgets/ and site/ */
  distDir: string;
  /** extra roots served under /media/ (seed images) */
  mediaDirs?: string[];
  /** the seed's drawings made as photos (`.webp` from its `.svg`), served under /media/ after the files */
  drawings?: SeedDrawings;
  /** /rest/v1, /functions/v1 and friends, tried in order before the site */
  mounts?: Array<{ prefix: string; handle: Mount }>;
  log?: Logger;
  /** serve only the bundle (/widgets/): a second origin for the bundle, as a CDN would be */
  bundleOnly?: boolean;
  /** the site's pages, rendered per address and language (server/pages/): `handle` answers or returns false; `notFound` is the 404 page; `busy` the page that says to come back later (429, 503) */
  pages?: {
    handle: Mount;
    notFound: Mount;
    busy(req: IncomingMessage, res: ServerResponse, url: URL, status: 429 | 503, retryAfterSeconds: number): void;
  };
  /** whose word the client address is (TRUST_PROXY) */
  trustProxy?: ProxyTrust;
  /** each client's share of the public database pool: a client over it is answered 429 before any work */
  shares?: ClientShares;
  /**
   * The token of this server's own calls to itself (a page reading the REST API): such a call
   * names the client it is made for (X-Exp-Client), so that client's share counts it.
   */
  internalToken?: string;
  /** per kind of request, the milliseconds after which it is answered 503/504 and its work cancelled (tests shorten them) */
  deadlines?: Partial<Record<RequestKind, number>>;
  /** Strict-Transport-Security on every answer (the site is published on https: SITE_URL) */
  hsts?: boolean;
}

/**
 * What a request is, for its deadline: the data API (its statements end at the `anon` role's 3 s,
 * and it waits at most 2 s for a connection), a function (privileged statements end at 10 s), a
 * page (reads the API, renders; sitemaps and preview images too), a file of the bundle or the media
 * (no deadline: a video to a slow phone takes its time; the socket's own timeouts hold). docs/architecture.md "Deadlines and fair shares".
 */
export type RequestKind = 'api' | 'function' | 'page' | 'file';

export const DEADLINES: Record<RequestKind, number> = { api: 6000, function: 20_000, page: 10_000, file: 0 };

/** The longest request target the server reads (PostgREST behind a gateway: about 8 KB of URL). */
const MAX_URL_BYTES = 8192;

/**
 * What a refused request costs its client's budget (client-shares.ts): a request answered 4xx
 * held no connection, but a client sending them at full speed still takes the server's time.
 */
const REFUSAL_COST_MS = 10;

/** A client over its share waits this long for its 429: at full speed it asks a few times a second, not thousands. */
const TARPIT_MS = 250;

function requestKind(path: string): RequestKind {
  if (path === '/rest/v1' || path.startsWith('/rest/v1/')) return 'api';
  if (path.startsWith('/functions/v1/')) return 'function';
  if (/^\/(widgets|media|assets)\//.test(path)) return 'file';
  return 'page';
}

const CORS_ANY = { ...ANY_ORIGIN, 'Cross-Origin-Resource-Policy': 'cross-origin' };

/** The entry URL is stable and revalidated often; chunks and hashed assets never change. */
function bundleHeaders(path: string): Record<string, string> {
  const immutable = /^\/widgets\/chunks\//.test(path);
  return {
    ...CORS_ANY,
    'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=300, must-revalidate',
  };
}

/**
 * The request target as a URL on our own origin. A target that begins with '//' is a path (it is
 * what the request line says), not another host as a relative URL would read it; an absolute-form
 * target (a proxy's 'http://host/path') counts only for its path and query.
 */
function requestUrl(target: string): URL {
  if (target.startsWith('/')) return new URL(`http://localhost${target}`);
  const absolute = new URL(target);
  if (absolute.protocol !== 'http:' && absolute.protocol !== 'https:')
    throw new TypeError('not an http(s) request target');
  return new URL(`http://localhost${absolute.pathname}${absolute.search}`);
}

export function createApp(options: AppOptions): {
  server: Server;
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
} {
  const widgets = new StaticFiles(resolve(options.distDir, 'widgets'));
  const site = new StaticFiles(resolve(options.distDir, 'site'));
  const wordpress = new StaticFiles(resolve(options.distDir, 'wordpress'));
  const media = (options.mediaDirs ?? []).map((d) => new StaticFiles(resolve(d)));
  const log = options.log ?? (() => {});

  async function route(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    for (const mount of options.mounts ?? []) {
      if (url.pathname === mount.prefix || url.pathname.startsWith(mount.prefix + '/')) {
        if ((await mount.handle(req, res, url)) !== false) return;
      }
    }
    const method = req.method ?? 'GET';
    if (options.bundleOnly && !url.pathname.startsWith('/widgets/')) {
      res
        .writeHead(404, { ...CORS_ANY, 'Content-Type': 'text/plain; charset=utf-8' })
        .end('Only /widgets/ is served here');
      return;
    }
    if (url.pathname.startsWith('/widgets/')) {
      if (method === 'OPTIONS') {
        res
          .writeHead(204, {
            ...CORS_ANY,
            'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
            'Access-Control-Max-Age': '86400',
          })
          .end();
        return;
      }
      const file = await widgets.resolve(url.pathname.slice('/widgets'.length));
      if (file && (method === 'GET' || method === 'HEAD'))
        return widgets.send(req, res, file, bundleHeaders(url.pathname));
      res.writeHead(404, { ...CORS_ANY, 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found');
      return;
    }
    if (method !== 'GET' && method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }).end('Method not allowed');
      return;
    }
    // the WordPress plugin, which an agent's site kit offers (docs/agent-area.md "Site kit")
    if (url.pathname === '/wordpress/exp-ecuador.zip') {
      const file = await wordpress.resolve('/exp-ecuador.zip');
      if (file)
        return wordpress.send(req, res, file, {
          'Content-Type': 'application/zip',
          'Content-Disposition': 'attachment; filename="exp-ecuador.zip"',
          'Cache-Control': 'public, max-age=3600',
        });
    }
    if (url.pathname.startsWith('/media/')) {
      for (const root of [site, ...media]) {
        const rel = root === site ? url.pathname : url.pathname.slice('/media'.length);
        const file = await root.resolve(rel);
        if (file) return root.send(req, res, file, { ...CORS_ANY, 'Cache-Control': 'public, max-age=86400' });
      }
      const drawn = await options.drawings?.resolve(url.pathname.slice('/media'.length));
      if (drawn)
        return options.drawings?.send(req, res, drawn, { ...CORS_ANY, 'Cache-Control': 'public, max-age=86400' });
    }
    if (options.pages && (await options.pages.handle(req, res, url)) !== false) return;
    // built assets (hashed), icons
    const asset = await site.resolve(url.pathname);
    if (asset && !asset.endsWith('.html')) {
      const hashed = url.pathname.startsWith('/assets/');
      return site.send(req, res, asset, {
        'Cache-Control': hashed ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
      });
    }
    if (options.pages) {
      await options.pages.notFound(req, res, url);
      return;
    }
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found');
  }

  const deadlines = { ...DEADLINES, ...options.deadlines };
  const internal = options.internalToken ? Buffer.from(options.internalToken) : undefined;

  /**
   * Who asks: the address by TRUST_PROXY, or, for this server's own call with its token (a page's
   * call to its data), the client it is made for, whose page was admitted already (`admitted`).
   */
  function clientOf(req: IncomingMessage): { client: string; admitted: boolean } {
    const named = req.headers['x-exp-client'];
    const token = req.headers['x-exp-internal'];
    if (internal && typeof named === 'string' && typeof token === 'string') {
      const given = Buffer.from(token);
      if (given.length === internal.length && timingSafeEqual(given, internal))
        return { client: clientKey(named) ?? named.slice(0, 64), admitted: true };
    }
    return {
      client: clientAddress(
        (name) => [req.headers[name]].flat().join(', ') || undefined,
        req.socket.remoteAddress,
        options.trustProxy ?? NO_PROXY,
      ),
      admitted: false,
    };
  }

  /**
   * The answer of a request that cannot be served now: over its client's share (429, given after a
   * wait unless `late`: the wait is over) or past its deadline (503, 504).
   */
  function answerBusy(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    kind: RequestKind,
    status: 429 | 503 | 504,
    retryAfter: number,
    late = false,
  ): void {
    if (res.headersSent) return;
    if (status === 429 && !late && !res.writableEnded) {
      // later: a client that ignores Retry-After is slowed down, not served faster
      const later = setTimeout(
        () => (res.destroyed ? undefined : answerBusy(req, res, url, kind, status, retryAfter, true)),
        TARPIT_MS,
      );
      res.once('close', () => clearTimeout(later));
      return;
    }
    if (kind === 'page' && options.pages)
      return options.pages.busy(req, res, url, status === 429 ? 429 : 503, retryAfter);
    const body =
      kind === 'api'
        ? status === 429
          ? {
              code: 'PGRST429',
              details: `Try again in ${retryAfter} s.`,
              hint: null,
              message: 'Too many requests from this client: it has used its share of the database for now',
            }
          : {
              code: '57014',
              details: null,
              hint: 'Narrow the filters, or try again later.',
              message: 'canceling statement due to the request deadline',
            }
        : {
            error: status === 429 ? 'rate_limited' : 'unavailable',
            message: 'The server is busy. Please try again shortly.',
          };
    res
      .writeHead(status, {
        'Content-Type': 'application/json; charset=utf-8',
        'Retry-After': String(retryAfter),
        'Cache-Control': 'no-store',
        ...ANY_ORIGIN,
      })
      .end(JSON.stringify(body));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = process.hrtime.bigint();
    let url: URL;
    if ((req.url ?? '').length > MAX_URL_BYTES) {
      res
        .writeHead(414, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close', ...ANY_ORIGIN })
        .end(`The address is longer than ${MAX_URL_BYTES} bytes`);
      return;
    }
    try {
      url = requestUrl(req.url ?? '/');
    } catch {
      res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Bad request');
      return;
    }
    const kind = requestKind(url.pathname);
    const { client, admitted } = clientOf(req);
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      // a malformed or refused request still cost the server its time (not a missing page or file)
      if (
        res.statusCode >= 400 &&
        res.statusCode < 500 &&
        res.statusCode !== 404 &&
        res.statusCode !== 429 &&
        kind !== 'file'
      )
        options.shares?.charge(client, REFUSAL_COST_MS);
      log(
        `${req.method} ${url.pathname}${url.search.length > 200 ? url.search.slice(0, 200) + '…' : url.search} ${res.statusCode} ${ms.toFixed(1)}ms`,
      );
    });
    // on every answer: no content sniffing (a JSON answer is never read as HTML), and https kept
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (options.hsts) res.setHeader('Strict-Transport-Security', 'max-age=31536000');
    // a client that spent its share of the database waits before any work is done for it (a page
    // of its that was let in is finished: its calls to the data are admitted)
    const wait = (kind === 'api' || kind === 'page') && !admitted ? (options.shares?.retryAfter(client) ?? 0) : 0;
    if (wait > 0 && req.method !== 'OPTIONS') {
      answerBusy(req, res, url, kind, 429, wait);
      return;
    }
    const controller = new AbortController();
    const ms = deadlines[kind];
    const timer =
      ms > 0
        ? setTimeout(() => {
            controller.abort();
            answerBusy(req, res, url, kind, kind === 'page' ? 503 : 504, 5);
          }, ms)
        : undefined;
    // the client went away before its answer: its work is cancelled too
    res.once('close', () => {
      clearTimeout(timer);
      if (!res.writableFinished) controller.abort();
    });
    try {
      setRequestContext(req, { client, signal: controller.signal, deadline: Date.now() + ms, admitted });
      await route(req, res, url);
      // a body nobody read (a write to the read-only API, say) is drained so the keep-alive
      // connection stays usable for the client's next request
      if (!req.readableEnded) req.resume();
    } catch (error) {
      // answered already (its deadline passed, or the client left): nothing more to say
      if (res.writableEnded || controller.signal.aborted) {
        if (!res.writableEnded && !res.headersSent) answerBusy(req, res, url, kind, kind === 'page' ? 503 : 504, 5);
        return;
      }
      // the last line of defence for one request: logged, answered, and the server serves on
      console.error('[server] unexpected error for', req.method, url.pathname, error);
      if (res.headersSent) res.destroy();
      else if (url.pathname.startsWith('/rest/') || url.pathname.startsWith('/functions/')) {
        const body = url.pathname.startsWith('/rest/')
          ? { code: 'PGRST000', details: null, hint: null, message: 'The server could not answer this request' }
          : { error: 'internal', message: 'The server could not answer this request. Please try again.' };
        res
          .writeHead(500, { 'Content-Type': 'application/json; charset=utf-8', ...ANY_ORIGIN })
          .end(JSON.stringify(body));
      } else res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Internal server error');
    }
  }

  const server = createServer((req, res) => void handle(req, res));
  server.keepAliveTimeout = 65_000;
  return { server, handle };
}
