/**
 * `npm run import` as a person types it (docs/import.md, "The command"): while `npm start` serves
 * its embedded PostgreSQL (the command works on that database, which the site then shows at once),
 * against a PostgreSQL named by DATABASE_URL (a hosted project's way), and the usage errors.
 */
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../../server/db/postgres.ts';
import { importCommand as commandOf } from '../../server/import/command.ts';
import { webhooks } from '../../server/webhooks/command.ts';
import { spawnChild } from '../support/child.ts';
import { migratedDatabase, postgresDatabase, type PostgresDatabase } from '../support/postgres.ts';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { stopAll } from '../support/stop-all.ts';

const root = resolve(import.meta.dirname, '../..');

async function importCommand(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | string | null; out: string }> {
  const c = spawnChild(process.execPath, ['--import', 'tsx', 'server/import/cli.ts', ...args], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: '', ...env },
  });
  await c.exited;
  return { code: c.exitStatus(), out: c.output() };
}

const CSV = `ListingKey,StandardStatus,ListPrice,BedroomsTotal,LivingArea,LivingAreaUnits,PropertySubType,Latitude,Longitude,UnparsedAddress,City,SubdivisionName,StateOrProvince,PublicRemarks
CLI-1,Active,"210,000",3,160,Square Meters,Single Family Residence,-0.205,-78.43,Calle Los Arupos 7,Cumbayá,San Juan CLI,Pichincha,Casa con jardín
CLI-2,Active,0,2,90,Square Meters,Condominium,-0.18,-78.48,Av. Amazonas 1,Quito,Iñaquito,Pichincha,Sin precio
`;

describe('npm run import, as typed', () => {
  const dir = mkdtempSync(join(tmpdir(), 'exp-import-cli-'));
  // as root, PostgreSQL runs as another user, who must reach the data directory
  chmodSync(dir, 0o755);
  const dataDir = join(dir, 'data');
  let server: ServerProcess;
  let pg: PostgresDatabase;

  beforeAll(async () => {
    writeFileSync(join(dir, 'feed.csv'), CSV);
    // a source the server imports on its own, every hour (the first run a few seconds after the start)
    writeFileSync(
      join(dir, 'scheduled.csv'),
      'ListingKey,ListPrice,UnparsedAddress,City\nS-1,175000,Calle Programada 3,Tumbaco\n',
    );
    writeFileSync(
      join(dir, 'sources.json'),
      JSON.stringify([{ kind: 'csv', name: 'scheduled', location: join(dir, 'scheduled.csv'), everyMinutes: 60 }]),
    );
    server = await startServerProcess({
      DATA_DIR: dataDir,
      SEED_LISTINGS: '40',
      ALERTS_INTERVAL: '0',
      IMPORT_SOURCES: join(dir, 'sources.json'),
    });
    await server.waitFor(/data API ready/, 120_000);
    pg = await postgresDatabase('migrated');
  }, 180_000);
  afterAll(() => stopAll(server, pg));

  it('while npm start runs, the command works on its embedded PostgreSQL: its report printed, the listing on the site at once', async () => {
    const { code, out } = await importCommand(['csv', join(dir, 'feed.csv'), '--no-photos'], { DATA_DIR: dataDir });
    expect(out).toMatch(
      /csv:feed\.csv \(full, run \d+\): done: 1 new, 0 updated, 0 withdrawn, 0 unchanged, 1 quarantined/,
    );
    expect(out).toContain('CLI-2: no price');
    expect(code).toBe(0);
    const rows = (await (
      await fetch(`${server.url}/rest/v1/listings?select=id,title,price,sector&address=eq.Calle%20Los%20Arupos%207`)
    ).json()) as Array<{
      title: string;
      price: number;
      sector: string;
    }>;
    expect(rows).toEqual([
      { id: expect.any(Number), title: 'Casa de 3 dormitorios en San Juan CLI', price: 210000, sector: 'San Juan CLI' },
    ]);
    // the sector is a place of the location box, with its count
    const places = (await (
      await fetch(`${server.url}/rest/v1/rpc/place_suggestions`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ q: 'san juan cli' }),
      })
    ).json()) as Array<{ name: string; listings: number }>;
    expect(places).toContainEqual(expect.objectContaining({ name: 'San Juan CLI', listings: 1 }));
    // the server takes no commands over HTTP: nothing to guard, nothing to forge
    const asked = await fetch(`${server.url}/admin/import`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ kind: 'csv', location: '/etc/passwd' }),
    });
    expect(asked.status).toBe(405);
  });

  it('the server runs the sources of its schedule (IMPORT_SOURCES) by itself', async () => {
    await server.waitFor(/\[import\] 1 scheduled source\(s\): scheduled every 60 min/);
    await server.waitFor(/\[import\] scheduled \(full, run \d+\): done: 1 new/, 30_000);
    const rows = (await (
      await fetch(`${server.url}/rest/v1/listings?select=city,price&address=eq.Calle%20Programada%203`)
    ).json()) as unknown[];
    expect(rows).toEqual([{ city: 'Tumbaco', price: 175000 }]);
  });

  it('with DATABASE_URL (a hosted project), the command runs the job itself; again, it changes nothing', async () => {
    const env = { DATABASE_URL: pg.url, DATA_DIR: join(dir, 'pg-data') };
    const first = await importCommand(['csv', join(dir, 'feed.csv'), '--no-photos', '--name', 'crm'], env);
    expect(first.out).toMatch(/crm \(full, run \d+\): done: 1 new/);
    const again = await importCommand(['csv', join(dir, 'feed.csv'), '--no-photos', '--name', 'crm'], env);
    expect(again.out).toMatch(/crm \(full, run \d+\): done: 0 new, 0 updated, 0 withdrawn, 1 unchanged, 1 quarantined/);
    const runs = await importCommand(['runs', '--source', 'crm'], env);
    expect(runs.out.match(/crm \(full, run \d+\): done/g)).toHaveLength(2);
    const db = await openPostgres(pg.url);
    try {
      expect(
        await db.admin.query("select source, source_key, status from internal.listings where source = 'crm'"),
      ).toEqual([{ source: 'crm', source_key: 'CLI-1', status: '1' }]);
    } finally {
      await db.close();
    }
  });

  it('the places of interest of a GeoJSON file, as typed: stored with what it refused, and a file with none of them held (exit 3)', async () => {
    const env = { DATABASE_URL: pg.url, DATA_DIR: join(dir, 'pg-data') };
    const point = (id: string, tags: Record<string, string>, lat: number) => ({
      type: 'Feature',
      id,
      properties: tags,
      geometry: { type: 'Point', coordinates: [-78.48, lat] },
    });
    writeFileSync(
      join(dir, 'quito.geojson'),
      JSON.stringify({
        type: 'FeatureCollection',
        features: [
          point('node/1', { amenity: 'school', name: 'Colegio CLI' }, -0.18),
          point('node/2', { leisure: 'park', name: 'Parque CLI' }, 91),
          point('node/3', { amenity: 'bench' }, -0.18),
        ],
      }),
    );
    writeFileSync(join(dir, 'empty.geojson'), JSON.stringify({ type: 'FeatureCollection', features: [] }));
    const first = await importCommand(['nearby', join(dir, 'quito.geojson')], env);
    expect(first.out).toContain('nearby:quito.geojson: 3 read, 1 stored, 0 taken away, 1 of no kind shown, 1 refused');
    expect(first.out).toContain('refused node/2: a position off the globe (-78.48, 91)');
    expect(first.code).toBe(0);
    const empty = await importCommand(['nearby', join(dir, 'empty.geojson'), '--name', 'nearby:quito.geojson'], env);
    expect(empty.out).toContain('nothing changed: the file has no place of interest');
    expect(empty.code).toBe(3);
    const db = await openPostgres(pg.url);
    try {
      expect(await db.admin.query('select name from public.nearby_places(-0.18, -78.48)')).toEqual([
        { name: 'Colegio CLI' },
      ]);
    } finally {
      await db.close();
    }
    const broken = await importCommand(['nearby', join(dir, 'feed.csv')], env);
    expect(broken.out).toMatch(/\[import\] not JSON/);
    expect(broken.code).toBe(1);
  });

  it('says what is wrong with a command, and exits 2', async () => {
    const cases: Array<[string[], RegExp]> = [
      [[], /which feed\?/],
      [['ftp', 'x'], /unknown kind "ftp"/],
      [['reso', 'listings.json'], /reso: ".*listings.json" is not a service URL/],
      [['csv', 'https://example.com/feed.csv'], /csv: a file, not a URL/],
      [['csv', 'a.csv', '--max-withdraw', '200'], /max-withdraw "200"/],
      [['csv', 'a.csv', '--language', 'fr'], /language "fr": es or en/],
      [['csv', 'a.csv', '--photo-hosts', 'not a host'], /photo host "not a host" is not a host/],
      [['csv', 'a.csv', '--bogus'], /unknown option --bogus/],
      [
        ['reso', 'https://mls.example/odata', '--expand', 'PropertyUnitTypes,Rooms'],
        /expand "Rooms": PropertyUnitTypes or OpenHouse/,
      ],
      [['csv', 'a.csv', '--expand', 'PropertyUnitTypes'], /csv: expand is a RESO Web API's/],
      [
        ['reso', 'https://mls.example/odata', '--token', 'env:NO_SUCH_VARIABLE_X'],
        /the token's variable NO_SUCH_VARIABLE_X is not set/,
      ],
    ];
    // each read as the command reads its words (server/import/command.ts) ...
    for (const [args, message] of cases)
      expect(() => commandOf(args, dir, { ...process.env, NO_SUCH_VARIABLE_X: undefined }), args.join(' ')).toThrow(
        message,
      );
    // ... and what the command does with them, run as a visitor types it: the message and the usage, exit 2
    for (const [args, message] of [cases[0], cases[7], cases[10]] as Array<[string[], RegExp]>) {
      const { code, out } = await importCommand(args, { DATA_DIR: join(dir, 'unused') });
      expect(out, args.join(' ')).toMatch(message);
      expect(out, args.join(' ')).toContain('usage: npm run import');
      expect(code, args.join(' ')).toBe(2);
    }
  });

  it('npm run webhooks, beside npm start too: add prints the secret once, list shows the endpoint, remove ends it; what may not be an endpoint is refused', async () => {
    const env = { DATA_DIR: dataDir };
    // as a person types it (a process of its own on the running server's database)
    const typed = async (args: string[]) => {
      const c = spawnChild(process.execPath, ['--import', 'tsx', 'server/webhooks/cli.ts', ...args], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: '', ...env },
      });
      await c.exited;
      return { code: c.exitStatus(), out: c.output() };
    };
    const added = await typed([
      'add',
      'https://93.184.216.34/hooks/crm',
      '--events',
      'inquiry.created,alert.confirmed',
      '--description',
      'Follow Up Boss',
    ]);
    expect(added.code, added.out).toBe(0);
    const id = /endpoint (\d+): https:\/\/93\.184\.216\.34\/hooks\/crm \(inquiry\.created, alert\.confirmed\)/.exec(
      added.out,
    )?.[1];
    expect(id, added.out).toBeDefined();
    expect(added.out).toMatch(/\nwhsec_[A-Za-z0-9+/]{32}\n/);
    const list = await typed(['list']);
    expect(list.out).toContain(
      `${id}\thttps://93.184.216.34/hooks/crm\tinquiry.created,alert.confirmed\tFollow Up Boss`,
    );
    expect(list.out).not.toContain('whsec_');
    expect((await typed(['remove', String(id)])).out).toContain(`endpoint ${id} removed`);
    // a refusal (1) and bad usage (2), with what is wrong and, for the usage, how it goes
    const refused = await typed(['add', 'http://93.184.216.34/x', '--events', 'inquiry.created']);
    expect([refused.code, refused.out]).toEqual([1, expect.stringMatching(/a webhook endpoint is https/)]);
    const bad = await typed(['rotate']);
    expect([bad.code, bad.out]).toEqual([2, expect.stringMatching(/unknown command rotate\nusage: npm run webhooks/)]);

    // the rest through the function the command runs, in this process, on a database of its own
    const own = await migratedDatabase();
    try {
      const run = async (args: string[]) => {
        const r = await webhooks(args, async () => ({ db: own.db, close: async () => {} }));
        return { code: r.code, out: [...r.out, ...r.err].join('\n') };
      };
      expect((await run(['list'])).out).toContain('no endpoints');
      const mine = await run(['add', 'https://93.184.216.34/hooks/crm', '--events', 'inquiry.created,alert.confirmed']);
      const ownId = /endpoint (\d+):/.exec(mine.out)?.[1];
      expect((await run(['report'])).out).toContain(
        `${ownId} https://93.184.216.34/hooks/crm (inquiry.created, alert.confirmed): 0 delivered, 0 waiting, 0 failed`,
      );
      const refusals: Array<[string[], RegExp, number]> = [
        [
          ['add', 'https://127.0.0.1:9000/x', '--events', 'inquiry.created'],
          /127\.0\.0\.1 is 127\.0\.0\.1: an address on a private network is an endpoint only with --dev/,
          1,
        ],
        [
          ['add', 'https://[::ffff:10.0.0.7]/x', '--events', 'inquiry.created'],
          /an address on a private network is an endpoint only with --dev/,
          1,
        ],
        [
          ['add', 'http://169.254.169.254/latest/meta-data', '--events', 'inquiry.created', '--dev'],
          /link-local address \(the cloud metadata service\) is never an endpoint/,
          1,
        ],
        [['add', 'https://u:p@93.184.216.34/x', '--events', 'inquiry.created'], /no user name or password/, 1],
        [
          ['add', 'https://93.184.216.34/x', '--events', 'inquiry.created,listing.sold'],
          /unknown event listing\.sold: the events are inquiry\.created, alert\.confirmed, alert\.unsubscribed/,
          1,
        ],
        [['add', 'https://93.184.216.34/x'], /add needs --events/, 2],
        [['remove', 'abc'], /an endpoint's id is a number/, 1],
        [['remove', '999999'], /no endpoint 999999/, 1],
        [[], /which command\?/, 2],
      ];
      for (const [args, message, code] of refusals) {
        const r = await run(args);
        expect(r.out, args.join(' ')).toMatch(message);
        expect(r.code, args.join(' ')).toBe(code);
      }
      // a developer's CRM on this machine, with --dev
      const dev = await run(['add', 'http://127.0.0.1:9000/hooks', '--events', 'alert.unsubscribed', '--dev']);
      expect(dev.out).toMatch(/endpoint \d+: http:\/\/127\.0\.0\.1:9000\/hooks \(alert\.unsubscribed\) \[dev\]/);
    } finally {
      await own.close();
    }
  });
});
