/**
 * A source as the command line and the schedule name it (docs/import.md): its kind and address,
 * and the settings a run needs, each checked with a clear message. The schedule's file
 * (IMPORT_SOURCES) lists sources as JSON; a token is written there as `env:NAME`, read from the
 * environment, so no secret sits in a file.
 */
import { readFileSync } from 'node:fs';
import { isLang, type Lang } from '../../core/lang.ts';
import { parseHostRule } from '../http/safe-fetch.ts';
import { defaultSourceName, SOURCE_KINDS, type ImportSource, type SourceKind } from './run.ts';

export class SourceError extends Error {}

export interface SourceSettings {
  kind: string;
  location: string;
  name?: string | undefined;
  token?: string | undefined;
  language?: string | undefined;
  areaUnit?: string | undefined;
  /** a share (0.1) or a percentage (10) */
  maxWithdraw?: number | string | undefined;
  photoHosts?: string[] | string | undefined;
  pageSize?: number | string | undefined;
  /** RESO: what the service is asked to expand beside Media (PropertyUnitTypes, OpenHouse) */
  expand?: string[] | string | undefined;
}

/** What a RESO source may ask the service to expand in a listing beside its Media (docs/import.md "RESO Web API"). */
const RESO_EXPANDS = ['PropertyUnitTypes', 'OpenHouse'] as const;

/** A source from its settings, or a SourceError that says what is wrong. */
export function sourceFrom(s: SourceSettings, env: NodeJS.ProcessEnv = process.env): ImportSource {
  if (!SOURCE_KINDS.includes(s.kind as SourceKind))
    throw new SourceError(`unknown kind "${s.kind}": one of ${SOURCE_KINDS.join(', ')}`);
  const kind = s.kind as SourceKind;
  const location = (s.location ?? '').trim();
  if (!location)
    throw new SourceError(
      `${kind}: where is the feed? (a ${kind === 'reso' ? 'service URL' : kind === 'kyero' ? 'file or URL' : 'file'})`,
    );
  if (kind === 'reso' && !/^https?:\/\//.test(location))
    throw new SourceError(`reso: "${location}" is not a service URL (https://.../odata)`);
  if ((kind === 'csv' || kind === 'reso-json') && /^https?:\/\//.test(location))
    throw new SourceError(`${kind}: a file, not a URL (download it first, or use a reso or kyero source)`);
  if (/^https?:\/\//.test(location)) {
    try {
      new URL(location);
    } catch {
      throw new SourceError(`"${location}" is not a URL`);
    }
  }
  let token = s.token;
  if (token?.startsWith('env:')) {
    token = env[token.slice(4)];
    if (!token) throw new SourceError(`the token's variable ${s.token?.slice(4)} is not set`);
  }
  const language = s.language ?? 'es';
  if (!isLang(language)) throw new SourceError(`language "${language}": es or en`);
  const unit = (s.areaUnit ?? (kind === 'reso' || kind === 'reso-json' ? 'sqft' : 'm2')).toLowerCase();
  const areaUnit = /^(sqft|square ?feet|ft2)$/.test(unit)
    ? 'Square Feet'
    : /^(m2|sqm|square ?met(er|re)s)$/.test(unit)
      ? 'Square Meters'
      : null;
  if (!areaUnit) throw new SourceError(`area unit "${s.areaUnit}": sqft or m2`);
  let share = s.maxWithdraw === undefined ? 0.1 : Number(s.maxWithdraw);
  if (share > 1) share /= 100;
  if (!Number.isFinite(share) || share < 0 || share > 1)
    throw new SourceError(`max-withdraw "${s.maxWithdraw}": a share from 0 to 1, or a percentage`);
  const hosts = (
    Array.isArray(s.photoHosts) ? s.photoHosts : typeof s.photoHosts === 'string' ? s.photoHosts.split(',') : ['*']
  )
    .map((h) => h.trim())
    .filter(Boolean);
  for (const h of hosts)
    if (!parseHostRule(h))
      throw new SourceError(
        `photo host "${h}" is not a host ("photos.example.com", "*.example.com", "https://cdn.example.com:8443" or "*")`,
      );
  const pageSize = s.pageSize === undefined ? undefined : Number(s.pageSize);
  if (pageSize !== undefined && (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 5000))
    throw new SourceError(`page size "${s.pageSize}": 1 to 5000`);
  const expand = (Array.isArray(s.expand) ? s.expand : typeof s.expand === 'string' ? s.expand.split(',') : [])
    .map((e) => e.trim())
    .filter(Boolean);
  for (const e of expand)
    if (!RESO_EXPANDS.includes(e as (typeof RESO_EXPANDS)[number]))
      throw new SourceError(`expand "${e}": ${RESO_EXPANDS.join(' or ')}`);
  if (expand.length && kind !== 'reso')
    throw new SourceError(`${kind}: expand is a RESO Web API's (a document has what it has)`);
  return {
    name: s.name?.trim() || defaultSourceName(kind, location),
    kind,
    location,
    token,
    defaults: { language: language as Lang, areaUnit },
    maxWithdrawShare: share,
    photoHosts: hosts,
    ...(pageSize ? { pageSize } : {}),
    ...(expand.length ? { expand } : {}),
  };
}

export interface ScheduledSource {
  source: ImportSource;
  /** an incremental run (RESO) or a whole run (the others) every this many minutes */
  everyMinutes: number;
  /** RESO: a full run (every key) every this many hours */
  fullEveryHours: number;
}

/** The schedule's file: `[{ "kind": "reso", "location": "...", "token": "env:RESO_TOKEN", "everyMinutes": 15, ... }]`. */
export function readSchedule(file: string, env: NodeJS.ProcessEnv = process.env): ScheduledSource[] {
  let list: unknown;
  try {
    list = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new SourceError(
      `IMPORT_SOURCES ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : `not JSON (${(error as Error).message})`}`,
    );
  }
  if (!Array.isArray(list)) throw new SourceError(`IMPORT_SOURCES ${file}: a JSON array of sources`);
  const scheduled = list.map((item, i) => {
    const o = (item ?? {}) as SourceSettings & { everyMinutes?: unknown; fullEveryHours?: unknown };
    let source: ImportSource;
    try {
      source = sourceFrom(o, env);
    } catch (error) {
      throw new SourceError(`IMPORT_SOURCES ${file}, source ${i + 1}: ${(error as Error).message}`);
    }
    const every = Number(o.everyMinutes ?? 60);
    const full = Number(o.fullEveryHours ?? 24);
    if (!(every >= 0.1 && every <= 10_080))
      throw new SourceError(`IMPORT_SOURCES ${file}, source ${i + 1}: everyMinutes from 0.1 (6 seconds) to 10080`);
    if (!(full >= 1 && full <= 720))
      throw new SourceError(`IMPORT_SOURCES ${file}, source ${i + 1}: fullEveryHours from 1 to 720`);
    return { source, everyMinutes: every, fullEveryHours: full };
  });
  // a source's name is its job and its lock across the servers (service.ts): one entry each
  const names = scheduled.map((s) => s.source.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice)
    throw new SourceError(`IMPORT_SOURCES ${file}: two sources are called "${twice}" (give each its own "name")`);
  return scheduled;
}
