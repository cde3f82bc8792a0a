/**
 * `npm start`: builds what is missing, then serves the site, the bundle and the data API.
 * Configuration by environment: PORT (8080), DATA_DIR (.data), DATABASE_URL (PostgreSQL instead
 * of the embedded PGlite), SMTP_URL / SMTP_FROM / TEAM_INBOX (inquiry mail).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { createApp } from './http/app.ts';

const root = resolve(import.meta.dirname, '..');
const dist = resolve(root, 'dist');

function ensureBuilt(): void {
  const needed = ['widgets/exp-widgets.js', 'widgets/exp-widgets.bundle.js', 'site/index.html'];
  if (needed.every((f) => existsSync(resolve(dist, f)))) return;
  console.log('[start] building the bundle and the site (first start)...');
  const result = spawnSync(process.execPath, ['--import', 'tsx', resolve(root, 'scripts/build.ts')], { stdio: 'inherit', cwd: root });
  if (result.status !== 0) {
    console.error('[start] the build failed; see above.');
    process.exit(result.status ?? 1);
  }
}

async function main(): Promise<void> {
  if (process.env.SKIP_BUILD !== '1') ensureBuilt();
  const port = Number(process.env.PORT ?? 8080);
  const { server } = createApp({
    distDir: dist,
    mediaDirs: [resolve(root, 'supabase/seed/media')],
    log: process.env.LOG_REQUESTS === '0' ? () => {} : (line) => console.log(line),
  });
  server.listen(port, () => console.log(`[start] http://localhost:${port}/`));
  const stop = (signal: string) => {
    console.log(`[start] ${signal}: stopping`);
    server.close(() => process.exit(0));
    server.closeAllConnections();
    setTimeout(() => process.exit(0), 3000).unref();
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

void main();
