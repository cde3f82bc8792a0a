/**
 * Starts a throwaway PostgreSQL server for tests and benchmarks: initdb into a temp directory,
 * listening on 127.0.0.1 on a free port, trust auth, fsync off (commits stay synchronous: VACUUM
 * cannot mark pages all-visible behind an asynchronous commit, and index-only scans need that). As root (CI), the server runs as
 * the `postgres` system user, which Debian's package creates.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PostgresServer {
  url: string;
  port: number;
  dir: string;
  stop(): Promise<void>;
  /**
   * stops the server but keeps its data, to test a database that goes away: 'fast' (the default)
   * ends every session with 57P01, 'immediate' drops them without a word (a crash)
   */
  pause(mode?: 'fast' | 'immediate'): Promise<void>;
  resume(): Promise<void>;
}

function binDir(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const base = '/usr/lib/postgresql';
  if (existsSync(base)) {
    const versions = readdirSync(base).filter((v) => existsSync(join(base, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return join(base, versions[0], 'bin');
  }
  try {
    return execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error('PostgreSQL is not installed (initdb not found). On Debian: apt-get install postgresql');
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

function run(cmd: string, args: string[]): string {
  return asRoot ? execFileSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { encoding: 'utf8', stdio: 'pipe' }) : execFileSync(cmd, args, { encoding: 'utf8', stdio: 'pipe' });
}

export async function startPostgres(): Promise<PostgresServer> {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'exp-pg-'));
  chmodSync(dir, 0o777);
  if (asRoot) execFileSync('chown', ['postgres', dir]);
  const data = join(dir, 'data');
  run(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C.UTF-8', '--no-sync']);
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    const args = ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'full_page_writes=off', '-c', 'shared_buffers=256MB', '-c', 'max_connections=120'];
    child = asRoot ? spawn('runuser', ['-u', 'postgres', '--', join(bin, 'postgres'), ...args], { stdio: ['ignore', 'ignore', 'pipe'] }) : spawn(join(bin, 'postgres'), args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    child.stderr?.on('data', (d: Buffer) => {
      log += d.toString();
      if (log.length > 20000) log = log.slice(-10000);
    });
    const until = Date.now() + 30_000;
    for (;;) {
      try {
        run(join(bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres']);
        return;
      } catch {
        if (Date.now() > until || child.exitCode !== null) throw new Error(`PostgreSQL did not start:\n${log}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };
  const halt = async (mode: 'fast' | 'immediate' = 'fast') => {
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child?.once('exit', r));
    try {
      run(join(bin, 'pg_ctl'), ['-D', data, '-m', mode, '-w', 'stop']);
    } catch {
      child.kill(mode === 'fast' ? 'SIGINT' : 'SIGQUIT');
    }
    await exited;
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dir,
    async stop() {
      await halt('fast');
      rmSync(dir, { recursive: true, force: true });
    },
    pause: (mode) => halt(mode),
    resume: start,
  };
}
