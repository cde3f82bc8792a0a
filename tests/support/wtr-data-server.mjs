// A web-test-runner plugin: starts the real data server (npm start's code, its embedded PostgreSQL, seeded)
// beside the test server, and tells the tests where it is through /__env.js.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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

export function dataServer() {
  let child;
  let url;
  let dir;
  return {
    name: 'exp-data-server',
    async serverStart() {
      const port = await freePort();
      dir = mkdtempSync(join(tmpdir(), 'exp-wtr-'));
      // as root, PostgreSQL runs as another user, who must reach the data directory
      chmodSync(dir, 0o755);
      url = `http://127.0.0.1:${port}`;
      child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
        env: { ...process.env, PORT: String(port), DATA_DIR: dir, SKIP_BUILD: '1', LOG_REQUESTS: '0' },
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
    },
  };
}
