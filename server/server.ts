/**
 * The local stand-in for a Supabase project plus the static host: /rest/v1, /functions/v1, the
 * bundle, the site and the seed media. Used by `npm start`, the tests and the benchmarks.
 */
import type { Lang } from '../core/lang.ts';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { NO_PROXY, type ProxyTrust } from '../core/functions/client-address.ts';
import { clientSalt, keptSecret } from '../core/functions/function-http.ts';
import { adminSql, type Database } from './db/database.ts';
import { prepareWhenReachable } from './db/setup.ts';
import type { InquiryConfig } from '../core/functions/inquiry/handler.ts';
import { allComposers } from '../core/functions/outbox/composers.ts';
import type { AlertsConfig } from '../core/functions/alerts/handler.ts';
import type { AlertRunResult } from '../core/functions/alerts/run.ts';
import { createAlertService } from './mail/alert-service.ts';
import { loadTexts } from './pages/texts.ts';
import { DEFAULTS } from '../core/functions/defaults.ts';
import { DEFAULT_ALERTS_CONFIG, localFunctions } from './stand-in/functions/local.ts';
import { fileMailer, smtp } from './mail/mailers.ts';
import { httpMailer } from '../core/functions/outbox/http-mail.ts';
import { createOutboxService, type OutboxServiceOptions } from './mail/outbox-service.ts';
import { createFunctionsRouter, type FunctionHandler } from './stand-in/functions/router.ts';
import { createApp, type Logger, type RequestKind } from './http/app.ts';
import { schemaUnavailable } from './stand-in/rest/errors.ts';
import { createRestHandler } from './stand-in/rest/handler.ts';
import { createAgentPhotoHandler } from './agent-area/photo.ts';
import { createAuthHandler } from './stand-in/auth/handler.ts';
import { signInComposer } from './stand-in/auth/mail.ts';
import { sendError } from './stand-in/rest/response.ts';
import { createPages } from './pages/site-pages.ts';
import { StaticFiles } from './http/static.ts';
import { parseHostRule, type HostRule, type SafeFetchOptions } from './http/safe-fetch.ts';
import { readFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { localPhotoStore, photoVariant, type PhotoStore } from './import/photos.ts';
import { supabasePhotoStore, type StorageSettings } from './import/storage.ts';
import { WEBHOOK_DELAYS, WEBHOOK_MAX_ATTEMPTS, webhookDeliverer } from '../core/functions/webhooks/deliver.ts';
import { safePoster } from './http/webhook-post.ts';
import { ourInlineCode } from './http/csp.ts';
import { createImportService } from './import/service.ts';
import { SeedDrawings } from './seed/drawings.ts';
import { createMarketService } from './market/market-service.ts';
import { createRetentionService, type RetentionOutcome } from './privacy/retention-service.ts';
import type { ScheduledSource } from './import/sources.ts';
import type { MapTiles } from '../core/protocol/map-tiles.ts';
import type { PrivacySettings } from '../core/protocol/privacy.ts';
import { defaultPrivacy } from './config.ts';

export const ROOT = resolve(import.meta.dirname, '..');
/** the seed's media, served under /media/ beside the site's own */
const MEDIA_DIRS = [resolve(ROOT, 'supabase/seed/media')];

export interface ServerOptions {
  db: Database;
  port?: number;
  host?: string;
  distDir?: string;
  log?: Logger;
  /** listings generated on an empty database (first start) */
  seedListings?: number;
  functions?: Record<string, FunctionHandler>;
  /** the project's JWT secret (JWT_SECRET); unset, one kept in the database (docs/agent-area.md) */
  jwtSecret?: string;
  /** send-property-inquiry: team inbox, allowed origins, rate limit */
  inquiry?: Partial<InquiryConfig>;
  /** saved-searches: team inbox, allowed origins, rate limit; the alert job's interval (0: only when runAlerts() is called) and settle time */
  alerts?: Partial<AlertsConfig> & { intervalSeconds?: number; settleSeconds?: number };
  /** how mail is delivered (default: .eml files under .data/outbox) */
  mail?: MailOptions;
  /** whose word the client address is (TRUST_PROXY): the socket's peer by default */
  trustProxy?: ProxyTrust;
  /** also serve the bundle alone on this port (0: any free port), a second origin like a CDN (the cross-origin demo) */
  bundlePort?: number;
  /** the site's pages: where they are published and where they read their data (default: this server) */
  site?: SiteOptions;
  /** where the feeds' re-hosted photos are kept and served from (/media/photos/; default .data/photos) */
  photosDir?: string;
  drawingsDir?: string; // where the seed's drawings made as photos are kept (seed/drawings.ts; default .data/drawings)
  retentionEveryMs?: number; // the retention job's own schedule (default an hour; 0: only through applyRetention)
  /** webhooks: their backoff (tests: seconds instead of minutes), the resolver behind the safe fetcher (tests) */
  webhooks?: { baseDelaySeconds?: number; maxDelaySeconds?: number; resolve?: SafeFetchOptions['resolve'] };
  /** imports: the scheduled sources (IMPORT_SOURCES), and Supabase Storage for their photos (else photosDir) */
  imports?: { schedule?: ScheduledSource[]; storage?: StorageSettings | undefined };
  /** per kind of request, the milliseconds after which it is answered 503/504 (server/http/app.ts DEADLINES; tests shorten them) */
  deadlines?: Partial<Record<RequestKind, number>>;
  /** how old the data API's schema cache may grow (server/stand-in/rest/handler.ts SCHEMA_TTL_MS; tests shorten it) */
  schemaTtlMs?: number;
  /** at most this many rows per answer of the data API (DB_MAX_ROWS, as a hosted project's Max Rows; default 1000) */
  maxRows?: number;
}

export interface SiteOptions {
  /** the public address of the site, for canonical links, sitemaps and previews (SITE_URL; default http://localhost:<port>) */
  url?: string;
  /** the REST API the pages read (SITE_API_URL, e.g. a Supabase project; default this server) */
  apiUrl?: string;
  apiKey?: string;
  /** where preview images are cached (default .data/cache/images) */
  imageCacheDir?: string;
  /** addresses per sitemap file (default 50,000) */
  sitemapUrlsPerFile?: number;
  /** hosts remote images may come from besides our own and SITE_API_URL's (IMAGE_HOSTS; server/http/safe-fetch.ts) */
  imageHosts?: string[];
  /** the image fetcher's timeouts (tests shorten them) */
  imageTimeouts?: { connectMs?: number; totalMs?: number };
  /** the tile provider of the pages' maps (MAP_TILES_URL, MAP_TILES_ATTRIBUTION); default OpenStreetMap's own tiles */
  mapTiles?: MapTiles | undefined;
  /** the privacy notice's operator details and retention periods (PRIVACY_*, RETENTION_*); default the site's facts */
  privacy?: PrivacySettings;
}

export interface MailOptions extends Partial<Omit<OutboxServiceOptions, 'sql' | 'mailer' | 'composers' | 'log'>> {
  /** smtp://user:pass@host:port (nodemailer URL); none (and no api): .eml files in outboxDir */
  smtpUrl?: string;
  /** a mail provider's HTTP API (MAIL_API_URL, MAIL_API_KEY; core/functions/outbox/http-mail.ts) */
  api?: { url: string; key: string } | undefined;
  outboxDir?: string;
  from?: string;
  /** the public site, for links in mails */
  siteUrl?: string;
}

export interface RunningServer {
  url: string;
  port: number;
  /** the second origin serving only the bundle, when bundlePort was given and free */
  bundleUrl?: string;
  db: Database;
  /** resolves when migrations and seed are done (the API answers 503 until then) */
  ready: Promise<void>;
  /** delivers the due mail now (tests) */
  drainOutbox(): Promise<void>;
  /** runs the alert job now (tests, benchmarks) */
  runAlerts(): Promise<AlertRunResult>;
  /** makes the market index again now (docs/market.md): the rows written */
  refreshMarket(): Promise<number | null>;
  /** the retention job now (docs/privacy.md), not again within `minGapSeconds` of the last run (default an hour) */
  applyRetention(minGapSeconds?: number): Promise<RetentionOutcome>;
  /** where the re-hosted photos are */
  photos: PhotoStore;
  close(): Promise<void>;
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const log = options.log ?? (() => {});
  let isReady = false;
  let closed = false;
  const sql = adminSql(options.db);
  // the JWT secret our Auth stand-in signs with and the data API checks (server/stand-in/auth/handler.ts)
  let secret: Promise<Uint8Array> | undefined;
  const jwtSecret = () =>
    (secret ??= keptSecret(sql, 'jwt_secret', options.jwtSecret).then((s) => new TextEncoder().encode(s)));
  const rest = createRestHandler({
    db: options.db,
    jwtSecret,
    ...(options.schemaTtlMs ? { schemaTtlMs: options.schemaTtlMs } : {}),
    ...(options.maxRows ? { maxRows: options.maxRows } : {}),
  });
  const { smtpUrl, api, outboxDir, from, siteUrl, ...delivery } = options.mail ?? {};
  const mailOptions = {
    from: from ?? DEFAULTS.mailFrom,
    siteUrl: siteUrl ?? `http://localhost:${options.port || 8080}`,
  };
  const distDir = options.distDir ?? resolve(ROOT, 'dist');
  // the alert mails' texts: the locale files as the site build copies them (read when first needed)
  let texts: ReturnType<typeof loadTexts> | undefined;
  const siteTexts = (lang: Lang) => (texts ??= loadTexts(resolve(distDir, 'site'))).dict(lang);
  const { intervalSeconds, settleSeconds, ...alertsConfig } = options.alerts ?? {};
  const outbox = createOutboxService({
    ...delivery,
    sql,
    mailer: api ? httpMailer(api) : smtpUrl ? smtp(smtpUrl) : fileMailer(outboxDir ?? resolve(ROOT, '.data', 'outbox')),
    composers: {
      ...allComposers({
        ...mailOptions,
        teamInbox: alertsConfig.teamInbox ?? DEFAULT_ALERTS_CONFIG.teamInbox,
        texts: siteTexts,
      }),
      // our Auth stand-in's sign-in codes (a hosted project's Auth mails its own)
      'sign-in-code': signInComposer({ ...mailOptions, texts: siteTexts }),
    },
    // signed webhooks to the CRM (docs/leads.md), through the safe fetcher
    deliverers: {
      webhook: {
        deliver: webhookDeliverer(safePoster(options.webhooks?.resolve)),
        maxAttempts: WEBHOOK_MAX_ATTEMPTS,
        baseDelaySeconds: options.webhooks?.baseDelaySeconds ?? WEBHOOK_DELAYS.baseSeconds,
        maxDelaySeconds: options.webhooks?.maxDelaySeconds ?? WEBHOOK_DELAYS.maxSeconds,
      },
    },
    log,
  });
  const alertJob = createAlertService({
    sql,
    intervalSeconds: intervalSeconds ?? DEFAULTS.alertsIntervalSeconds,
    settleSeconds: settleSeconds ?? DEFAULTS.alertsSettleSeconds,
    onQueued: () => outbox.kick(),
    log,
  });
  // this server's calls to its own API and functions (the pages' data, a page's form) carry it, and name the visitor they are made for
  const internalToken = randomBytes(24).toString('base64url');
  const functions = createFunctionsRouter(
    {
      ...localFunctions(
        sql,
        { inquiry: { siteUrl: mailOptions.siteUrl, ...options.inquiry }, alerts: alertsConfig },
        () => outbox.kick(),
        siteTexts,
      ),
      ...options.functions,
    },
    { trustProxy: options.trustProxy ?? NO_PROXY, internalToken },
  );
  const auth = createAuthHandler({
    sql,
    secret: jwtSecret,
    siteUrl: mailOptions.siteUrl,
    onQueued: () => outbox.kick(),
  });
  let port = 0;
  const self = () => `http://127.0.0.1:${port}`;
  const publicOrigin = () => options.site?.url ?? `http://localhost:${port}`;
  // our own media (the site's and the seed's), read from disk for the preview images
  const mediaRoots = [new StaticFiles(resolve(distDir, 'site', 'media')), ...MEDIA_DIRS.map((d) => new StaticFiles(d))];
  const drawings = new SeedDrawings(MEDIA_DIRS, options.drawingsDir ?? resolve(ROOT, '.data', 'drawings'), log);
  // the feeds' photos, by content hash: never change, so cached for a year
  const photosDir = options.photosDir ?? resolve(ROOT, '.data', 'photos');
  const photoFiles = new StaticFiles(photosDir);
  const photos = localPhotoStore(photosDir);
  const market = createMarketService({ db: options.db, log });
  const retention = createRetentionService({
    db: options.db,
    retention: (options.site?.privacy ?? defaultPrivacy()).retention,
    log,
    everyMs: options.retentionEveryMs,
  });
  // where the feeds' photos and the agents' own are made and kept: Supabase Storage when configured
  const photoStore = options.imports?.storage ? supabasePhotoStore(options.imports.storage) : photos;
  const imports = createImportService({
    db: options.db,
    store: photoStore,
    schedule: options.imports?.schedule ?? [],
    log,
  });
  const agentPhoto = createAgentPhotoHandler({ sql, secret: jwtSecret, store: () => photoStore });
  const ownOrigins = () => new Set([publicOrigin(), self(), `http://localhost:${port}`].map((o) => new URL(o).origin));
  const imageRules = () =>
    [...(options.site?.apiUrl ? [new URL(options.site.apiUrl).origin] : []), ...(options.site?.imageHosts ?? [])]
      .map(parseHostRule)
      .filter((r): r is HostRule => r !== undefined);
  const pages = createPages({
    siteDir: resolve(distDir, 'site'),
    imageSources: {
      async readOwn(url) {
        if (!ownOrigins().has(url.origin) || !url.pathname.startsWith('/media/')) return undefined;
        if (url.pathname.startsWith('/media/photos/')) {
          const file = await photoFiles.resolve(url.pathname.slice('/media/photos'.length));
          return file ? readFile(file) : undefined;
        }
        for (const root of mediaRoots) {
          const file = await root.resolve(url.pathname.slice('/media'.length));
          if (file) return readFile(file);
        }
        const drawn = await drawings.resolve(url.pathname.slice('/media'.length));
        return drawn ? readFile(drawn) : undefined;
      },
      fetch: {
        get allow() {
          return imageRules();
        },
        ...(options.site?.imageTimeouts?.connectMs ? { connectTimeoutMs: options.site.imageTimeouts.connectMs } : {}),
        ...(options.site?.imageTimeouts?.totalMs ? { totalTimeoutMs: options.site.imageTimeouts.totalMs } : {}),
      },
    },
    origin: publicOrigin,
    api: () =>
      options.site?.apiUrl
        ? { url: options.site.apiUrl, key: options.site.apiKey ?? 'local-anon-key' }
        : { url: self(), key: 'local-anon-key', internalToken },
    // media paths in our data are served by this server, at its public address
    mediaBase: () => options.site?.apiUrl ?? publicOrigin(),
    imageCacheDir: options.site?.imageCacheDir ?? resolve(ROOT, '.data', 'cache', 'images'),
    ...(options.site?.sitemapUrlsPerFile ? { sitemapUrlsPerFile: options.site.sitemapUrlsPerFile } : {}),
    charge: (client, ms) => options.db.shares.charge(client, ms),
    // the pages' elements read the API the pages read; the demos load the bundle from its second origin
    csp: () => ({
      connect: options.site?.apiUrl ? [new URL(options.site.apiUrl).origin] : [],
      scripts: bundleUrl ? [bundleUrl] : [],
      // the inline code the built pages hold: none other runs (server/http/csp.ts)
      inline: ourInlineCode(resolve(distDir, 'site')),
    }),
    ...(options.site?.mapTiles ? { mapTiles: options.site.mapTiles } : {}),
    privacy: options.site?.privacy ?? defaultPrivacy(),
    log,
  });
  const { server } = createApp({
    distDir,
    mediaDirs: MEDIA_DIRS,
    drawings,
    log,
    pages,
    trustProxy: options.trustProxy ?? NO_PROXY,
    // browsers keep to https for a year once the site is published on https
    hsts: Boolean(options.site?.url?.startsWith('https://')),
    shares: options.db.shares,
    internalToken,
    ...(options.deadlines ? { deadlines: options.deadlines } : {}),
    mounts: [
      {
        prefix: '/rest/v1',
        handle: async (req, res, url) => {
          if (!isReady && req.method !== 'OPTIONS') return sendError(res, schemaUnavailable(), { 'Retry-After': '2' });
          await rest.handle(req, res, url);
        },
      },
      { prefix: '/functions/v1', handle: functions },
      {
        prefix: '/auth/v1',
        handle: async (req, res, url) => {
          if (!isReady && req.method !== 'OPTIONS') return sendError(res, schemaUnavailable(), { 'Retry-After': '2' });
          await auth(req, res, url);
        },
      },
      // an agent's photo, uploaded from her area (server/agent-area/photo.ts)
      {
        prefix: '/agent/photo',
        handle: async (req, res) => {
          if (!isReady) return sendError(res, schemaUnavailable(), { 'Retry-After': '2' });
          await agentPhoto(req, res);
        },
      },
      {
        prefix: '/media/photos',
        handle: async (req, res, url) => {
          const path = url.pathname.slice('/media/photos'.length);
          let file = await photoFiles.resolve(path);
          // an AVIF or WebP size is made the first time it is asked for (server/import/photos.ts)
          const [, hash, name] = /^\/([0-9a-f]{32})\/([\w.]+)$/.exec(path) ?? [];
          if (
            !file &&
            hash &&
            name &&
            (req.method === 'GET' || req.method === 'HEAD') &&
            (await photoVariant(photos, hash, name))
          )
            file = await photoFiles.resolve(path);
          if (!file || (req.method !== 'GET' && req.method !== 'HEAD')) {
            res
              .writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'Access-Control-Allow-Origin': '*' })
              .end('Not found');
            return;
          }
          await photoFiles.send(req, res, file, {
            'Access-Control-Allow-Origin': '*',
            'Cache-Control': 'public, max-age=31536000, immutable',
          });
        },
      },
      // the pages of the alert and visit mails' links: GET shows, POST acts (server/pages/link-pages.ts)
      ...[
        '/alerts',
        '/es/alerts',
        '/visits',
        '/es/visits',
        '/privacy/my-data',
        '/es/privacidad/mis-datos',
        '/es/privacy/my-data',
        '/privacy/consent',
        '/es/privacidad/consentimiento',
        '/es/privacy/consent',
      ].map((prefix) => ({ prefix, handle: pages.links })),
      {
        // where the cross-origin demo loads the bundle from
        prefix: '/demo/config.json',
        handle: async (_req, res) => {
          res
            .writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' })
            .end(JSON.stringify({ bundleUrl: bundleUrl ?? null }));
        },
      },
    ],
  });
  let bundleUrl: string | undefined;
  const ready = prepareWhenReachable(options.db, options.seedListings, log, () => closed).then(async () => {
    // the client hashes' salt: made at random on the first start unless INQUIRY_HASH_SALT is set
    if (!options.inquiry?.hashSalt) await clientSalt(sql, undefined);
    rest.reload();
    isReady = true;
    outbox.start();
    alertJob.start();
    market.start();
    retention.start();
  });
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '0.0.0.0', () => resolveListen());
  });
  port = (server.address() as AddressInfo).port;
  // the schedule once the database is ready
  void ready.then(
    () => !closed && imports.start(),
    () => {},
  );
  let bundleServer: ReturnType<typeof createApp>['server'] | undefined;
  if (options.bundlePort !== undefined) {
    bundleServer = createApp({ distDir: options.distDir ?? resolve(ROOT, 'dist'), log, bundleOnly: true }).server;
    const listening = await new Promise<boolean>((resolveListen) => {
      bundleServer?.once('error', (error: NodeJS.ErrnoException) => {
        log(
          `[start] the bundle's second origin is not served (port ${options.bundlePort}: ${error.code ?? error.message})`,
        );
        resolveListen(false);
      });
      bundleServer?.listen(options.bundlePort, options.host ?? '0.0.0.0', () => resolveListen(true));
    });
    // 127.0.0.1 rather than localhost: another host name, so a page on localhost sees another origin
    if (listening) bundleUrl = `http://127.0.0.1:${(bundleServer.address() as AddressInfo).port}`;
    else bundleServer = undefined;
  }
  return {
    url: `http://localhost:${port}`,
    port,
    bundleUrl,
    db: options.db,
    ready,
    drainOutbox: () => outbox.drain(),
    runAlerts: () => alertJob.run(),
    refreshMarket: () => market.refresh(0),
    applyRetention: (minGapSeconds?: number) => retention.apply(minGapSeconds),
    photos,
    async close() {
      closed = true;
      await imports.stop();
      await alertJob.stop();
      await market.stop();
      await retention.stop();
      await outbox.stop();
      for (const s of [server, bundleServer]) {
        if (!s) continue;
        await new Promise<void>((r) => {
          s.close(() => r());
          s.closeAllConnections();
        });
      }
      await ready.catch(() => {});
      await options.db.close();
    },
  };
}
