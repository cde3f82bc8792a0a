import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { ANY_ORIGIN } from '../../core/functions/cors.ts';
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
  /** /rest/v1, /functions/v1 and friends, tried in order before the site */
  mounts?: Array<{ prefix: string; handle: Mount }>;
  log?: Logger;
  /** serve only the bundle (/widgets/): a second origin for the bundle, as a CDN would be */
  bundleOnly?: boolean;
  /** the site's pages, rendered per address and language (server/pages/): `handle` answers or returns false; `notFound` is the 404 page */
  pages?: { handle: Mount; notFound: Mount };
}

const CORS_ANY = { ...ANY_ORIGIN, 'Cross-Origin-Resource-Policy': 'cross-origin' };

/** The entry URL is stable and revalidated often; chunks and hashed assets never change. */
function bundleHeaders(path: string): Record<string, string> {
  const immutable = /^\/widgets\/chunks\//.test(path);
  return { ...CORS_ANY, 'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=300, must-revalidate' };
}

/**
 * The request target as a URL on our own origin. A target that begins with '//' is a path (it is
 * what the request line says), not another host as a relative URL would read it; an absolute-form
 * target (a proxy's 'http://host/path') counts only for its path and query.
 */
export function requestUrl(target: string): URL {
  if (target.startsWith('/')) return new URL(`http://localhost${target}`);
  const absolute = new URL(target);
  if (absolute.protocol !== 'http:' && absolute.protocol !== 'https:') throw new TypeError('not an http(s) request target');
  return new URL(`http://localhost${absolute.pathname}${absolute.search}`);
}

export function createApp(options: AppOptions): { server: Server; handle: (req: IncomingMessage, res: ServerResponse) => Promise<void> } {
  const widgets = new StaticFiles(resolve(options.distDir, 'widgets'));
  const site = new StaticFiles(resolve(options.distDir, 'site'));
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
      res.writeHead(404, { ...CORS_ANY, 'Content-Type': 'text/plain; charset=utf-8' }).end('Only /widgets/ is served here');
      return;
    }
    if (url.pathname.startsWith('/widgets/')) {
      if (method === 'OPTIONS') {
        res.writeHead(204, { ...CORS_ANY, 'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS', 'Access-Control-Max-Age': '86400' }).end();
        return;
      }
      const file = await widgets.resolve(url.pathname.slice('/widgets'.length));
      if (file && (method === 'GET' || method === 'HEAD')) return widgets.send(req, res, file, bundleHeaders(url.pathname));
      res.writeHead(404, { ...CORS_ANY, 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found');
      return;
    }
    if (method !== 'GET' && method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }).end('Method not allowed');
      return;
    }
    if (url.pathname.startsWith('/media/')) {
      for (const root of [site, ...media]) {
        const rel = root === site ? url.pathname : url.pathname.slice('/media'.length);
        const file = await root.resolve(rel);
        if (file) return root.send(req, res, file, { ...CORS_ANY, 'Cache-Control': 'public, max-age=86400' });
      }
    }
    if (options.pages && (await options.pages.handle(req, res, url)) !== false) return;
    // built assets (hashed), icons
    const asset = await site.resolve(url.pathname);
    if (asset && !asset.endsWith('.html')) {
      const hashed = url.pathname.startsWith('/assets/');
      return site.send(req, res, asset, { 'Cache-Control': hashed ? 'public, max-age=31536000, immutable' : 'public, max-age=3600' });
    }
    if (options.pages) {
      await options.pages.notFound(req, res, url);
      return;
    }
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found');
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = process.hrtime.bigint();
    let url: URL;
    try {
      url = requestUrl(req.url ?? '/');
    } catch {
      res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Bad request');
      return;
    }
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      log(`${req.method} ${url.pathname}${url.search.length > 200 ? url.search.slice(0, 200) + '…' : url.search} ${res.statusCode} ${ms.toFixed(1)}ms`);
    });
    try {
      await route(req, res, url);
      // a body nobody read (a write to the read-only API, say) is drained so the keep-alive
      // connection stays usable for the client's next request
      if (!req.readableEnded) req.resume();
    } catch (error) {
      // the last line of defence for one request: logged, answered, and the server serves on
      console.error('[server] unexpected error for', req.method, url.pathname, error);
      if (res.headersSent) res.destroy();
      else if (url.pathname.startsWith('/rest/') || url.pathname.startsWith('/functions/')) {
        const body = url.pathname.startsWith('/rest/')
          ? { code: 'PGRST000', details: null, hint: null, message: 'The server could not answer this request' }
          : { error: 'internal', message: 'The server could not answer this request. Please try again.' };
        res.writeHead(500, { 'Content-Type': 'application/json; charset=utf-8', ...ANY_ORIGIN }).end(JSON.stringify(body));
      } else res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Internal server error');
    }
  }

  const server = createServer((req, res) => void handle(req, res));
  server.keepAliveTimeout = 65_000;
  return { server, handle };
}
