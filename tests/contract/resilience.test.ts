/**
 * The server when things go wrong: PostgreSQL stops and comes back, the database is not up yet at
 * start, a second process on the same data directory, and a clean stop on SIGTERM.
 */
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirLock } from '../../server/db/lock.ts';
import { openPostgres } from '../../server/db/postgres.ts';
import { startServer } from '../../server/server.ts';
import { startPostgres, type PostgresServer } from '../support/postgres.ts';
import { startServerProcess } from '../support/server-process.ts';
import { pausable, startTestServer } from '../support/servers.ts';
import { until } from '../support/until.ts';

describe('a database that goes away', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => {});
  });

  it('answers 503 in PostgREST shape while PostgreSQL is down and recovers when it is back', async () => {
    const server = await startTestServer('postgres-pausable');
    cleanups.push(() => server.close());
    const url = `${server.url}/rest/v1/listings?select=id&limit=1`;
    expect((await fetch(url)).status).toBe(200);
    await pausable(server).pause();
    const down = await fetch(url);
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBeTruthy();
    const body = await down.json();
    expect(Object.keys(body).sort()).toEqual(['code', 'details', 'hint', 'message']);
    expect(body.code).toBe('PGRST001');
    await pausable(server).resume();
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
    // (its mails to a throwaway outbox: never the repository's .data)
    const server = await startServer({ db, port: 0, mail: { outboxDir: mkdtempSync(join(tmpdir(), 'exp-outbox-')) } });
    cleanups.push(() => server.close());
    const early = await fetch(`${server.url}/rest/v1/listings?select=id&limit=1`);
    expect(early.status).toBe(503);
    expect((await early.json()).code).toBe('PGRST002');
    await pgServer.resume();
    await server.ready;
    expect((await fetch(`${server.url}/rest/v1/listings?select=id&limit=1`)).status).toBe(200);
  });
});

describe('errors that are not the database', () => {
  it('answers an unexpected error in one request with 500 and keeps serving', async () => {
    const server = await startTestServer('postgres', {
      functions: {
        boom: async () => {
          throw new Error('a bug in one handler');
        },
      },
    });
    try {
      const res = await fetch(`${server.url}/functions/v1/boom`, {
        method: 'POST',
        body: '{}',
        headers: { 'Content-Type': 'application/json' },
      });
      expect(res.status).toBe(500);
      expect(await res.text()).not.toContain('a bug in one handler');
      expect((await fetch(`${server.url}/rest/v1/listings?select=id&limit=1`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('answers 503 when the database is closed under the server, for reads and inquiries alike', async () => {
    const server = await startTestServer('postgres');
    try {
      await server.db.close();
      const read = await fetch(`${server.url}/rest/v1/listings?select=id&limit=1`);
      expect(read.status).toBe(503);
      expect(['PGRST001', 'PGRST002']).toContain((await read.json()).code);
      const inquiry = await fetch(`${server.url}/functions/v1/send-property-inquiry`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Ana', email: 'ana@example.com', idempotencyKey: 'db-closed-1' }),
      });
      expect(inquiry.status).toBe(503);
      expect(await inquiry.json()).toMatchObject({ error: 'unavailable' });
    } finally {
      await server.close().catch(() => {});
    }
  });
});

describe('the data directory', () => {
  it('refuses a second process on the same directory with a clear message', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'exp-lock-'));
    try {
      // a lock held by a live process other than us: our parent (the test runner's) pid stands in
      const { writeFileSync } = await import('node:fs');
      writeFileSync(join(dir, 'server.lock'), `${process.ppid}\n`);
      expect(() => DataDirLock.acquire(dir)).toThrow(/in use by another process .*DATA_DIR/s);
      // a lock left by a process that no longer exists is taken over
      writeFileSync(join(dir, 'server.lock'), '999999999\n');
      const again = DataDirLock.acquire(dir);
      again.release();
      expect(existsSync(join(dir, 'server.lock'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('npm start', () => {
  it('logs one line per request and stops cleanly on SIGTERM, releasing the data directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'exp-start-'));
    // as root, PostgreSQL runs as another user, who must reach the data directory
    chmodSync(dir, 0o755);
    const server = await startServerProcess({ DATA_DIR: dir, SEED_LISTINGS: '300', LOG_REQUESTS: '1' });
    try {
      const res = await fetch(`${server.url}/rest/v1/listings?select=id&limit=2`);
      expect(res.status).toBe(200);
      await server.waitFor(/GET \/rest\/v1\/listings\?select=id&limit=2 200 [\d.]+ms/, 5000);
      expect(existsSync(join(dir, 'server.lock'))).toBe(true);
      expect(await server.stop()).toBe(0);
      expect(server.output()).toContain('SIGTERM: stopping');
      expect(existsSync(join(dir, 'server.lock'))).toBe(false);
    } finally {
      await server.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a port already in use: says so, exits, and leaves no PostgreSQL running behind it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'exp-start-busy-'));
    chmodSync(dir, 0o755);
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '0.0.0.0', () => r()));
    const port = (busy.address() as AddressInfo).port;
    try {
      await expect(startServerProcess({ DATA_DIR: dir, SEED_LISTINGS: '100' }, { port })).rejects.toThrow(/EADDRINUSE/);
      expect(existsSync(join(dir, 'postgres', 'postmaster.pid'))).toBe(false);
      expect(existsSync(join(dir, 'server.lock'))).toBe(false);
    } finally {
      busy.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs on the embedded PostgreSQL by default: seeded on first start, kept across restarts, stopped with the server', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'exp-start-pg-'));
    chmodSync(dir, 0o755);
    let server = await startServerProcess({ DATA_DIR: dir, SEED_LISTINGS: '300' });
    try {
      expect(server.output()).toMatch(/PostgreSQL 1\d at postgres:\/\//);
      const first = await fetch(`${server.url}/rest/v1/listings?select=id`, {
        headers: { Prefer: 'count=exact', Range: '0-0' },
      });
      const total = first.headers.get('content-range');
      expect(total).toMatch(/\/\d+$/);
      expect(await server.stop()).toBe(0);
      expect(existsSync(join(dir, 'postgres', 'postmaster.pid'))).toBe(false);
      server = await startServerProcess({ DATA_DIR: dir, SEED_LISTINGS: '300' });
      expect(server.output()).not.toContain('seeded');
      const again = await fetch(`${server.url}/rest/v1/listings?select=id`, {
        headers: { Prefer: 'count=exact', Range: '0-0' },
      });
      expect(again.headers.get('content-range')).toBe(total);
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
