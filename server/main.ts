/**
 * `npm start`: builds what is missing, opens the database (the embedded PostgreSQL in
 * DATA_DIR/postgres, started and stopped with the server; a PostgreSQL server of the operator's
 * when DATABASE_URL is set), applies migrations and the first-start seed, and serves everything.
 *
 * Its settings come from the environment, read and checked in ./config.ts (docs/configuration.md).
 */
import './production.ts';
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Database } from './db/database.ts';
import { dataDirFor, startEmbeddedPostgres } from './db/embedded-postgres.ts';
import { DataDirLock } from './db/lock.ts';
import { openPostgres } from './db/postgres.ts';
import { lineLog } from './http/log.ts';
import { ConfigError, redactUrl } from '../core/functions/env.ts';
import { loadConfig, mapTilesNotice, type ServerConfig } from './config.ts';
import { ROOT, startServer } from './server.ts';

const dist = resolve(ROOT, 'dist');

/** The embedded PostgreSQL's settings: room for the pools of a server and its commands. */
const EMBEDDED_SETTINGS = { max_connections: 100, shared_buffers: '128MB' };

function ensureBuilt(): void {
  const needed = [
    'widgets/exp-widgets.js',
    'widgets/exp-widgets.bundle.js',
    'widgets/manifest.json',
    'site/index.html',
    'site/demo/index.html',
  ];
  if (needed.every((f) => existsSync(resolve(dist, f)))) return;
  console.log('[start] building the bundle and the site (first start)...');
  const result = spawnSync(process.execPath, ['--import', 'tsx', resolve(ROOT, 'scripts/build.ts')], {
    stdio: 'inherit',
    cwd: ROOT,
  });
  if (result.status !== 0) {
    console.error('[start] the build failed; see above.');
    process.exit(result.status ?? 1);
  }
}

/**
 * The last line of defence: an error that escaped every handler is logged and the server keeps
 * serving; it exits only for a reason it states (a bad setting, a data directory in use).
 */
function installLastLineOfDefence(): void {
  process.on('uncaughtException', (error) =>
    console.error('[server] unexpected error (the server keeps running):', error),
  );
  process.on('unhandledRejection', (reason) =>
    console.error('[server] unhandled rejection (the server keeps running):', reason),
  );
}

/** startServer, and when it cannot (its port is taken) the embedded PostgreSQL stopped before the error is told. */
async function startServerOrStop(
  embedded: Running['embedded'],
  options: Parameters<typeof startServer>[0],
): ReturnType<typeof startServer> {
  try {
    return await startServer(options);
  } catch (error) {
    await embedded?.stop();
    throw error;
  }
}

interface Running {
  /** the embedded PostgreSQL on its way up: a stop waits for it, so as not to leave it running */
  starting?: Promise<unknown>;
  server?: { close(): Promise<void> };
  embedded?: { stop(): Promise<void>; kill(): Promise<void> };
}

/**
 * SIGTERM or SIGINT at any moment, start-up included: the server stops taking requests and its
 * jobs (an import, a delivery) end where they stand (what they had not committed is done again by
 * the next run); then the embedded PostgreSQL stops. Within 10 s whatever happens: after 4 s the
 * server's own stop is given up, after 8 s PostgreSQL is stopped at once.
 */
let stopping = false;
function stop(running: Running, signal: string): void {
  if (stopping) return;
  stopping = true;
  console.log(`[start] ${signal}: stopping`);
  const within = <T>(p: Promise<T>, ms: number) =>
    Promise.race([p.catch(() => undefined), new Promise<undefined>((r) => setTimeout(() => r(undefined), ms).unref())]);
  setTimeout(() => {
    void within(running.embedded?.kill() ?? Promise.resolve(), 1500).then(() => process.exit(0));
  }, 8000).unref();
  void within(running.starting ?? Promise.resolve(), 6000)
    .then(() => within(running.server?.close() ?? Promise.resolve(), 4000))
    .then(() => running.embedded?.stop())
    .then(() => process.exit(0));
}

async function main(): Promise<void> {
  let config: ServerConfig;
  try {
    config = loadConfig(process.env, process.argv.slice(2), ROOT);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`[start] ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
  installLastLineOfDefence();
  if (!config.skipBuild) ensureBuilt();
  const running: Running = {};
  process.once('SIGINT', () => stop(running, 'SIGINT'));
  process.once('SIGTERM', () => stop(running, 'SIGTERM'));

  let db: Database;
  let embedded: Running['embedded'];
  const dbOptions = { anonPoolSize: config.database.poolSize, shares: config.database.shares };
  if (config.databaseUrl) {
    console.log(`[start] PostgreSQL at ${redactUrl(config.databaseUrl)}`);
    db = await openPostgres(config.databaseUrl, dbOptions);
  } else {
    if (config.resetData) {
      rmSync(dataDirFor(config.dataDir), { recursive: true, force: true });
      rmSync(config.dataDir, { recursive: true, force: true });
    }
    // one server per data directory: a second would take the first's PostgreSQL for a leftover
    const lock = DataDirLock.acquire(config.dataDir);
    const dir = dataDirFor(config.dataDir);
    if (existsSync(resolve(config.dataDir, 'pglite')) && !existsSync(resolve(dir, 'PG_VERSION'))) {
      console.log(
        `[start] ${resolve(config.dataDir, 'pglite')} is the data of an older version (PGlite) and is no longer read: this start seeds PostgreSQL afresh`,
      );
    }
    console.log(
      `[start] embedded PostgreSQL in ${dir}${existsSync(resolve(dir, 'PG_VERSION')) ? '' : ' (first start: initdb)'}`,
    );
    const starting = startEmbeddedPostgres({ dataDir: dir, settings: EMBEDDED_SETTINGS });
    running.starting = starting;
    const pg = await starting.catch((error: unknown) => {
      lock.release();
      throw error;
    });
    console.log(`[start] PostgreSQL ${pg.version} at ${pg.url}`);
    embedded = {
      async stop() {
        await pg.stop();
        lock.release();
      },
      async kill() {
        await pg.pause('immediate');
        lock.release();
      },
    };
    running.embedded = embedded;
    if (stopping) {
      // stopped while PostgreSQL was on its way up
      await embedded.stop();
      process.exit(0);
    }
    db = await openPostgres(pg.url, dbOptions);
  }

  const write = lineLog();
  const server = await startServerOrStop(embedded, {
    db,
    port: config.port,
    log: (line) => (!config.logRequests && !line.startsWith('[') ? undefined : write(line)),
    seedListings: config.seedListings,
    bundlePort: config.bundlePort,
    trustProxy: config.trustProxy,
    maxRows: config.database.maxRows,
    inquiry: config.inquiry,
    jwtSecret: config.jwtSecret,
    alerts: config.alerts,
    mail: {
      smtpUrl: config.mail.smtpUrl,
      api: config.mail.api,
      from: config.mail.from,
      siteUrl: config.mail.siteUrl,
      outboxDir: resolve(config.dataDir, 'outbox'),
    },
    site: {
      url: config.site.url,
      apiUrl: config.site.apiUrl,
      apiKey: config.site.apiKey,
      imageCacheDir: resolve(config.dataDir, 'cache', 'images'),
      imageHosts: config.imageHosts,
      mapTiles: config.mapTiles,
      privacy: config.privacy,
    },
    photosDir: resolve(config.dataDir, 'photos'),
    drawingsDir: resolve(config.dataDir, 'drawings'),
    imports: { schedule: config.importSchedule, storage: config.photoStorage },
  });
  running.server = server;
  if (!config.mail.smtpUrl && !config.mail.api)
    console.log(`[start] no SMTP_URL: e-mails are written as .eml files to ${resolve(config.dataDir, 'outbox')}`);
  const tiles = mapTilesNotice(config);
  if (tiles) console.log(`[start] ${tiles}`);
  console.log(`[start] http://localhost:${server.port}/`);
  if (server.bundleUrl)
    console.log(`[start] the bundle alone, as a second origin: ${server.bundleUrl}/widgets/exp-widgets.js`);
  server.ready.then(
    () => console.log('[start] data API ready'),
    (error: unknown) => {
      console.error('[start] could not prepare the database:', error);
      process.exitCode = 1;
      void server
        .close()
        .then(() => embedded?.stop())
        .then(() => process.exit(1));
    },
  );
}

main().catch((error: unknown) => {
  console.error(`[start] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
