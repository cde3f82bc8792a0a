/**
 * npm run import -- <kind> <feed> [options]      one run (docs/import.md)
 * npm run import -- runs [--source NAME] [--last N]   the reports of the last runs
 * npm run import -- nearby <file.geojson> [--name NAME] [--allow-withdrawals]
 *                                                  the places of interest of "What is near"
 *
 *   kind: reso <service-url> | reso-json <file> | csv <file> | kyero <file-or-url>
 *   --token T             the RESO service's bearer token (or env:NAME)
 *   --name NAME           the source's name (default <kind>:<host or file name>)
 *   --full                RESO: read every listing and list every key (listings that left the feed leave)
 *   --allow-withdrawals   apply withdrawals even beyond the share (after a run said it held them)
 *   --max-withdraw P      the share of a source's listings a run may withdraw (default 10%)
 *   --no-photos           leave the photos for a later run
 *   --photo-hosts a,b     hosts the photos may come from (default any public host)
 *   --language es|en      the language of titles composed for listings that do not tell (default es)
 *   --area-unit sqft|m2   LivingArea's unit when the feed does not say (default: sqft for RESO, m2 else)
 *   --expand a,b          RESO: ask each listing's PropertyUnitTypes and/or OpenHouse beside its Media
 *
 * The database is the one `npm start` uses: DATABASE_URL, else the embedded PostgreSQL in DATA_DIR
 * (the running server's, or started for the command). A source is imported by one run at a time
 * across the command and every server's schedule (its lock, service.ts): a run that finds another
 * on its way waits for it. Exit code: 0 done, 1 failed, 3 withdrawals held back, 2 bad usage.
 */
import { readFile, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { NEARBY_LIMITS, readNearbyGeoJson, storeNearby, type NearbyReport } from './nearby.ts';
import { openForCommand, UsageError } from '../db/open-for-command.ts';
import { migrate } from '../db/setup.ts';
import { localPhotoStore, type PhotoStore } from './photos.ts';
import { supabasePhotoStore } from './storage.ts';
import { readPhotoStorage } from '../config.ts';
import { envReader } from '../../core/functions/env.ts';
import { runImport, SOURCE_KINDS, type ImportReport } from './run.ts';
import { runLocked, summary } from './service.ts';
import { importCommand, type ImportCommand } from './command.ts';

const root = resolve(import.meta.dirname, '../..');
const dataDir = resolve(root, process.env.DATA_DIR ?? '.data');
// npm runs scripts in the package's folder; a file is named from where the command was typed
const cwd = process.env.INIT_CWD ?? process.cwd();

function usage(message: string): never {
  console.error(
    `[import] ${message}\nusage: npm run import -- <${SOURCE_KINDS.join('|')}> <feed> [--token T] [--name NAME] [--full] [--allow-withdrawals] [--no-photos] ...\n       npm run import -- runs [--source NAME] [--last N]\n       npm run import -- nearby <file.geojson> [--name NAME] [--allow-withdrawals]\n(docs/import.md)`,
  );
  process.exit(2);
}

function print(report: ImportReport): void {
  console.log(`[import] ${summary(report)}`);
  if (report.quarantinedCount) {
    console.log(`[import] quarantined (${report.quarantinedCount}):`);
    for (const q of report.quarantined.slice(0, 20)) console.log(`  ${q.key || '(no key)'}: ${q.reasons.join('; ')}`);
    if (report.quarantinedCount > 20) console.log(`  ... ${report.quarantinedCount - 20} more in the run's report`);
  }
  const p = report.projects;
  if (p.read) {
    console.log(
      `[import] new developments: ${p.read} read, ${p.new} new, ${p.updated} updated, ${p.withdrawn} withdrawn${p.held ? `, ${p.held} held back` : ''}`,
    );
    for (const q of p.quarantined.slice(0, 20))
      console.log(`  refused ${q.key || '(no key)'}: ${q.reasons.join('; ')}`);
  }
  if (p.units.linked || p.units.unlinked || p.units.unmatched.length)
    console.log(
      `[import] units of new developments: ${p.units.linked} linked, ${p.units.unlinked} no longer of one${p.units.unmatched.length ? `; naming a project or model the feed does not have: ${p.units.unmatched.slice(0, 10).join(', ')}` : ''}`,
    );
  const unknown = Object.entries(report.unknownValues);
  if (unknown.length)
    console.log(
      `[import] values kept as they came (not ours to know): ${unknown.map(([k, n]) => `${k} × ${n}`).join(', ')}`,
    );
  if (report.unknownAgents.length)
    console.log(
      `[import] agents not ours (inquiries go to the team): ${report.unknownAgents.slice(0, 10).join(', ')}${report.unknownAgents.length > 10 ? ', ...' : ''}`,
    );
  if (report.photos.failed)
    console.log(
      `[import] photos not made (${report.photos.failed}): ${report.photos.errors
        .slice(0, 5)
        .map((e) => `${e.url}: ${e.error}`)
        .join('; ')}`,
    );
}

async function showRuns(values: Map<string, string>): Promise<void> {
  const opened = await openForCommand(dataDir);
  try {
    const last = Number(values.get('--last') ?? 10);
    const rows = await opened.db.admin.query<{ report: ImportReport; started_at: string }>(
      'select report, started_at from internal.import_runs where ($1::text is null or source = $1) and finished_at is not null order by id desc limit $2',
      [values.get('--source') ?? null, Number.isInteger(last) && last > 0 ? last : 10],
    );
    if (!rows.length) console.log('[import] no runs yet');
    for (const r of rows.reverse()) {
      console.log(`\n${new Date(r.started_at).toISOString()}`);
      print(r.report);
    }
  } finally {
    await opened.close();
  }
}

/** Where the photos go: Supabase Storage when SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY are set, else DATA_DIR/photos. */
function photoStore(): PhotoStore {
  const read = envReader((name) => process.env[name]);
  const storage = readPhotoStorage(read);
  read.done();
  return storage ? supabasePhotoStore(storage) : localPhotoStore(resolve(dataDir, 'photos'));
}

/** The places of interest of a GeoJSON file (docs/import.md "What is near"): exit 0 stored, 3 held back, 1 failed. */
async function importNearbyFile({
  location,
  file,
  values,
  flags,
}: Extract<ImportCommand, { kind: 'nearby' }>): Promise<void> {
  const source = values.get('--name') ?? `nearby:${basename(file)}`;
  // its size before it is read: a file too large is never held in memory
  if ((await stat(file)).size > NEARBY_LIMITS.bytes)
    throw new Error(`${location}: the file is larger than ${NEARBY_LIMITS.bytes / 1024 / 1024} MB`);
  const read = readNearbyGeoJson(await readFile(file, 'utf8'), source);
  const opened = await openForCommand(dataDir);
  let report: NearbyReport;
  try {
    await migrate(opened.db);
    report = await storeNearby(opened.db, source, read, { allowWithdrawals: flags.has('--allow-withdrawals') });
  } finally {
    await opened.close();
  }
  console.log(
    `[import] ${source}: ${report.read} read, ${report.stored} stored, ${report.removed} taken away, ${report.passedOver} of no kind shown, ${report.refused.length} refused`,
  );
  for (const r of report.refused.slice(0, 20)) console.log(`  refused ${r.key}: ${r.reason}`);
  if (report.held) console.log(`[import] nothing changed: ${report.held}`);
  process.exitCode = report.held ? 3 : 0;
}

async function main(): Promise<void> {
  let command: ImportCommand;
  try {
    command = importCommand(process.argv.slice(2), cwd, process.env);
  } catch (error) {
    if (error instanceof UsageError) usage(error.message);
    throw error;
  }
  if (command.kind === 'runs') return showRuns(command.values);
  if (command.kind === 'nearby') return importNearbyFile(command);
  const { source, run } = command;
  const store = photoStore();
  const opened = await openForCommand(dataDir);
  let report: ImportReport;
  try {
    await migrate(opened.db);
    const log = (l: string) => console.log(`[import] ${l}`);
    report = await runLocked(
      opened.db,
      source.name,
      {
        onWait: () =>
          log(
            `another run of ${source.name} is on its way (a server's schedule, or another command): this one waits for it`,
          ),
      },
      () => runImport(opened.db, source, { ...run, cwd, log }, store),
    );
  } finally {
    await opened.close();
  }
  print(report);
  process.exitCode = report.outcome === 'failed' ? 1 : report.outcome === 'held' ? 3 : 0;
}

main().catch((error: unknown) => {
  console.error(`[import] ${(error as Error).message}`);
  process.exitCode = 1;
});
