/**
 * Imports inside the running server (docs/import.md, "While npm start runs"): PGlite lets one
 * process open its data directory, so `npm run import` hands its run to the server that holds it,
 * and the server runs the sources of its schedule (IMPORT_SOURCES). One run at a time.
 *
 * The command finds the server through `<DATA_DIR>/import.json` (its address and a token made at
 * random at each start, readable by the directory's owner only) and POSTs the source to
 * /admin/import; the server answers with the run's progress, a JSON line each, the report last.
 * The endpoint takes only connections from this machine that carry the token.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { Database } from '../db/database.ts';
import { readBody } from '../http/body.ts';
import type { PhotoStore } from './photos.ts';
import { runImport, type ImportReport, type RunOptions } from './run.ts';
import { sourceFrom, SourceError, type ScheduledSource, type SourceSettings } from './sources.ts';

export interface ImportServiceOptions {
  db: Database;
  store: PhotoStore;
  /** where import.json is written (the data directory) */
  dataDir?: string | undefined;
  schedule?: ScheduledSource[];
  log: (line: string) => void;
}

export interface ImportService {
  /** /admin/import */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** another command handed over the same way (`npm run webhooks`): a JSON body in, the work's JSON answer out */
  command(req: IncomingMessage, res: ServerResponse, work: (body: Record<string, unknown>) => Promise<unknown>): Promise<void>;
  /** writes import.json (the server's address) and starts the schedule */
  start(url: string): void;
  stop(): Promise<void>;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

export function createImportService(options: ImportServiceOptions): ImportService {
  const token = randomBytes(32).toString('base64url');
  const file = options.dataDir ? join(options.dataDir, 'import.json') : undefined;
  let running: Promise<unknown> | null = null;
  const timers: NodeJS.Timeout[] = [];
  let stopped = false;

  /** one run at a time: a second waits for the first */
  const serial = async <T>(fn: () => Promise<T>): Promise<T> => {
    while (running) await running.catch(() => {});
    const p = fn();
    running = p;
    try {
      return await p;
    } finally {
      running = null;
    }
  };

  const scheduled = (s: ScheduledSource) => {
    let lastFull = 0;
    const tick = async () => {
      if (stopped) return;
      const full = s.source.kind === 'reso' && Date.now() - lastFull >= s.fullEveryHours * 3_600_000;
      try {
        const report = await serial(() => runImport(options.db, s.source, { full, log: (l) => options.log(`[import] ${l}`) }, options.store));
        if (full && report.outcome !== 'failed') lastFull = Date.now();
        options.log(`[import] ${summary(report)}`);
      } catch (error) {
        options.log(`[import] ${s.source.name}: ${(error as Error).message}`);
      }
    };
    timers.push(setTimeout(() => void tick(), 5_000));
    timers.push(setInterval(() => void tick(), s.everyMinutes * 60_000));
  };

  /** Only a connection from this machine with the token, by POST. */
  const allowed = (req: IncomingMessage, res: ServerResponse, refusal: string): boolean => {
    const given = Buffer.from(String(req.headers.authorization ?? '').replace(/^Bearer\s+/i, ''));
    const expected = Buffer.from(token);
    const local = LOOPBACK.test(req.socket.remoteAddress ?? '');
    if (!local || given.length !== expected.length || !timingSafeEqual(given, expected)) {
      res.writeHead(403, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: refusal }));
      return false;
    }
    return true;
  };

  return {
    start(url) {
      if (file) {
        writeFileSync(file, JSON.stringify({ url, token, pid: process.pid }), { mode: 0o600 });
        chmodSync(file, 0o600);
      }
      for (const s of options.schedule ?? []) scheduled(s);
      if (options.schedule?.length) options.log(`[import] ${options.schedule.length} scheduled source(s): ${options.schedule.map((s) => `${s.source.name} every ${s.everyMinutes} min`).join(', ')}`);
    },
    async stop() {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      if (file) rmSync(file, { force: true });
      await running?.catch(() => {});
    },
    async command(req, res, work) {
      if (!allowed(req, res, 'this command is run by `npm run webhooks` on this machine')) return;
      if (req.method !== 'POST') {
        res.writeHead(405, { Allow: 'POST', 'Content-Type': 'application/json' }).end(JSON.stringify({ error: 'POST a command' }));
        return;
      }
      const body = await readBody(req, 64 * 1024);
      let parsed: unknown;
      try {
        parsed = JSON.parse(body === 'too-large' ? '' : body.toString('utf8'));
      } catch {
        parsed = null;
      }
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
        res.writeHead(400, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: 'the command is not a JSON object' }));
        return;
      }
      let result: unknown;
      try {
        result = await work(parsed as Record<string, unknown>);
      } catch (error) {
        res.writeHead(400, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: (error as Error).message }));
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }).end(JSON.stringify({ result }));
    },
    async handle(req, res) {
      if (!allowed(req, res, 'imports are started by `npm run import` on this machine')) return;
      if (req.method !== 'POST') {
        res.writeHead(405, { Allow: 'POST', 'Content-Type': 'application/json' }).end(JSON.stringify({ error: 'POST a source' }));
        return;
      }
      const body = await readBody(req, 64 * 1024);
      let job: SourceSettings & { full?: boolean; allowWithdrawals?: boolean; photos?: boolean; cwd?: string };
      try {
        job = JSON.parse(body === 'too-large' ? '' : body.toString('utf8')) as typeof job;
      } catch {
        res.writeHead(400, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: 'the job is not JSON' }));
        return;
      }
      let source;
      try {
        source = sourceFrom(job);
      } catch (error) {
        res.writeHead(400, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: error instanceof SourceError ? error.message : String(error) }));
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/x-ndjson', 'Cache-Control': 'no-store' });
      const line = (o: unknown) => res.write(`${JSON.stringify(o)}\n`);
      const run: RunOptions = { full: Boolean(job.full), allowWithdrawals: Boolean(job.allowWithdrawals), photos: job.photos !== false, log: (l) => line({ log: l }), ...(job.cwd ? { cwd: job.cwd } : {}) };
      if (running) line({ log: 'another import is running: this one waits for it' });
      try {
        const report = await serial(() => runImport(options.db, source, run, options.store));
        options.log(`[import] ${summary(report)}`);
        line({ report });
      } catch (error) {
        line({ error: (error as Error).message });
      }
      res.end();
    },
  };
}

/** One line of a run's outcome. */
export function summary(r: ImportReport): string {
  const counts = `${r.new} new, ${r.updated} updated, ${r.withdrawn} withdrawn, ${r.unchanged} unchanged, ${r.quarantinedCount} quarantined, ${r.photos.fetched} photos fetched`;
  return `${r.source} (${r.mode}, run ${r.run}): ${r.outcome}: ${counts}${r.message ? `: ${r.message}` : ''} in ${(r.durationMs / 1000).toFixed(1)} s`;
}
