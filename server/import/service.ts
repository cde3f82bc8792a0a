/**
 * Imports on a schedule (IMPORT_SOURCES), shared by every server on one database (docs/import.md,
 * "On a schedule, on several servers"). Each source is a job of `internal.job_schedule` (when it
 * is next due, when it last ran fully) and has a named lock (Database.withLock): every server looks
 * at each of its sources now and then, and the one that takes the lock runs the source if it is
 * due, then moves its due time on. So a source runs once per period across the servers, never
 * twice at once; `npm run import` takes the same lock. A server killed mid-run lets go of the lock
 * with its connection and leaves the due time where it was: the next server to look runs the
 * source again (a run's changes are one transaction: the killed run left none).
 */
import type { Database } from '../db/database.ts';
import type { PhotoStore } from './photos.ts';
import { runImport, type ImportReport } from './run.ts';
import type { ScheduledSource } from './sources.ts';

export interface ImportServiceOptions {
  db: Database;
  store: PhotoStore;
  schedule?: ScheduledSource[];
  /** who this server is in the schedule's table */
  runner?: string;
  log: (line: string) => void;
}

export interface ImportService {
  /** starts looking at the schedule (once the database is ready) */
  start(): void;
  /** stops looking; a run on its way is left to end where it stands */
  stop(): Promise<void>;
}

const lockName = (source: string) => `import:${source}`;

/**
 * Runs `fn` as the one run of a source: at once when no other run of it is on its way (in this
 * process or any other on the database), else after it (telling `onWait`).
 */
export async function runLocked<T>(
  db: Database,
  source: string,
  options: { onWait?: () => void },
  fn: () => Promise<T>,
): Promise<T> {
  const first = await db.withLock(lockName(source), async () => ({ value: await fn() }), { wait: false });
  if (first) return first.value;
  options.onWait?.();
  const later = await db.withLock(lockName(source), async () => ({ value: await fn() }), { wait: true });
  return (later as { value: T }).value;
}

/** How often a server looks at a source: a quarter of its period, from 1 to 15 seconds. */
const lookEveryMs = (s: ScheduledSource) => Math.min(15_000, Math.max(1000, (s.everyMinutes * 60_000) / 4));

export function createImportService(options: ImportServiceOptions): ImportService {
  const { db, log } = options;
  const runner = options.runner ?? `pid ${process.pid}`;
  const timers: NodeJS.Timeout[] = [];
  const runs = new Set<Promise<unknown>>();
  let stopped = false;

  /** Runs the source if it is due and this server holds its lock; false when not due or another holds it. */
  const lookAt = async (s: ScheduledSource): Promise<void> => {
    const name = s.source.name;
    await db.withLock(
      lockName(name),
      async () => {
        const [job] = await db.jobs.query<{ due: boolean; full_due: boolean }>(
          `with made as (insert into internal.job_schedule (job) values ($1) on conflict (job) do nothing returning due_at, last_full_at)
           select due_at <= internal.now() as due, last_full_at is null or last_full_at <= internal.now() - make_interval(hours => $2) as full_due from made
           union all
           select due_at <= internal.now(), last_full_at is null or last_full_at <= internal.now() - make_interval(hours => $2) from internal.job_schedule where job = $1 and not exists (select from made)`,
          [name, s.fullEveryHours],
        );
        if (!job?.due || stopped) return;
        const full = s.source.kind === 'reso' && job.full_due;
        await db.jobs.query(
          'update internal.job_schedule set last_started_at = internal.now(), last_runner = $2 where job = $1',
          [name, runner],
        );
        let report: ImportReport | undefined;
        try {
          report = await runImport(db, s.source, { full, log: (l) => log(`[import] ${l}`) }, options.store);
          log(`[import] ${summary(report)}`);
        } finally {
          // the next run is due a period after this one started, whatever this one's outcome
          await db.jobs.query(
            `update internal.job_schedule
                set due_at = last_started_at + make_interval(secs => $2), last_finished_at = internal.now(),
                    last_full_at = case when $3 then internal.now() else last_full_at end
              where job = $1`,
            [name, s.everyMinutes * 60, full && report !== undefined && report.outcome !== 'failed'],
          );
        }
      },
      { wait: false },
    );
  };

  const watch = (s: ScheduledSource) => {
    let lastProblem = '';
    let busy = false;
    const tick = () => {
      if (stopped || busy) return;
      busy = true;
      const run = lookAt(s)
        .then(
          () => {
            lastProblem = '';
          },
          (error: unknown) => {
            const problem = (error as Error).message;
            // one line per kind of trouble, not one per look during an outage
            if (problem !== lastProblem) log(`[import] ${s.source.name}: ${problem}`);
            lastProblem = problem;
          },
        )
        .finally(() => {
          busy = false;
          runs.delete(run);
        });
      runs.add(run);
    };
    // servers started together look at slightly different moments
    timers.push(setTimeout(tick, 1000 + Math.random() * 1000));
    timers.push(setInterval(tick, lookEveryMs(s) * (0.9 + Math.random() * 0.2)));
  };

  return {
    start() {
      if (stopped) return;
      for (const s of options.schedule ?? []) watch(s);
      if (options.schedule?.length)
        log(
          `[import] ${options.schedule.length} scheduled source(s): ${options.schedule.map((s) => `${s.source.name} every ${s.everyMinutes} min`).join(', ')}`,
        );
    },
    async stop() {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      // a run on its way is not waited for: its lock and its uncommitted work go with the
      // database's connections when the server stops (the next run does it again)
      await Promise.race([
        Promise.allSettled([...runs]),
        new Promise((r) => setTimeout(() => r(undefined), 1000).unref()),
      ]);
    },
  };
}

/** One line of a run's outcome. */
export function summary(r: ImportReport): string {
  const counts = `${r.new} new, ${r.updated} updated, ${r.withdrawn} withdrawn, ${r.unchanged} unchanged, ${r.quarantinedCount} quarantined, ${r.photos.fetched} photos fetched`;
  return `${r.source} (${r.mode}, run ${r.run}): ${r.outcome}: ${counts}${r.message ? `: ${r.message}` : ''} in ${(r.durationMs / 1000).toFixed(1)} s`;
}
