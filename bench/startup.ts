/**
 * How long `npm start` takes on this machine (README "Two commands"; issue 39's targets: the first
 * page within 40 s of a first start, build included, a restart within 5 s): the build, timed as a
 * first start runs it; a first start on an empty data directory (PostgreSQL's initdb, the
 * migrations, the seed) to its first page and to its first data; a restart on the same directory.
 * Each is the median of three runs, each start a fresh process stopped by SIGTERM.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const RUNS = 3;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

/** Polls `url` until `ok` says its answer is what is waited for; the time it took from `t0`. */
async function waitFor(
  url: string,
  ok: (res: Response, body: string) => boolean,
  t0: number,
  child: ChildProcess,
): Promise<number> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}) before ${url} answered`);
    if (performance.now() - t0 > 180_000) throw new Error(`${url} did not answer within 180 s`);
    try {
      const res = await fetch(url, { headers: { apikey: 'local-anon-key' }, signal: AbortSignal.timeout(2000) });
      if (ok(res, await res.text())) return performance.now() - t0;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** One `npm start` on `dataDir`: from the spawn to the first page and to the first listing the data API answers. */
async function startOnce(dataDir: string): Promise<{ page: number; data: number }> {
  const port = await freePort();
  const env = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    IMPORT_SOURCES: '',
    SKIP_BUILD: '1',
  };
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { cwd: ROOT, env, stdio: 'ignore' });
  try {
    const base = `http://127.0.0.1:${port}`;
    const page = await waitFor(`${base}/`, (res) => res.status === 200, t0, child);
    const data = await waitFor(
      `${base}/rest/v1/listings?select=id&limit=1`,
      (res, body) => res.status === 200 && body.startsWith('[{'),
      t0,
      child,
    );
    return { page, data };
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
}

export async function benchStartup(): Promise<Record<string, unknown>> {
  const builds: number[] = [];
  const firsts: Array<{ page: number; data: number }> = [];
  const restarts: Array<{ page: number; data: number }> = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const built = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts'], { cwd: ROOT, stdio: 'ignore' });
    if (built.status !== 0) throw new Error('the build failed');
    builds.push(performance.now() - t0);
    const dir = mkdtempSync(join(tmpdir(), 'exp-start-'));
    try {
      firsts.push(await startOnce(dir));
      restarts.push(await startOnce(dir));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const figures = {
    build: median(builds),
    first: { page: median(firsts.map((f) => f.page)), data: median(firsts.map((f) => f.data)) },
    restart: { page: median(restarts.map((f) => f.page)), data: median(restarts.map((f) => f.data)) },
  };
  const markdown = [
    `### Start (\`npm start\`, the embedded PostgreSQL; median of ${RUNS}; ${new Date().toISOString().slice(0, 10)})`,
    '',
    '| | first page | data (the first listing from the data API) | target |',
    '|---|---|---|---|',
    `| first start, build included (an empty data directory: initdb, migrations, seed) | ${s(figures.build + figures.first.page)} | ${s(figures.build + figures.first.data)} | first page ≤ 40 s |`,
    `| of which the build | ${s(figures.build)} | | |`,
    `| restart (the same data directory) | ${s(figures.restart.page)} | ${s(figures.restart.data)} | ≤ 5 s |`,
  ].join('\n');
  return { runs: RUNS, builds, firsts, restarts, figures, markdown };
}
