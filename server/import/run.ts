/**
 * One import run (docs/import.md, "A run"): a source's feed read into records, each mapped
 * (mapping.ts) and staged, or quarantined with its reasons; then, only if the whole feed was read,
 * the staged listings merged in one transaction (internal.import_merge: new, updated, unchanged,
 * withdrawn, or withdrawals held back), the photos of new and changed listings fetched and made,
 * and the report kept (internal.import_runs) and returned. A run that fails at any point before
 * the merge changes nothing; a feed that gives nothing changes nothing.
 */
import { readFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import type { Database } from '../db/database.ts';
import { isProjectRecord, isProjectsCsv, mapProject, projectRecordsOfCsv, type ImportedProject } from './projects.ts';
import { storeProjects, unitLinks, type ProjectsReport } from './project-store.ts';
import { parseHostRule, safeFetch, type HostRule } from '../http/safe-fetch.ts';
import { csvRecords, FeedError, kyeroRecords, resoJsonRecords } from './feeds.ts';
import { mapRecord, type FeedRecord, type ImportedListing, type MappingDefaults } from './mapping.ts';
import type { PhotoStore } from './photos.ts';
import { makeListingPhotos, type PhotosReport } from './listing-photos.ts';
import { readAhead, resoKeys, resoListings, resoOpenHouses, type ResoOptions } from './reso-client.ts';
import { mapOpenHouses, storeOpenHouses, type OpenHouseReport } from './open-houses.ts';
import { finish, touchSource } from './run-record.ts';

export type SourceKind = 'reso' | 'reso-json' | 'csv' | 'kyero';
export const SOURCE_KINDS: readonly SourceKind[] = ['reso', 'reso-json', 'csv', 'kyero'];

export interface ImportSource {
  /** the source's name: its listings are (name, key); default `<kind>:<host or file name>` */
  name: string;
  kind: SourceKind;
  /** a URL (reso, kyero) or a file (reso-json, csv, kyero) */
  location: string;
  token?: string | undefined;
  defaults: MappingDefaults;
  /** withdrawals beyond this share of the source's active listings (and more than 5) are held back */
  maxWithdrawShare: number;
  /** hosts the photos may come from, beyond the feed's own (an allow-list; private addresses only when named) */
  photoHosts: readonly string[];
  pageSize?: number;
  /** RESO: navigation properties asked beside Media ($expand) */
  expand?: readonly string[];
}

export interface RunOptions {
  /** a RESO source: read every listing and list every key (else: changes since the high-water mark) */
  full?: boolean;
  /** apply withdrawals even beyond the share */
  allowWithdrawals?: boolean;
  /** fetch and make photos (default true) */
  photos?: boolean;
  log?: (line: string) => void;
  /** tests: the RESO client's waits */
  resoTiming?: { backoffMs?: number; sleep?: (ms: number) => Promise<void> };
  /** tests: the resolver behind the safe fetcher */
  resolve?: Parameters<typeof safeFetch>[1]['resolve'];
  /** where the files a source names are found (default the current directory) */
  cwd?: string;
}

export interface ImportReport {
  run: number;
  source: string;
  kind: SourceKind;
  mode: 'full' | 'incremental';
  outcome: 'done' | 'held' | 'empty' | 'failed';
  message: string | null;
  read: number;
  new: number;
  updated: number;
  unchanged: number;
  withdrawn: number;
  /** withdrawals held back: how many the run would have made */
  held: number;
  quarantined: Array<{ key: string; reasons: string[] }>;
  quarantinedCount: number;
  /** values we do not know, kept as they came: "status "Foo"" -> how many records */
  unknownValues: Record<string, number>;
  unknownAgents: string[];
  photos: PhotosReport;
  /** the source's open houses after the run (null: the feed says nothing of them, or they could not be read) */
  openHouses: (OpenHouseReport & { unknownListings: number; error?: string }) | null;
  /** the new developments it had (docs/import.md "New developments") */
  projects: ProjectsReport;
  durationMs: number;
}

/** The RESO incremental run reads from the high-water mark minus this (late commits at the source). */
const OVERLAP_MS = 5 * 60_000;
const STAGE_BATCH = 1000;
const REPORT_LIST = 200;

/** The feed's own host, for the safe fetcher: named by the operator, so a private address is allowed. */
function hostRuleOf(url: string): HostRule[] {
  const u = new URL(url);
  const rule = parseHostRule(`${u.protocol}//${u.host}`);
  return rule ? [rule] : [];
}

/** How a RESO source is asked (its service, token and host), with the run's test hooks. */
function resoOptions(source: ImportSource, options: RunOptions, log: (line: string) => void): ResoOptions {
  return {
    service: source.location,
    token: source.token,
    allow: hostRuleOf(source.location),
    pageSize: source.pageSize ?? 200,
    expand: source.expand ?? [],
    log,
    ...(options.resoTiming ?? {}),
    ...(options.resolve ? { resolve: options.resolve } : {}),
  };
}

function photoRules(source: ImportSource): HostRule[] {
  return source.photoHosts.map((h) => parseHostRule(h)).filter((r): r is HostRule => Boolean(r));
}

export function defaultSourceName(kind: SourceKind, location: string): string {
  try {
    if (/^https?:\/\//.test(location)) return `${kind}:${new URL(location).host}`;
  } catch {
    // a file
  }
  return `${kind}:${location.split(/[\\/]/).pop() ?? location}`;
}

/** The records of a document source (a file, or a Kyero URL): the whole feed. */
async function documentRecords(source: ImportSource, options: RunOptions): Promise<FeedRecord[]> {
  let text: string;
  if (/^https?:\/\//.test(source.location)) {
    const fetched = await safeFetch(source.location, {
      allow: hostRuleOf(source.location),
      maxBytes: 256 * 1024 * 1024,
      totalTimeoutMs: 300_000,
      listName: "source's host",
      headers: {
        Accept: 'application/xml, text/xml, application/json, text/csv;q=0.9, */*;q=0.1',
        'User-Agent': 'exp-ecuador-import/1',
      },
      ...(options.resolve ? { resolve: options.resolve } : {}),
    }).catch((error: Error) => {
      throw new FeedError(error.message);
    });
    text = fetched.body.toString('utf8');
  } else {
    const file = isAbsolute(source.location) ? source.location : resolve(options.cwd ?? process.cwd(), source.location);
    text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      throw new FeedError(`${file}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
    });
  }
  if (source.kind === 'csv') {
    const rows = csvRecords(text);
    // the projects' template: one row a unit type (server/import/projects.ts)
    return isProjectsCsv(rows) ? projectRecordsOfCsv(rows) : rows;
  }
  if (source.kind === 'kyero') return kyeroRecords(text);
  return resoJsonRecords(text);
}

export async function runImport(
  db: Database,
  source: ImportSource,
  options: RunOptions = {},
  store: PhotoStore | null = null,
): Promise<ImportReport> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  const whole = source.kind !== 'reso' || Boolean(options.full);
  const [{ high_water: highWater } = { high_water: null }] = await db.jobs.query<{ high_water: string | null }>(
    'select high_water from internal.import_sources where name = $1',
    [source.name],
  );
  const mode: 'full' | 'incremental' = source.kind === 'reso' && !options.full && highWater ? 'incremental' : 'full';
  const [{ id: run } = { id: 0 }] = await db.jobs.query<{ id: number }>(
    'insert into internal.import_runs (source, kind, mode) values ($1, $2, $3) returning id',
    [source.name, source.kind, mode],
  );
  const report: ImportReport = {
    run: Number(run),
    source: source.name,
    kind: source.kind,
    mode,
    outcome: 'done',
    message: null,
    read: 0,
    new: 0,
    updated: 0,
    unchanged: 0,
    withdrawn: 0,
    held: 0,
    quarantined: [],
    quarantinedCount: 0,
    unknownValues: {},
    unknownAgents: [],
    photos: { fetched: 0, reused: 0, failed: 0, errors: [] },
    openHouses: null,
    projects: {
      read: 0,
      new: 0,
      updated: 0,
      withdrawn: 0,
      held: 0,
      quarantined: [],
      units: { linked: 0, unlinked: 0, unmatched: [] },
    },
    durationMs: 0,
  };
  // open houses expanded in the listings' records (a document feed, an $expand): the feed speaks of them when one has the field
  const expanded: FeedRecord[] = [];
  // the new developments the feed has (server/import/projects.ts), and the keys of those it refused
  const projects: ImportedProject[] = [];
  const refusedProjects: string[] = [];
  // the listings that are a project's units (ExpProjectKey, BuilderModel), and those that were and no longer say so
  const units = await unitLinks(db, source.name);
  let speaksOfOpenHouses = false;
  let staged = 0;
  let newestChange: number | null = null;
  const stage = async (records: ImportedListing[]) => {
    // a key twice in one page: the later record is the listing (one row per key in a statement)
    const listings = [...new Map(records.map((l) => [l.source_key, l])).values()];
    for (let i = 0; i < listings.length; i += STAGE_BATCH) {
      const batch = listings.slice(i, i + STAGE_BATCH);
      // one parameter, a JSON array: the statement's size does not grow with the batch
      await db.jobs.query(
        `insert into internal.import_staging (run_id, source_key, listing)
         select $1, e->>'source_key', e from jsonb_array_elements($2::jsonb) e
         on conflict (run_id, source_key) do update set listing = excluded.listing`,
        [run, JSON.stringify(batch)],
      );
      staged += batch.length;
    }
  };
  const seen = async (keys: string[]) => {
    for (let i = 0; i < keys.length; i += 5000) {
      await db.jobs.query(
        'insert into internal.import_seen (run_id, source_key) select $1, k from unnest($2::text[]) k on conflict do nothing',
        [run, keys.slice(i, i + 5000)],
      );
    }
  };
  const take = async (records: FeedRecord[]) => {
    const good: ImportedListing[] = [];
    const quarantinedKeys: string[] = [];
    for (const record of records) {
      report.read++;
      if (Array.isArray(record.OpenHouse)) {
        speaksOfOpenHouses = true;
        for (const o of record.OpenHouse as FeedRecord[])
          if (o && typeof o === 'object') expanded.push({ ListingKey: record.ListingKey, ...o });
      }
      if (isProjectRecord(record)) {
        const project = mapProject(record, source.defaults.language);
        if (project.ok) projects.push(project.project);
        else {
          if (project.key) refusedProjects.push(project.key);
          report.projects.quarantined.push({ key: project.key, reasons: project.reasons });
        }
        report.projects.read++;
        continue;
      }
      const mapped = mapRecord(record, source.defaults);
      if (mapped.ok) {
        // what a listing keeps as it came (a quarantined record keeps nothing)
        for (const note of mapped.notes) report.unknownValues[note] = (report.unknownValues[note] ?? 0) + 1;
        good.push(mapped.listing);
        units.note(record, mapped.listing.source_key);
        const t = mapped.listing.source_modified_at ? Date.parse(mapped.listing.source_modified_at) : NaN;
        if (Number.isFinite(t) && (newestChange === null || t > newestChange)) newestChange = t;
      } else {
        report.quarantinedCount++;
        if (report.quarantined.length < REPORT_LIST)
          report.quarantined.push({ key: mapped.key, reasons: mapped.reasons });
        // still in the feed: a listing whose record went wrong is not withdrawn for it
        if (mapped.key) quarantinedKeys.push(mapped.key);
      }
    }
    await stage(good);
    await seen(quarantinedKeys);
  };

  try {
    if (source.kind === 'reso') {
      const reso = resoOptions(source, options, log);
      const since = mode === 'incremental' && highWater ? new Date(Date.parse(highWater) - OVERLAP_MS) : null;
      log(
        `${source.name}: ${mode === 'incremental' ? `listings changed since ${since?.toISOString()}` : 'every listing'}...`,
      );
      for await (const page of readAhead(resoListings(reso, since))) await take(page);
      if (whole) {
        log(`${source.name}: every key the service lists...`);
        for await (const keys of readAhead(resoKeys(reso))) await seen(keys);
      }
    } else {
      log(`${source.name}: reading ${source.location}...`);
      await take(await documentRecords(source, options));
    }
  } catch (error) {
    return finish(
      db,
      report,
      started,
      'failed',
      `${error instanceof FeedError ? error.message : `unexpected: ${(error as Error).message}`}: nothing was changed or withdrawn`,
    );
  }

  if (report.read === 0) {
    const message =
      mode === 'incremental'
        ? 'no listing changed since the last run'
        : 'the feed had no listings: nothing was changed or withdrawn';
    await db.jobs.query('delete from internal.import_seen where run_id = $1', [run]);
    if (mode === 'incremental') {
      await touchSource(db, source, false, null);
      // no listing changed, but an open house may have
      await importOpenHouses(db, source, report, [], false, options, log);
    }
    return finish(db, report, started, mode === 'incremental' ? 'done' : 'empty', message);
  }

  // whole feeds take off the market what they no longer have (RESO: only a full run lists every key)
  log(`${source.name}: merging ${staged} listings...`);
  const merged = await db.transaction(
    async (q) => {
      const [row] = await q.query<{ r: Record<string, unknown> }>(
        'select internal.import_merge($1, $2, $3, $4, $5) as r',
        [run, source.name, whole, source.maxWithdrawShare, Boolean(options.allowWithdrawals)],
      );
      return (row?.r ?? {}) as {
        new: number;
        updated: number;
        unchanged: number;
        withdrawn: number;
        withdrawals_held: boolean;
        would_withdraw: number;
        active_before: number;
        unknown_agents: string[];
      };
    },
    { long: true },
  );
  Object.assign(report, {
    new: merged.new,
    updated: merged.updated,
    unchanged: merged.unchanged,
    withdrawn: merged.withdrawn,
    unknownAgents: merged.unknown_agents.slice(0, REPORT_LIST),
  });
  let outcome: ImportReport['outcome'] = 'done';
  let message: string | null = null;
  if (merged.withdrawals_held) {
    outcome = 'held';
    report.held = merged.would_withdraw;
    message = `${merged.would_withdraw} of the source's ${merged.active_before} active listings would have left the market, more than ${Math.round(source.maxWithdrawShare * 100)}%: none was withdrawn (a broken or partial feed?). If they did leave, run again with --allow-withdrawals.`;
  }
  if (report.projects.read) {
    const stored = await storeProjects(db, source.name, projects, refusedProjects, {
      whole,
      maxShare: source.maxWithdrawShare,
      allowWithdrawals: Boolean(options.allowWithdrawals),
    });
    Object.assign(report.projects, stored);
    if (stored.held) {
      outcome = 'held';
      message = [
        message,
        `${stored.held} of the source's new developments would have been withdrawn: none was (run again with --allow-withdrawals if they left).`,
      ]
        .filter(Boolean)
        .join(' ');
    }
    log(
      `${source.name}: ${report.projects.read} new developments read, ${stored.new} new, ${stored.updated} updated, ${stored.withdrawn} withdrawn, ${report.projects.quarantined.length} refused`,
    );
  }
  // after the projects: a unit names its type, which this run may have written
  report.projects.units = await units.link(log);
  await touchSource(db, source, whole && source.kind === 'reso', newestChange);
  log(
    `${source.name}: ${staged} listings read, ${report.new} new, ${report.updated} updated, ${report.withdrawn} withdrawn`,
  );

  await importOpenHouses(db, source, report, expanded, speaksOfOpenHouses, options, log);
  if (options.photos !== false && store) {
    const allow = [...photoRules(source), ...(/^https?:\/\//.test(source.location) ? hostRuleOf(source.location) : [])];
    await makeListingPhotos(db, source.name, allow, report.photos, store, options.resolve, log);
    // the new developments' photos, made as the listings' (docs/import.md "New developments")
    if (report.projects.read) {
      await makeListingPhotos(db, source.name, allow, report.photos, store, options.resolve, log, 'internal.projects');
      await makeListingPhotos(
        db,
        source.name,
        allow,
        report.photos,
        store,
        options.resolve,
        log,
        'internal.project_unit_types',
      );
    }
  }
  return finish(db, report, started, outcome, message);
}

/**
 * The source's open houses (docs/import.md "Open houses"): a RESO service's OpenHouse resource, read
 * whole (what is still to come); a document feed's, when its records carry them. A service without
 * the resource, or one that fails, leaves the open houses as they were and says so in the report:
 * the listings' run stands.
 */
async function importOpenHouses(
  db: Database,
  source: ImportSource,
  report: ImportReport,
  expanded: FeedRecord[],
  speaks: boolean,
  options: RunOptions,
  log: (line: string) => void,
): Promise<void> {
  let records = expanded;
  if (source.kind === 'reso') {
    records = [];
    try {
      for await (const page of resoOpenHouses(resoOptions(source, options, log))) records.push(...page);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      log(`${source.name}: open houses not read (${why}); those we had stay`);
      report.openHouses = { kept: 0, removed: 0, skipped: {}, unknownListings: 0, error: why };
      return;
    }
  } else if (!speaks) return;
  const { openHouses, skipped } = mapOpenHouses(records);
  const stored = await storeOpenHouses(db, source.name, openHouses);
  report.openHouses = { kept: stored.kept, removed: stored.removed, skipped, unknownListings: stored.unknownListings };
  log(
    `${source.name}: ${stored.kept} open houses to come (${stored.removed} gone, ${Object.values(skipped).reduce((a, b) => a + b, 0)} left out)`,
  );
}
