// A web-test-runner plugin: starts the real data server (npm start's code, its embedded PostgreSQL, seeded)
// beside the test server, and tells the tests where it is through /__env.js.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** A copy of the shared seeded template (the names tests/support/postgres.ts SHARED_ENV gives), when the run made one. */
async function seededCopy() {
  const server = process.env.EXP_TEST_POSTGRES_URL;
  const template = process.env.EXP_TEST_TEMPLATE_SEEDED;
  if (!server || !template) return undefined;
  const name = `exp_wtr_${process.pid}`;
  const admin = async (sql) => {
    const client = new pg.Client({ connectionString: server });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name} template ${template}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

export function dataServer() {
  let child;
  let url;
  let dir;
  let copy;
  return {
    name: 'exp-data-server',
    async serverStart() {
      const port = await freePort();
      dir = mkdtempSync(join(tmpdir(), 'exp-wtr-'));
      // as root, PostgreSQL runs as another user, who must reach the data directory
      chmodSync(dir, 0o755);
      url = `http://127.0.0.1:${port}`;
      // npm test made the seeded template already (tests/support/shared-postgres.ts): a copy of it,
      // instead of a PostgreSQL of its own migrated and seeded again
      copy = await seededCopy();
      child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
        env: {
          ...process.env,
          PORT: String(port),
          DATA_DIR: dir,
          SKIP_BUILD: '1',
          LOG_REQUESTS: '0',
          ...(copy ? { DATABASE_URL: copy.url } : {}),
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      await new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`data server did not start:\n${out}`)), 120_000);
        child.stdout.on('data', (d) => {
          out += d.toString();
          if (out.includes('data API ready')) {
            clearTimeout(timer);
            resolve();
          }
        });
        child.once('exit', (code) => reject(new Error(`data server exited ${code}:\n${out}`)));
      });
    },
    serve(context) {
      if (context.path === '/__env.js') return { body: `export const API_URL = ${JSON.stringify(url)};`, type: 'js' };
      return undefined;
    },
    async serverStop() {
      if (child && child.exitCode === null) {
        const done = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await done;
      }
      if (dir) rmSync(dir, { recursive: true, force: true });
      await copy?.drop();
    },
  };
}
