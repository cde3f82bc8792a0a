/**
 * `npm start`: builds what is missing, opens the database (PGlite in DATA_DIR; `npm start --
 * --postgres` an embedded PostgreSQL in DATA_DIR/postgres; a PostgreSQL server when DATABASE_URL is
 * set), applies migrations and the first-start seed, and serves everything.
 *
 * Its settings come from the environment, read and checked in ./config.ts (README "Configuration").
 */
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Database } from './db/database.ts';
import { startEmbeddedPostgres } from './db/embedded-postgres.ts';
import { DataDirLock } from './db/lock.ts';
import { openPglite } from './db/pglite.ts';
import { openPostgres } from './db/postgres.ts';
import { lineLog } from './http/log.ts';
import { ConfigError, redactUrl } from '../core/functions/env.ts';
import { loadConfig, type ServerConfig } from './config.ts';
import { ROOT, startServer } from './server.ts';

const dist = resolve(ROOT, 'dist');

function ensureBuilt(): void {
  const needed = ['widgets/exp-widgets.js', 'widgets/exp-widgets.bundle.js', 'widgets/manifest.json', 'site/index.html', 'site/demo/index.html'];
  if (needed.every((f) => existsSync(resolve(dist, f)))) return;
  console.log('[start] building the bundle and the site (first start)...');
  const result = spawnSync(process.execPath, ['--import', 'tsx', resolve(ROOT, 'scripts/build.ts')], { stdio: 'inherit', cwd: ROOT });
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
  process.on('uncaughtException', (error) => console.error('[server] unexpected error (the server keeps running):', error));
  process.on('unhandledRejection', (reason) => console.error('[server] unhandled rejection (the server keeps running):', reason));
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

  let db: Database;
  let embedded: { stop(): Promise<void> } | undefined;
  if (config.databaseUrl) {
    console.log(`[start] PostgreSQL at ${redactUrl(config.databaseUrl)}`);
    db = await openPostgres(config.databaseUrl);
  } else if (config.embeddedPostgres) {
    if (config.resetData) rmSync(config.dataDir, { recursive: true, force: true });
    // one server per data directory, as with PGlite
    const lock = DataDirLock.acquire(config.dataDir);
    const dir = resolve(config.dataDir, 'postgres');
    console.log(`[start] embedded PostgreSQL in ${dir} (first start: initdb)`);
    const pg = await startEmbeddedPostgres({ dataDir: dir }).catch((error: unknown) => {
      lock.release();
      throw error;
    });
    console.log(`[start] PostgreSQL ${pg.version} at ${pg.url}`);
    embedded = {
      async stop() {
        await pg.stop();
        lock.release();
      },
    };
    db = await openPostgres(pg.url);
  } else {
    if (config.resetData) rmSync(config.dataDir, { recursive: true, force: true });
    console.log(`[start] embedded PGlite in ${config.dataDir}`);
    db = await openPglite(config.dataDir);
  }

  const write = lineLog();
  const server = await startServer({
    db,
    port: config.port,
    log: (line) => (!config.logRequests && !line.startsWith('[') ? undefined : write(line)),
    seedListings: config.seedListings,
    bundlePort: config.bundlePort,
    trustProxy: config.trustProxy,
    inquiry: config.inquiry,
    alerts: config.alerts,
    mail: { smtpUrl: config.mail.smtpUrl, from: config.mail.from, siteUrl: config.mail.siteUrl, outboxDir: resolve(config.dataDir, 'outbox') },
    site: { url: config.site.url, apiUrl: config.site.apiUrl, apiKey: config.site.apiKey, imageCacheDir: resolve(config.dataDir, 'cache', 'images'), imageHosts: config.imageHosts },
    photosDir: resolve(config.dataDir, 'photos'),
    imports: { dataDir: config.dataDir, schedule: config.importSchedule, storage: config.photoStorage },
  });
  if (!config.mail.smtpUrl) console.log(`[start] no SMTP_URL: e-mails are written as .eml files to ${resolve(config.dataDir, 'outbox')}`);
  console.log(`[start] http://localhost:${server.port}/`);
  if (server.bundleUrl) console.log(`[start] the bundle alone, as a second origin: ${server.bundleUrl}/widgets/exp-widgets.js`);
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

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`[start] ${signal}: stopping`);
    setTimeout(() => process.exit(0), 5000).unref();
    void server
      .close()
      .then(() => embedded?.stop())
      .then(() => process.exit(0));
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(`[start] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
