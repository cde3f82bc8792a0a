/**
 * Imports (docs/import.md) as the suites of tests/contract/import-*.test.ts run them: our real
 * server over PostgreSQL with a real SMTP server for the alerts, stand-ins of the servers an import
 * talks to (feed-stand-ins.ts: a RESO Web API whose feed holds twenty listings of one place,
 * Pueblo Importado, and a photo host), a directory for the files the tests write, and the importer
 * run against them with its waits and its log kept.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { now as clockNow } from '../../core/clock.ts';
import { listingPath } from '../../core/routes.ts';
import { runImport, type ImportReport, type RunOptions } from '../../server/import/run.ts';
import { sourceFrom, type SourceSettings } from '../../server/import/sources.ts';
import { startPhotoHost, startResoStandIn, type PhotoHost, type ResoStandIn } from './feed-stand-ins.ts';
import { clientHeaders, startTestServer, type TestServer } from './servers.ts';
import { startSmtp, type ReceivedMail, type TestSmtp } from './smtp.ts';
import { stopAll } from './stop-all.ts';
import { until } from './until.ts';

const SITE = 'https://expecuador.example';
export const HOUR = 3_600_000;

// every listing changed at a different hour in the past; the test moves them on
const start = clockNow() - 200 * HOUR;
export const at = (i: number) => new Date(start + i * HOUR).toISOString();

/** The servers of one suite and the importer run against them; `start` makes them, `stop` ends them. */
export function importer() {
  let server: TestServer;
  let smtp: TestSmtp;
  let reso: ResoStandIn;
  let photos: PhotoHost;
  let agentEmail = '';
  const waits: number[] = [];
  const logs: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'exp-import-'));

  const record = (i: number, over: Record<string, unknown> = {}) => ({
    ListingKey: `RX-${i}`,
    ListingId: `MLS-${1000 + i}`,
    StandardStatus: 'Active',
    ListPrice: 150_000 + i * 1000,
    BedroomsTotal: 3,
    BathroomsTotalInteger: 2,
    LivingArea: 1500,
    LivingAreaUnits: 'Square Feet',
    PropertyType: 'Residential',
    PropertySubType: i % 3 ? 'Single Family Residence' : 'Condominium',
    Latitude: -0.2 - i * 0.001,
    Longitude: -78.43,
    UnparsedAddress: `Calle de Prueba ${i}`,
    City: 'Pueblo Importado',
    SubdivisionName: 'Sector Feed',
    StateOrProvince: 'Pichincha',
    Country: 'EC',
    PublicRemarks: 'Casa con jardín en el valle, cerca del parque.',
    ListAgentEmail: agentEmail,
    ModificationTimestamp: at(i),
    // four listings have photos; the others none (the photos are made once each)
    Media: i <= 4 ? [{ MediaKey: `m-${i}`, MediaURL: photos.photo(i), Order: 1, MediaCategory: 'Photo' }] : [],
    ...over,
  });

  const resoSource = (over: Partial<SourceSettings> = {}) =>
    sourceFrom({
      kind: 'reso',
      location: reso.url,
      token: reso.token,
      name: 'reso:test',
      photoHosts: [photos.origin],
      pageSize: 8,
      ...over,
    });
  const run = (source: ReturnType<typeof sourceFrom>, options: RunOptions = {}): Promise<ImportReport> =>
    // the stand-in's faults count its calls from this run's first
    (reso.reset(), runImport)(
      server.db,
      source,
      {
        resoTiming: { backoffMs: 1, sleep: async (ms) => void waits.push(ms) },
        log: (l) => void logs.push(l),
        cwd: dir,
        ...options,
      },
      server.photos,
    );
  const row = async (key: string, source = 'reso:test') =>
    (
      await server.sql<{
        id: string;
        status: string;
        price: number;
        title: string;
        images: Array<{ url: string }>;
        square_feet: number;
        property_type: string;
        agent_id: string | null;
        description: string | null;
        listing_ref: string;
      }>(
        'select id::text as id, status, price::float8 as price, title, images, square_feet::float8 as square_feet, property_type, agent_id::text as agent_id, description, listing_ref from internal.listings where source = $1 and source_key = $2',
        [source, key],
      )
    )[0];
  const publicCount = async (source = 'reso:test') =>
    Number(
      (
        await server.sql<{ n: string }>(
          "select count(*) as n from internal.listings where source = $1 and status = '1' and country_code = 'EC'",
          [source],
        )
      )[0]?.n,
    );
  const page = async (key: string) => {
    const r = await row(key);
    const res = await fetch(`${server.url}${listingPath(String(r?.id), r?.title, 'en')}`, { redirect: 'manual' });
    return { status: res.status, html: await res.text(), id: r?.id };
  };
  /** An instant alert for the imported place, asked for from `ip` and confirmed by its mail's link. */
  const confirmedAlert = async (email: string, ip: string) => {
    const sub = await fetch(`${server.url}/functions/v1/saved-searches`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...clientHeaders(ip) },
      body: JSON.stringify({
        action: 'subscribe',
        email,
        filters: { city: 'Pueblo Importado' },
        frequency: 'instant',
        lang: 'en',
      }),
    });
    expect(sub.status).toBe(200);
    const confirm: ReceivedMail = await until(() => smtp.mails.find((m) => m.envelopeTo.includes(email)));
    const token = /\/alerts\/confirm\?token=([A-Za-z0-9_-]{43})/.exec(confirm.text)?.[1];
    expect((await fetch(`${server.url}/alerts/confirm?token=${token}`, { method: 'POST' })).status).toBe(200);
  };

  /** The SMTP server, our server on `kind`, the RESO stand-in with its twenty listings and the photo host. */
  const startAll = async (kind: 'postgres') => {
    smtp = await startSmtp();
    server = await startTestServer(kind, {
      trustProxy: { hops: 1 },
      photosDir: join(dir, 'photos'),
      mail: {
        smtpUrl: smtp.url,
        intervalMs: 200,
        probeMs: 200,
        siteUrl: SITE,
        baseDelaySeconds: 0.2,
        maxDelaySeconds: 1,
      },
      alerts: { intervalSeconds: 0, settleSeconds: 0, teamInbox: 'equipo@expecuador.example' },
    });
    reso = await startResoStandIn();
    photos = await startPhotoHost({ width: 640, height: 427 });
    agentEmail = String(
      (
        await server.sql<{ email: string }>(
          "select email from public.agents where country_code = 'EC' order by id limit 1",
        )
      )[0]?.email,
    );
    for (let i = 1; i <= 20; i++) reso.listings.set(`RX-${i}`, record(i));
    return { server, smtp, reso, photos };
  };
  const stop = async () => {
    try {
      await stopAll(reso, photos, server, smtp);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  return { start: startAll, stop, dir, waits, logs, record, resoSource, run, row, publicCount, page, confirmedAlert };
}
