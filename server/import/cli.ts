/**
 * npm run import -- <kind> <feed> [options]      one run (docs/import.md)
 * npm run import -- runs [--source NAME] [--last N]   the reports of the last runs
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
 *   --postgres            the embedded PostgreSQL of `npm start -- --postgres`
 *
 * The database is the one `npm start` uses: DATABASE_URL, else with --postgres the embedded
 * PostgreSQL in DATA_DIR, else the PGlite in DATA_DIR. When `npm start` holds that PGlite, the run
 * is handed to it (service.ts). Exit code: 0 done, 1 failed, 3 withdrawals held back, 2 bad usage.
 */
import { isAbsolute, resolve } from 'node:path';
import { holdingServer, openForCommand } from '../db/open-for-command.ts';
import { migrate } from '../db/setup.ts';
import { localPhotoStore, type PhotoStore } from './photos.ts';
import { supabasePhotoStore } from './storage.ts';
import { readPhotoStorage } from '../config.ts';
import { envReader } from '../../core/functions/env.ts';
import { runImport, SOURCE_KINDS, type ImportReport } from './run.ts';
import { summary } from './service.ts';
import { sourceFrom, SourceError, type SourceSettings } from './sources.ts';

const root = resolve(import.meta.dirname, '../..');
const dataDir = resolve(root, process.env.DATA_DIR ?? '.data');
// npm runs scripts in the package's folder; a file is named from where the command was typed
const cwd = process.env.INIT_CWD ?? process.cwd();

const FLAGS = new Set(['--full', '--allow-withdrawals', '--no-photos', '--postgres']);
const VALUES = new Set(['--token', '--name', '--max-withdraw', '--photo-hosts', '--language', '--area-unit', '--source', '--last']);

function usage(message: string): never {
  console.error(`[import] ${message}\nusage: npm run import -- <${SOURCE_KINDS.join('|')}> <feed> [--token T] [--name NAME] [--full] [--allow-withdrawals] [--no-photos] ...\n       npm run import -- runs [--source NAME] [--last N]\n(docs/import.md)`);
  process.exit(2);
}

function parseArgs(argv: string[]): { positional: string[]; flags: Set<string>; values: Map<string, string> } {
  const positional: string[] = [];
  const flags = new Set<string>();
  const values = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (FLAGS.has(a)) flags.add(a);
    else if (VALUES.has(a)) {
      const v = argv[++i];
      if (v === undefined) usage(`${a} needs a value`);
      values.set(a, v);
    } else if (a.startsWith('--')) usage(`unknown option ${a}`);
    else positional.push(a);
  }
  return { positional, flags, values };
}

const openDatabase = (usePostgres: boolean) => openForCommand(dataDir, usePostgres);

function print(report: ImportReport): void {
  console.log(`[import] ${summary(report)}`);
  if (report.quarantinedCount) {
    console.log(`[import] quarantined (${report.quarantinedCount}):`);
    for (const q of report.quarantined.slice(0, 20)) console.log(`  ${q.key || '(no key)'}: ${q.reasons.join('; ')}`);
    if (report.quarantinedCount > 20) console.log(`  ... ${report.quarantinedCount - 20} more in the run's report`);
  }
  const unknown = Object.entries(report.unknownValues);
  if (unknown.length) console.log(`[import] values kept as they came (not ours to know): ${unknown.map(([k, n]) => `${k} × ${n}`).join(', ')}`);
  if (report.unknownAgents.length) console.log(`[import] agents not ours (inquiries go to the team): ${report.unknownAgents.slice(0, 10).join(', ')}${report.unknownAgents.length > 10 ? ', ...' : ''}`);
  if (report.photos.failed) console.log(`[import] photos not made (${report.photos.failed}): ${report.photos.errors.slice(0, 5).map((e) => `${e.url}: ${e.error}`).join('; ')}`);
}

/** The run handed to the `npm start` that holds the data directory. */
async function handOver(job: SourceSettings & Record<string, unknown>): Promise<ImportReport | null> {
  const { url, token } = holdingServer(dataDir);
  console.log(`[import] npm start holds ${dataDir}: the run is handed to it (${url})`);
  const res = await fetch(`${url}/admin/import`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(job) });
  if (!res.ok || !res.body) throw new Error(`the server refused the run: ${res.status} ${await res.text()}`);
  let report: ImportReport | null = null;
  let buffered = '';
  const decoder = new TextDecoder();
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = JSON.parse(buffered.slice(0, nl)) as { log?: string; report?: ImportReport; error?: string };
      buffered = buffered.slice(nl + 1);
      if (line.log) console.log(`[import] ${line.log}`);
      if (line.error) throw new Error(line.error);
      if (line.report) report = line.report;
    }
  }
  return report;
}

async function showRuns(values: Map<string, string>, usePostgres: boolean): Promise<void> {
  const opened = await openDatabase(usePostgres);
  if (opened === 'held') usage(`${dataDir} is in use by npm start: read the runs with DATABASE_URL, or stop it`);
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

async function main(): Promise<void> {
  const { positional, flags, values } = parseArgs(process.argv.slice(2));
  const [kind, location] = positional;
  if (kind === 'runs') return showRuns(values, flags.has('--postgres'));
  if (!kind) usage('which feed?');
  if (positional.length > 2) usage(`one feed at a time (got ${positional.slice(1).join(' ')})`);
  const settings: SourceSettings = {
    kind,
    location: location && !/^https?:\/\//.test(location) && !isAbsolute(location) ? resolve(cwd, location) : (location ?? ''),
    name: values.get('--name'),
    token: values.get('--token'),
    language: values.get('--language'),
    areaUnit: values.get('--area-unit'),
    maxWithdraw: values.get('--max-withdraw')?.replace(/%$/, ''),
    photoHosts: values.get('--photo-hosts'),
  };
  let source;
  try {
    source = sourceFrom(settings);
  } catch (error) {
    if (error instanceof SourceError) usage(error.message);
    throw error;
  }
  const run = { full: flags.has('--full'), allowWithdrawals: flags.has('--allow-withdrawals'), photos: !flags.has('--no-photos') };
  const store = photoStore();
  const opened = await openDatabase(flags.has('--postgres'));
  let report: ImportReport | null;
  if (opened === 'held') report = await handOver({ ...settings, ...run });
  else {
    try {
      await migrate(opened.db);
      report = await runImport(opened.db, source, { ...run, cwd, log: (l) => console.log(`[import] ${l}`) }, store);
    } finally {
      await opened.close();
    }
  }
  if (!report) throw new Error('the run ended without a report');
  print(report);
  process.exitCode = report.outcome === 'failed' ? 1 : report.outcome === 'held' ? 3 : 0;
}

main().catch((error: unknown) => {
  console.error(`[import] ${(error as Error).message}`);
  process.exitCode = 1;
});
