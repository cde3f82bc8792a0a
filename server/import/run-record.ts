/**
 * What a run writes of itself (docs/import.md "A run"): the source's marks (its kind, place, high-water
 * mark and last runs) and, at its end, the run's outcome and report in internal.import_runs.
 */
import type { Database } from '../db/database.ts';
import type { ImportReport, ImportSource } from './run.ts';

export async function touchSource(
  db: Database,
  source: ImportSource,
  full: boolean,
  newestChange: number | null,
): Promise<void> {
  await db.jobs.query(
    `insert into internal.import_sources (name, kind, location, high_water, last_full_at, last_run_at)
     values ($1, $2, $3, $4, case when $5 then internal.now() end, internal.now())
     on conflict (name) do update set kind = excluded.kind, location = excluded.location,
       high_water = greatest(internal.import_sources.high_water, excluded.high_water),
       last_full_at = coalesce(excluded.last_full_at, internal.import_sources.last_full_at), last_run_at = internal.now()`,
    [
      source.name,
      source.kind,
      source.location,
      newestChange === null ? null : new Date(newestChange).toISOString(),
      full,
    ],
  );
}

export async function finish(
  db: Database,
  report: ImportReport,
  started: number,
  outcome: ImportReport['outcome'],
  message: string | null,
): Promise<ImportReport> {
  report.outcome = outcome;
  report.message = message;
  report.durationMs = Date.now() - started;
  if (outcome === 'failed')
    await db.jobs.query('delete from internal.import_staging where run_id = $1', [report.run]).catch(() => {});
  if (outcome === 'failed')
    await db.jobs.query('delete from internal.import_seen where run_id = $1', [report.run]).catch(() => {});
  await db.jobs.query(
    `update internal.import_runs set finished_at = internal.now(), outcome = $2, new = $3, updated = $4, unchanged = $5, withdrawn = $6,
       quarantined = $7, photos_fetched = $8, photos_failed = $9, message = $10, report = $11 where id = $1`,
    [
      report.run,
      outcome,
      report.new,
      report.updated,
      report.unchanged,
      report.withdrawn,
      report.quarantinedCount,
      report.photos.fetched,
      report.photos.failed,
      message,
      JSON.stringify(report),
    ],
  );
  return report;
}
