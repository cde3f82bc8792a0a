/**
 * Every setting `npm start` reads from the environment, parsed and checked here, once. A value
 * that cannot be right stops the server at start with a message naming the variable (see
 * docs/configuration.md); an empty value means "not set".
 */
import { resolve } from 'node:path';
import { DEFAULTS } from '../core/functions/defaults.ts';
import { NO_PROXY, type ProxyTrust } from '../core/functions/client-address.ts';
import {
  envReader,
  readAlertSettings,
  readInquirySettings,
  readMailSettings,
  type EnvReader,
} from '../core/functions/env.ts';
import { RETENTION_DEFAULTS, type PrivacySettings } from '../core/protocol/privacy.ts';
import { SITE } from '../core/site.ts';
import { parseHostRule } from './http/safe-fetch.ts';
import { readSchedule, type ScheduledSource } from './import/sources.ts';
import type { StorageSettings } from './import/storage.ts';
import { DEFAULT_SHARES, type ShareOptions } from './http/client-shares.ts';
import { MAX_ROWS } from './stand-in/rest/request.ts';
import { CLOCK_OFFSET_ENV } from '../core/clock.ts';
import { parseTilesCredit, tilesUrlProblem, type MapTiles } from '../core/protocol/map-tiles.ts';

export interface ServerConfig {
  port: number;
  dataDir: string;
  /** a PostgreSQL server of the operator's; unset: the embedded PostgreSQL in dataDir */
  databaseUrl: string | undefined;
  /** the public API's connections and each client's share of them (server/http/client-shares.ts), and its rows per answer */
  database: { poolSize: number; shares: ShareOptions; maxRows: number };
  seedListings: number | undefined;
  logRequests: boolean;
  /** whose word the client address is (TRUST_PROXY, core/functions/client-address.ts) */
  trustProxy: ProxyTrust;
  /** hosts remote images may come from besides our own (IMAGE_HOSTS, server/http/safe-fetch.ts) */
  imageHosts: string[];
  /** the bundle alone on a second port (the cross-origin demo); undefined: off */
  bundlePort: number | undefined;
  resetData: boolean;
  skipBuild: boolean;
  mail: ReturnType<typeof readMailSettings>;
  /** the site's pages: public address (SITE_URL) and where they read data (SITE_API_URL, SITE_API_KEY) */
  site: { url: string | undefined; apiUrl: string | undefined; apiKey: string | undefined };
  inquiry: ReturnType<typeof readInquirySettings>;
  /** saved searches: the function's settings, and how often the alert job runs (seconds; 0: never, a test runs it) */
  alerts: ReturnType<typeof readAlertSettings> & { intervalSeconds: number };
  /** the feeds the server imports on a schedule (IMPORT_SOURCES: a JSON file, docs/import.md) */
  importSchedule: ScheduledSource[];
  /** where imported photos are kept: Supabase Storage when set (SUPABASE_URL, SUPABASE_SERVICE_ROLE_KEY, PHOTO_BUCKET), else DATA_DIR/photos */
  photoStorage: StorageSettings | undefined;
  /** the maps' tile provider and its credit (MAP_TILES_URL, MAP_TILES_ATTRIBUTION); undefined: OpenStreetMap's own tiles, for development only */
  mapTiles: MapTiles | undefined;
  /** the project's JWT secret (JWT_SECRET): what our Auth stand-in signs with and the data API checks; unset, one kept in the database (docs/agent-area.md) */
  jwtSecret: string | undefined;
  /** who the controller of visitors' data is and how long it is kept (PRIVACY_*, RETENTION_*; docs/privacy.md) */
  privacy: PrivacySettings;
}

export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  argv: readonly string[] = process.argv.slice(2),
  root = process.cwd(),
): ServerConfig {
  const read = envReader((name) => env[name]);
  const port = read.int('PORT', 8080, { min: 0, max: 65535 });
  const bundle = read.optional('BUNDLE_PORT');
  const bundlePort =
    bundle === 'off' ? undefined : read.int('BUNDLE_PORT', port ? port + 1 : 0, { min: 0, max: 65535 });
  const databaseUrl = read.url('DATABASE_URL', ['postgres', 'postgresql']);
  // --postgres chose the embedded PostgreSQL when it was not the default; it still means it
  const unknownArgs = argv.filter((a) => a !== '--postgres');
  if (unknownArgs.length)
    read.problems.push(
      `unknown argument ${unknownArgs.join(' ')} (npm start takes none: its settings are environment variables, docs/configuration.md)`,
    );
  const config: ServerConfig = {
    port,
    dataDir: resolve(root, read.string('DATA_DIR', '.data')),
    databaseUrl,
    database: {
      poolSize: read.int('DB_POOL_SIZE', 10, { min: 2, max: 500 }),
      maxRows: read.int('DB_MAX_ROWS', MAX_ROWS, { min: 1, max: 100_000 }),
      shares: {
        ...DEFAULT_SHARES,
        concurrent: read.int('CLIENT_CONCURRENCY', DEFAULT_SHARES.concurrent, { min: 1, max: 500 }),
        burstMs: read.int('CLIENT_DB_BURST_SECONDS', DEFAULT_SHARES.burstMs / 1000, { min: 1, max: 86_400 }) * 1000,
        refillPerSecond:
          read.int('CLIENT_DB_SHARE_PERCENT', DEFAULT_SHARES.refillPerSecond / 10, { min: 1, max: 10_000 }) * 10,
      },
    },
    seedListings:
      read.optional('SEED_LISTINGS') === undefined
        ? undefined
        : read.int('SEED_LISTINGS', 1800, { min: 0, max: 2_000_000 }),
    logRequests: read.bool('LOG_REQUESTS', true),
    trustProxy: read.proxyTrust('TRUST_PROXY', NO_PROXY),
    imageHosts: readImageHosts(read),
    bundlePort,
    resetData: read.bool('RESET_DATA', false),
    skipBuild: read.bool('SKIP_BUILD', false),
    mail: readMailSettings(read, `http://localhost:${port}`),
    site: {
      url: read.baseUrl('SITE_URL'),
      apiUrl: read.baseUrl('SITE_API_URL'),
      apiKey: read.optional('SITE_API_KEY'),
    },
    inquiry: readInquirySettings(read),
    alerts: {
      ...readAlertSettings(read),
      intervalSeconds: read.int('ALERTS_INTERVAL', DEFAULTS.alertsIntervalSeconds, { min: 0, max: 86_400 }),
    },
    importSchedule: readImportSchedule(read, env, root),
    photoStorage: readPhotoStorage(read),
    mapTiles: readMapTiles(read),
    jwtSecret: read.optional('JWT_SECRET'),
    privacy: readPrivacy(read),
  };
  if (config.jwtSecret !== undefined && config.jwtSecret.length < 32)
    read.problems.push("JWT_SECRET must be at least 32 characters (a hosted project's JWT secret)");
  if (config.site.apiUrl && !config.site.apiKey)
    read.problems.push("SITE_API_URL needs SITE_API_KEY (the project's anon key)");
  // the one clock's offset, which the tests set (core/clock.ts reads it; docs/configuration.md): a number or nothing
  read.int(CLOCK_OFFSET_ENV, 0, { min: -4e12, max: 4e12 });
  read.done();
  return config;
}

/**
 * MAP_TILES_URL and MAP_TILES_ATTRIBUTION (both, or neither): the tile provider the pages' maps use
 * and the credit its terms ask for, shown on every map (docs/deployment.md, "Map tiles").
 */
function readMapTiles(read: EnvReader): MapTiles | undefined {
  const url = read.optional('MAP_TILES_URL');
  const attribution = read.optional('MAP_TILES_ATTRIBUTION');
  if (url === undefined) {
    if (attribution !== undefined)
      read.problems.push('MAP_TILES_ATTRIBUTION needs MAP_TILES_URL (the tiles it credits)');
    return undefined;
  }
  const problem = tilesUrlProblem(url);
  // (not the value itself: its query may hold the provider's key)
  if (problem) read.problems.push(`MAP_TILES_URL ${problem}`);
  if (attribution === undefined)
    read.problems.push(
      "MAP_TILES_URL needs MAP_TILES_ATTRIBUTION (the credit the provider's terms ask for, shown on every map)",
    );
  else if (!parseTilesCredit(attribution))
    read.problems.push(
      `MAP_TILES_ATTRIBUTION must be text and links as the provider gives them (&copy; <a href="https://provider.example/copyright">Provider</a>), nothing else, not "${attribution}"`,
    );
  return problem || attribution === undefined ? undefined : { url, attribution };
}

/**
 * What `npm start` says once at start about the map tiles: in production (NODE_ENV=production, the
 * default of npm start: server/production.ts) without a provider, that OpenStreetMap's own tiles
 * are for development only.
 */
export function mapTilesNotice(
  config: Pick<ServerConfig, 'mapTiles'>,
  nodeEnv: string | undefined = process.env.NODE_ENV,
): string | undefined {
  if (config.mapTiles || nodeEnv !== 'production') return undefined;
  return 'the maps use OpenStreetMap\'s own tiles (tile.openstreetmap.org), which are for development only: its tile usage policy forbids heavy use and promises no service. Set MAP_TILES_URL and MAP_TILES_ATTRIBUTION to your provider\'s (docs/deployment.md, "Map tiles")';
}

/** IMAGE_HOSTS: a comma list of host names (`photos.example.com`, `*.example.net`) or origins (`https://cdn.example.com`). */
function readImageHosts(read: EnvReader): string[] {
  const v = read.optional('IMAGE_HOSTS');
  if (v === undefined) return [];
  const list = v
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);
  const bad = list.filter((h) => !parseHostRule(h));
  if (bad.length)
    read.problems.push(
      `IMAGE_HOSTS must be a comma list of host names (photos.example.com, *.example.net) or origins (https://cdn.example.com), not ${bad.map((b) => `"${b}"`).join(', ')}`,
    );
  return list.filter((h) => parseHostRule(h));
}

/**
 * SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY (both, or neither): imported photos go to the
 * project's Storage, in the public bucket PHOTO_BUCKET (default `media`). Also read by `npm run import`.
 */
export function readPhotoStorage(read: EnvReader): StorageSettings | undefined {
  const url = read.baseUrl('SUPABASE_URL');
  const serviceKey = read.optional('SUPABASE_SERVICE_ROLE_KEY');
  const bucket = read.string('PHOTO_BUCKET', 'media');
  if (!/^[a-z0-9][a-z0-9_.-]{0,62}$/.test(bucket))
    read.problems.push(`PHOTO_BUCKET must be a bucket name (lower-case letters, digits, - _ .), not "${bucket}"`);
  if (url && !serviceKey)
    read.problems.push("SUPABASE_URL needs SUPABASE_SERVICE_ROLE_KEY (the project's service role key) to store photos");
  if (serviceKey && !url) read.problems.push("SUPABASE_SERVICE_ROLE_KEY needs SUPABASE_URL (the project's URL)");
  return url && serviceKey ? { url, serviceKey, bucket } : undefined;
}

/** IMPORT_SOURCES: the file of the sources imported on a schedule. */
function readImportSchedule(read: EnvReader, env: Record<string, string | undefined>, root: string): ScheduledSource[] {
  const file = read.optional('IMPORT_SOURCES');
  if (file === undefined) return [];
  try {
    return readSchedule(resolve(root, file), env);
  } catch (error) {
    read.problems.push((error as Error).message);
    return [];
  }
}

/**
 * The privacy notice's operator details (PRIVACY_CONTROLLER, PRIVACY_ADDRESS, PRIVACY_EMAIL,
 * PRIVACY_PHONE, PRIVACY_DPO) and retention periods (RETENTION_LEADS_MONTHS, RETENTION_MAILS_DAYS,
 * RETENTION_PENDING_DAYS): the site's own facts and RETENTION_DEFAULTS unless set (docs/privacy.md).
 */
function readPrivacy(read: EnvReader): PrivacySettings {
  const office = `${SITE.office.street}, ${SITE.office.postalCode} ${SITE.office.city}, ${SITE.office.country}`;
  return {
    controller: read.string('PRIVACY_CONTROLLER', SITE.name),
    address: read.string('PRIVACY_ADDRESS', office),
    email: read.string('PRIVACY_EMAIL', SITE.email),
    phone: read.string('PRIVACY_PHONE', SITE.phone),
    dpo: read.optional('PRIVACY_DPO'),
    retention: {
      leadsMonths: read.int('RETENTION_LEADS_MONTHS', RETENTION_DEFAULTS.leadsMonths, { min: 1, max: 120 }),
      mailsDays: read.int('RETENTION_MAILS_DAYS', RETENTION_DEFAULTS.mailsDays, { min: 1, max: 3650 }),
      pendingDays: read.int('RETENTION_PENDING_DAYS', RETENTION_DEFAULTS.pendingDays, { min: 1, max: 365 }),
    },
  };
}

/** The notice's settings when none are given (a server a test starts): the site's facts and the default periods. */
export const defaultPrivacy = (): PrivacySettings => readPrivacy(envReader(() => undefined));
