/**
 * The server when things go wrong: PostgreSQL stops and comes back, the database is not up yet at
 * start, a second process on the same PGlite data directory, and a clean stop on SIGTERM.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite } from '../../server/db/pglite.ts';
import { openPostgres } from '../../server/db/postgres.ts';
import { startServer } from '../../server/server.ts';
import { freePort, startPostgres, type PostgresServer } from '../support/postgres.ts';
import { startTestServer } from '../support/servers.ts';

const root = resolve(import.meta.dirname, '../..');

async function until<T>(probe: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('a database that goes away', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => {});
  });

  it('answers 503 in PostgREST shape while PostgreSQL is down and recovers when it is back', async () => {
    const server = await startTestServer('postgres');
    cleanups.push(() => server.close());
    const url = `${server.url}/rest/v1/listings?select=id&limit=1`;
    expect((await fetch(url)).status).toBe(200);
    await server.postgres?.pause();
    const down = await fetch(url);
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBeTruthy();
    const body = await down.json();
    expect(Object.keys(body).sort()).toEqual(['code', 'details', 'hint', 'message']);
    expect(body.code).toBe('PGRST001');
    await server.postgres?.resume();
    const back = await until(async () => {
      const res = await fetch(url);
      return res.status === 200 ? res : undefined;
    });
    expect(await back.json()).toHaveLength(1);
  });

  it('waits for a database that is not up yet at start, answering 503 meanwhile', async () => {
    const pgServer: PostgresServer = await startPostgres();
    cleanups.push(() => pgServer.stop());
    await pgServer.pause();
    const db = await openPostgres(pgServer.url);
    const server = await startServer({ db, port: 0 });
    cleanups.push(() => server.close());
    const early = await fetch(`${server.url}/rest/v1/listings?select=id&limit=1`);
    expect(early.status).toBe(503);
    expect((await early.json()).code).toBe('PGRST002');
    await pgServer.resume();
    await server.ready;
    expect((await fetch(`${server.url}/rest/v1/listings?select=id&limit=1`)).status).toBe(200);
  });
});

describe('the PGlite data directory', () => {
  it('refuses a second process on the same directory with a clear message', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'exp-lock-'));
    try {
      const first = await openPglite(dir);
      // a lock held by a live process other than us: our parent (the test runner's) pid stands in
      const { writeFileSync } = await import('node:fs');
      await first.close();
      writeFileSync(join(dir, 'server.lock'), `${process.ppid}\n`);
      await expect(openPglite(dir)).rejects.toThrow(/in use by another process .*DATA_DIR/s);
      // a lock left by a process that no longer exists is taken over
      writeFileSync(join(dir, 'server.lock'), '999999999\n');
      const again = await openPglite(dir);
      await again.close();
      expect(existsSync(join(dir, 'server.lock'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('npm start', () => {
  it('logs one line per request and stops cleanly on SIGTERM, releasing the data directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'exp-start-'));
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: root,
      env: { ...process.env, PORT: String(port), DATA_DIR: dir, SKIP_BUILD: '1', SEED_LISTINGS: '300' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    try {
      await until(async () => (out.includes('data API ready') ? true : undefined), 60_000);
      const res = await fetch(`http://localhost:${port}/rest/v1/listings?select=id&limit=2`);
      expect(res.status).toBe(200);
      await until(async () => (/GET \/rest\/v1\/listings\?select=id&limit=2 200 [\d.]+ms/.test(out) ? true : undefined), 5000);
      expect(existsSync(join(dir, 'server.lock'))).toBe(true);
      const exit = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      child.kill('SIGTERM');
      expect(await exit).toBe(0);
      expect(out).toContain('SIGTERM: stopping');
      expect(existsSync(join(dir, 'server.lock'))).toBe(false);
    } finally {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
