/**
 * Load and abuse benchmark (docs/architecture.md "Deadlines and fair shares"), over PostgreSQL at
 * BENCH_LISTINGS (100,000) listings: `npm start`'s server in a process of its own behind one
 * trusted proxy (TRUST_PROXY=1, as behind a CDN), 16 visitors in a second process
 * (bench/abuse-clients.ts: pages, searches with words, clusters, suggestions, inquiries), first
 * alone, then while an attacker in a third process sends the slowest requests it can find at full
 * speed on 8 connections. Measured: the visitors' latency per kind and overall (p50, p95), their
 * statuses (nothing but the attacker's requests may answer 5xx), the attacker's statuses, and the
 * server's resident memory (sampled every 250 ms). Targets: the visitors' p95 under attack within
 * 2x of their p95 alone, no 5xx for them, the server's memory bounded.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { listingPath } from '../core/routes.ts';
import { freePort, startPostgres } from '../tests/support/postgres.ts';
import { benchDatabase } from './database.ts';
import { runScript } from './script-process.ts';

const root = resolve(import.meta.dirname, '..');
const LISTINGS = Number(process.env.BENCH_LISTINGS ?? 100_000);
const SECONDS = Number(process.env.BENCH_ABUSE_SECONDS ?? 30);
const VISITORS = 16;
const ATTACK_CONNECTIONS = 8;

interface KindResult {
  n: number;
  p50: number;
  p95: number;
  statuses: Record<string, number>;
}

interface ClientsResult {
  requests: number;
  requestsPerSecond: number;
  all: { p50: number; p95: number; n: number };
  kinds: Record<string, KindResult>;
}

function clients(
  url: string,
  role: 'visitors' | 'attacker',
  seconds: number,
  concurrency: number,
  pages: string[],
): Promise<ClientsResult> {
  return runScript<ClientsResult>('bench/abuse-clients.ts', [
    url,
    role,
    String(seconds),
    String(concurrency),
    pages.join('|'),
  ]);
}

/** The server's resident memory, sampled until stopped: the largest value, in MB. */
function memorySampler(pid: number): { stop(): number } {
  let max = 0;
  const timer = setInterval(() => {
    try {
      const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
      max = Math.max(max, kb / 1024);
    } catch {
      // gone
    }
  }, 250);
  return {
    stop() {
      clearInterval(timer);
      return Math.round(max);
    },
  };
}

async function startServer(env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), SKIP_BUILD: '1', BUNDLE_PORT: 'off', LOG_REQUESTS: '0' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + 180_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/rest/v1/listings?select=id&limit=1`)).status === 200) return { url, child };
    } catch {
      // not up yet
    }
    if (Date.now() > until || child.exitCode !== null) throw new Error('the server did not start');
    await new Promise((r) => setTimeout(r, 250));
  }
}

const fiveXX = (r: ClientsResult, kinds?: string[]) =>
  Object.entries(r.kinds)
    .filter(([k]) => !kinds || kinds.includes(k))
    .reduce(
      (n, [, k]) =>
        n +
        Object.entries(k.statuses)
          .filter(([s]) => Number(s) >= 500 || Number(s) === 0)
          .reduce((a, [, c]) => a + c, 0),
      0,
    );

function markdown(r: {
  listings: number;
  seconds: number;
  alone: ClientsResult;
  attacked: ClientsResult;
  attacker: ClientsResult;
  memory: { aloneMB: number; attackedMB: number };
  ratio: number;
  date: string;
}): string {
  const kinds = [...new Set([...Object.keys(r.alone.kinds), ...Object.keys(r.attacked.kinds)])];
  const lines = [
    `### Load and abuse (${r.listings.toLocaleString('en-US')} listings, ${VISITORS} visitors for ${r.seconds} s, alone and beside an attacker on ${ATTACK_CONNECTIONS} connections; ${r.date.slice(0, 10)})`,
    '',
    'Each visitor an address of its own (pages, searches with words, the map, the location box, inquiries); the attacker one address sending the slowest requests it can find, as fast as it is answered (bench/abuse.ts).',
    '',
    "| visitors' requests | alone p50 / p95 | beside the attacker p50 / p95 | 5xx alone / attacked |",
    '|---|---|---|---|',
    ...kinds.map((k) => {
      const a = r.alone.kinds[k];
      const b = r.attacked.kinds[k];
      return `| ${k} | ${a ? `${a.p50.toFixed(1)} / ${a.p95.toFixed(1)} ms` : '–'} | ${b ? `${b.p50.toFixed(1)} / ${b.p95.toFixed(1)} ms` : '–'} | ${fiveXX(r.alone, [k])} / ${fiveXX(r.attacked, [k])} |`;
    }),
    `| **all** (${r.alone.requestsPerSecond} / ${r.attacked.requestsPerSecond} requests/s) | **${r.alone.all.p50.toFixed(1)} / ${r.alone.all.p95.toFixed(1)} ms** | **${r.attacked.all.p50.toFixed(1)} / ${r.attacked.all.p95.toFixed(1)} ms** | ${fiveXX(r.alone)} / ${fiveXX(r.attacked)} |`,
    '',
    `The attacker: ${r.attacker.requests} requests (${r.attacker.requestsPerSecond}/s), answered ${Object.entries(
      Object.values(r.attacker.kinds).reduce<Record<string, number>>((acc, k) => {
        for (const [s, n] of Object.entries(k.statuses)) acc[s] = (acc[s] ?? 0) + n;
        return acc;
      }, {}),
    )
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([s, n]) => `${n} × ${s}`)
      .join(', ')}.`,
    `The server's memory: at most ${r.memory.aloneMB} MB alone, ${r.memory.attackedMB} MB under attack.`,
    '',
    `Targets: the visitors' p95 beside the attacker within 2x of alone (this run: ${r.ratio.toFixed(2)}x), no 5xx for them (${fiveXX(r.attacked)}), memory bounded.`,
  ];
  return lines.join('\n');
}

export async function benchAbuse(): Promise<Record<string, unknown>> {
  const postgres = await startPostgres();
  const dir = mkdtempSync(join(tmpdir(), 'exp-abuse-'));
  chmodSync(dir, 0o755);
  try {
    const db = await benchDatabase(postgres.url, LISTINGS, 'abuse');
    const rows = await db.jobs.query<{ id: string; title: string }>(
      "select id::text as id, title from internal.listings where status = '1' and country_code = 'EC' order by random() limit 400",
    );
    const ids = rows.map((r, i) => listingPath(r.id, r.title, i % 2 ? 'es' : 'en'));
    await db.close();
    const server = await startServer({
      DATABASE_URL: postgres.url,
      TRUST_PROXY: '1',
      DATA_DIR: dir,
      ALERTS_INTERVAL: '0',
    });
    try {
      console.log('[bench:abuse] warming up...');
      await clients(server.url, 'visitors', 5, VISITORS, ids);
      console.log(`[bench:abuse] ${VISITORS} visitors alone for ${SECONDS} s...`);
      let memory = memorySampler(server.child.pid ?? 0);
      const alone = await clients(server.url, 'visitors', SECONDS, VISITORS, ids);
      const aloneMB = memory.stop();
      console.log(`[bench:abuse] the same beside an attacker on ${ATTACK_CONNECTIONS} connections...`);
      memory = memorySampler(server.child.pid ?? 0);
      const [attacked, attacker] = await Promise.all([
        clients(server.url, 'visitors', SECONDS, VISITORS, ids),
        clients(server.url, 'attacker', SECONDS, ATTACK_CONNECTIONS, ids),
      ]);
      const attackedMB = memory.stop();
      const ratio = attacked.all.p95 / alone.all.p95;
      const result = {
        listings: LISTINGS,
        seconds: SECONDS,
        alone,
        attacked,
        attacker,
        memory: { aloneMB, attackedMB },
        ratio,
        date: new Date().toISOString(),
      };
      console.log(
        `[bench:abuse] visitors' p95 ${alone.all.p95.toFixed(1)} ms alone, ${attacked.all.p95.toFixed(1)} ms attacked (${ratio.toFixed(2)}x); visitors' 5xx ${fiveXX(attacked)}; memory ${aloneMB} / ${attackedMB} MB`,
      );
      return {
        ...result,
        targets: { p95WithinTwice: ratio <= 2, noVisitor5xx: fiveXX(attacked) === 0 },
        markdown: markdown(result),
      };
    } finally {
      server.child.kill('SIGTERM');
      await new Promise((r) => server.child.once('exit', r));
    }
  } finally {
    await postgres.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
