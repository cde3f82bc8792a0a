/**
 * `npm start`: builds what is missing, opens the database (PGlite in DATA_DIR, or PostgreSQL when
 * DATABASE_URL is set), applies migrations and the first-start seed, and serves everything.
 *
 * Environment: PORT (8080), DATA_DIR (.data), DATABASE_URL, SEED_LISTINGS (1800),
 * SMTP_URL / SMTP_FROM / TEAM_INBOX / SITE_URL (inquiry mail), INQUIRY_RATE_LIMIT (5 a minute),
 * ALLOWED_ORIGINS (*), TRUST_PROXY=1 (behind a proxy), LOG_REQUESTS=0 (quiet),
 * RESET_DATA=1 (start from an empty data dir: tests), SKIP_BUILD=1 (npm run dev),
 * BUNDLE_PORT (PORT+1: the bundle alone on a second origin, for the cross-origin demo; off to skip).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Database } from './db/database.ts';
import { openPglite } from './db/pglite.ts';
import { openPostgres } from './db/postgres.ts';
import { lineLog } from './http/log.ts';
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

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}

async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, not "${process.env.PORT}"`);
  const dataDir = resolve(ROOT, process.env.DATA_DIR ?? '.data');
  if (process.env.SKIP_BUILD !== '1') ensureBuilt();

  let db: Database;
  if (process.env.DATABASE_URL) {
    console.log(`[start] PostgreSQL at ${redact(process.env.DATABASE_URL)}`);
    db = await openPostgres(process.env.DATABASE_URL);
  } else {
    if (process.env.RESET_DATA === '1') rmSync(dataDir, { recursive: true, force: true });
    console.log(`[start] embedded PGlite in ${dataDir}`);
    db = await openPglite(dataDir);
  }

  const quiet = process.env.LOG_REQUESTS === '0';
  const write = lineLog();
  const env = process.env;
  const origins = env.ALLOWED_ORIGINS ?? '*';
  const server = await startServer({
    db,
    port,
    log: (line) => (quiet && !line.startsWith('[') ? undefined : write(line)),
    seedListings: env.SEED_LISTINGS ? Number(env.SEED_LISTINGS) : undefined,
    // the bundle alone on a second port, for the cross-origin demo (BUNDLE_PORT=off to skip)
    bundlePort: env.BUNDLE_PORT === 'off' ? undefined : Number(env.BUNDLE_PORT ?? (port ? port + 1 : 0)),
    trustProxy: env.TRUST_PROXY === '1',
    inquiry: {
      smtpUrl: env.SMTP_URL || undefined,
      outboxDir: resolve(dataDir, 'outbox'),
      outbox: {
        from: env.SMTP_FROM ?? '"eXp Realty Ecuador" <no-reply@expecuador.example>',
        siteUrl: env.SITE_URL ?? `http://localhost:${port}`,
      },
      config: {
        ...(env.TEAM_INBOX ? { teamInbox: env.TEAM_INBOX } : {}),
        allowedOrigins: origins === '*' ? '*' : origins.split(',').map((o) => o.trim()).filter(Boolean),
        rateLimit: { max: Number(env.INQUIRY_RATE_LIMIT ?? 5), windowSeconds: 60 },
        ...(env.INQUIRY_HASH_SALT ? { hashSalt: env.INQUIRY_HASH_SALT } : {}),
      },
    },
  });
  if (!env.SMTP_URL) console.log(`[start] no SMTP_URL: inquiries are written as .eml files to ${resolve(dataDir, 'outbox')}`);
  console.log(`[start] http://localhost:${server.port}/`);
  if (server.bundleUrl) console.log(`[start] the bundle alone, as a second origin: ${server.bundleUrl}/widgets/exp-widgets.js`);
  server.ready.then(
    () => console.log('[start] data API ready'),
    (error: unknown) => {
      console.error('[start] could not prepare the database:', error);
      process.exitCode = 1;
      void server.close().then(() => process.exit(1));
    },
  );

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`[start] ${signal}: stopping`);
    setTimeout(() => process.exit(0), 5000).unref();
    void server.close().then(() => process.exit(0));
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(`[start] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
