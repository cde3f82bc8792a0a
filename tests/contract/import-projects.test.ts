/**
 * New developments from the feeds (docs/import.md "New developments"): a RESO Web API service whose
 * record carries PropertyUnitTypes, and the CSV template of projects, stored as projects with their
 * unit types, in the search and on their pages; what cannot be a project refused with its reason
 * and nothing withdrawn for it; a re-run that changes nothing new for the alerts; a project the
 * feed no longer has withdrawn.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowDate } from '../../core/clock.ts';
import { runImport, type ImportReport, type RunOptions } from '../../server/import/run.ts';
import { sourceFrom } from '../../server/import/sources.ts';
import { startPhotoHost, startResoStandIn, type PhotoHost, type ResoStandIn } from '../support/feed-stand-ins.ts';
import { startTestServer, type TestServer } from '../support/servers.ts';
import { stopAll } from '../support/stop-all.ts';

/** a month `n` from the suite's clock, as YYYY-MM */
const monthFromNow = (n: number) => {
  const d = nowDate();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1)).toISOString().slice(0, 7);
};

const unit = (over: Record<string, unknown>) => ({
  UnitTypeType: 'TwoBedroom',
  UnitTypeBedsTotal: 2,
  UnitTypeBathsTotal: 2,
  UnitTypeUnitsTotal: 6,
  ExpAreaMin: 82,
  ExpAreaMax: 95,
  ExpPriceMin: 131000,
  ExpPriceMax: 152000,
  ...over,
});
/** the project's other unit type (its feed's first) */
const ONE_BEDROOM = {
  UnitTypeType: 'OneBedroom',
  UnitTypeBedsTotal: 1,
  UnitTypeBathsTotal: 1,
  ExpAreaMin: 58,
  ExpAreaMax: 64,
  ExpPriceMin: 98000,
  ExpPriceMax: 109000,
};

const project = (key: string, over: Record<string, unknown> = {}) => ({
  ListingKey: key,
  NewConstructionYN: true,
  BuildingName: `Torre Feed ${key}`,
  BuilderName: 'Constructora Feed',
  PropertyCondition: 'Under Construction',
  ExpConstructionProgress: 40,
  ExpDeliveryDate: monthFromNow(14),
  ExpReservation: 2000,
  ExpEntradaPercent: 30,
  City: 'Quito',
  SubdivisionName: 'La Carolina',
  Latitude: -0.1807,
  Longitude: -78.4846,
  PublicRemarks: 'Departamentos nuevos junto al parque La Carolina.',
  AssociationAmenities: ['Pool', 'Fitness Center', 'Elevator(s)', 'Helipad'],
  ModificationTimestamp: nowDate().toISOString(),
  PropertyUnitTypes: [unit(ONE_BEDROOM), unit({})],
  ...over,
});

describe('new developments from the feeds', () => {
  let server: TestServer;
  let reso: ResoStandIn;
  let photos: PhotoHost;
  const dir = mkdtempSync(join(tmpdir(), 'exp-import-projects-'));
  const run = (settings: Parameters<typeof sourceFrom>[0], options: RunOptions = {}): Promise<ImportReport> => {
    reso.reset();
    return runImport(server.db, sourceFrom(settings), { cwd: dir, ...options }, server.photos);
  };
  const resoRun = (options: RunOptions = {}) =>
    run(
      {
        kind: 'reso',
        location: reso.url,
        token: reso.token,
        name: 'reso:projects',
        pageSize: 8,
        photoHosts: [photos.origin],
        expand: ['PropertyUnitTypes'],
      },
      { full: true, ...options },
    );
  const stored = async (key: string, source = 'reso:projects') =>
    (
      await server.sql<{
        slug: string;
        status: string;
        stage: string;
        progress: number | null;
        amenities: string[];
        types: string;
      }>(
        `select p.slug, p.status, p.stage, p.progress, p.amenities,
                (select string_agg(t.bedrooms || ':' || t.price_min::int || '-' || t.price_max::int || ':' || t.area_min::int || '-' || t.area_max::int, ' ' order by t.position)
                   from internal.project_unit_types t where t.project_id = p.id) as types
           from internal.projects p where p.source = $1 and p.source_key = $2`,
        [source, key],
      )
    )[0];

  beforeAll(async () => {
    server = await startTestServer('postgres');
    reso = await startResoStandIn();
    photos = await startPhotoHost({ width: 640, height: 427 });
  }, 240_000);
  afterAll(() => stopAll(reso, photos, server));

  it('a RESO service with a project of two unit types: stored, in the search and on its page; three that cannot be projects refused with their reasons', async () => {
    reso.listings.set(
      'PRJ-1',
      project('PRJ-1', {
        PropertyUnitTypes: [
          unit({
            ...ONE_BEDROOM,
            // its floor plan (RESO's MediaCategory), made here as a photo; a photo of the type is not a plan
            Media: [
              { MediaKey: 'fp-1', MediaURL: photos.photo(33), Order: 1, MediaCategory: 'Floor Plan' },
              { MediaKey: 'fp-x', MediaURL: photos.photo(34), Order: 2, MediaCategory: 'Photo' },
            ],
          }),
          unit({}),
        ],
        Media: [
          { MediaKey: 'p-2', MediaURL: photos.photo(32), Order: 2, MediaCategory: 'Photo' },
          { MediaKey: 'p-1', MediaURL: photos.photo(31), Order: 1, MediaCategory: 'Photo' },
          { MediaKey: 'p-x', MediaURL: 'http://169.254.169.254/latest/meta-data', Order: 3, MediaCategory: 'Photo' },
        ],
      }),
    );
    reso.listings.set(
      'PRJ-BACK',
      project('PRJ-BACK', { PropertyUnitTypes: [unit({ ExpPriceMin: 150000, ExpPriceMax: 120000 })] }),
    );
    reso.listings.set('PRJ-NONE', project('PRJ-NONE', { PropertyUnitTypes: [] }));
    reso.listings.set(
      'PRJ-PAST',
      project('PRJ-PAST', { PropertyCondition: 'To Be Built', ExpDeliveryDate: monthFromNow(-3) }),
    );
    const report = await resoRun();
    expect(report.outcome).toBe('done');
    // the service sends a record's unit types when asked for them
    expect(reso.requests[0]).toContain('%24expand=Media%2CPropertyUnitTypes');
    expect(report.projects).toMatchObject({ read: 4, new: 1, updated: 0, withdrawn: 0 });
    const refused = Object.fromEntries(report.projects.quarantined.map((q) => [q.key, q.reasons.join('; ')]));
    expect(Object.keys(refused).sort()).toEqual(['PRJ-BACK', 'PRJ-NONE', 'PRJ-PAST']);
    expect(refused['PRJ-BACK']).toMatch(/price runs backwards \(150000 to 120000\)/);
    expect(refused['PRJ-NONE']).toMatch(/no unit types/);
    expect(refused['PRJ-PAST']).toMatch(/pre-sale with its delivery in the past/);
    for (const key of ['PRJ-BACK', 'PRJ-NONE', 'PRJ-PAST']) expect(await stored(key)).toBeUndefined();
    // none of them became a listing either
    expect(await server.sql("select 1 from internal.listings where source = 'reso:projects'")).toEqual([]);

    const p = await stored('PRJ-1');
    expect(p).toMatchObject({
      slug: 'torre-feed-prj-1',
      status: 'active',
      stage: 'under_construction',
      progress: 40,
      types: '1:98000-109000:58-64 2:131000-152000:82-95',
    });
    expect([...(p?.amenities ?? [])].sort()).toEqual(['elevator', 'gym', 'pool']);
    // its photos made here, in the feed's order; the one at an address we may not fetch left out; and its first type's floor plan
    expect(report.photos).toMatchObject({ fetched: 3, failed: 1 });
    const plans = await server.sql<{ plans: Array<{ url: string }> }>(
      "select t.floor_plans as plans from internal.project_unit_types t join internal.projects p on p.id = t.project_id where p.source_key = 'PRJ-1' order by t.position",
    );
    expect(plans.map((p) => p.plans.length)).toEqual([1, 0]);
    expect(plans[0]?.plans[0]?.url).not.toContain(new URL(photos.origin).host);
    expect((await fetch(new URL(plans[0]?.plans[0]?.url ?? '', server.url))).status).toBe(200);
    const [{ images } = { images: [] }] = await server.sql<{ images: Array<{ url: string }> }>(
      "select images from internal.projects where source_key = 'PRJ-1'",
    );
    expect(images).toHaveLength(2);
    for (const image of images) expect(image.url).not.toContain(new URL(photos.origin).host);
    expect((await fetch(new URL(images[0]?.url ?? '', server.url))).status).toBe(200);
    // in the search of new developments, priced from its cheapest type
    const res = await fetch(`${server.url}/rest/v1/rpc/search_listings`, {
      method: 'POST',
      headers: { apikey: 'local-anon-key', 'Content-Type': 'application/json' },
      body: JSON.stringify({
        filters: { operation: 'project', place: 'quito' },
        sort: 'newest',
        page_size: 50,
        page_offset: 0,
      }),
    });
    const rows = (await res.json()) as Array<{ title: string; price: number; bedrooms: number }>;
    expect(rows.find((r) => r.title === 'Torre Feed PRJ-1')).toMatchObject({ price: 98000, bedrooms: 2 });
    // its page: the unit table as the feed said it
    const page = await fetch(`${server.url}/projects/torre-feed-prj-1`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html.match(/<tr data-unit=/g)).toHaveLength(2);
    expect(html.match(/data-floor-plan=""/g)).toHaveLength(1);
    expect(html).toContain('Constructora Feed');
  });

  it('a re-run keeps it as it was, not new again for the alerts; a record gone wrong refuses the change and keeps the project; gone from the feed, it is withdrawn', async () => {
    const appeared = async () =>
      (
        await server.sql<{ at: string }>(
          "select l.appeared_at::text as at from internal.listings l join internal.projects p on p.id = l.project_id where p.source_key = 'PRJ-1'",
        )
      )[0]?.at;
    const before = await appeared();
    expect(before).toBeDefined();
    const again = await resoRun();
    expect(again.projects).toMatchObject({ read: 4, new: 0, updated: 1, withdrawn: 0 });
    expect(await appeared()).toBe(before);
    // the one-bedroom sold out and gone from the feed, the two-bedroom cheaper: the types are the feed's
    reso.listings.set('PRJ-1', project('PRJ-1', { PropertyUnitTypes: [unit({ ExpPriceMin: 125000 })] }));
    await resoRun();
    expect((await stored('PRJ-1'))?.types).toBe('2:125000-152000:82-95');
    // a backwards range: refused, the project stays as it was and active
    reso.listings.set('PRJ-1', project('PRJ-1', { PropertyUnitTypes: [unit({ ExpAreaMin: 90, ExpAreaMax: 80 })] }));
    const broken = await resoRun();
    expect(broken.projects.quarantined.map((q) => q.key)).toContain('PRJ-1');
    expect(await stored('PRJ-1')).toMatchObject({ status: 'active', types: '2:125000-152000:82-95' });
    // gone from the feed: withdrawn, its page gone
    reso.listings.delete('PRJ-1');
    const gone = await resoRun();
    expect(gone.projects.withdrawn).toBe(1);
    expect((await stored('PRJ-1'))?.status).toBe('withdrawn');
    expect((await fetch(`${server.url}/projects/torre-feed-prj-1`)).status).toBe(404);
  });

  it('units of a project for sale: a listing that names its project and model is of that type, in the search and on both pages; reordered types keep it; one that stops naming it, or a project withdrawn, leaves a plain listing', async () => {
    const typed = (
      types = [
        unit({ BuilderModel: 'Tipo A', UnitTypeBedsTotal: 1, ExpPriceMin: 98000, ExpPriceMax: 109000 }),
        unit({ BuilderModel: 'Tipo B' }),
      ],
    ) => project('PRJ-U', { BuildingName: 'Torre Unidades', PropertyUnitTypes: types });
    const listing = (key: string, over: Record<string, unknown> = {}) => ({
      ListingKey: key,
      StandardStatus: 'Active',
      ListPrice: 139000,
      BedroomsTotal: 2,
      BathroomsTotalInteger: 2,
      LivingArea: 88,
      LivingAreaUnits: 'Square Meters',
      PropertyType: 'Residential',
      PropertySubType: 'Condominium',
      Latitude: -0.1807,
      Longitude: -78.4846,
      UnparsedAddress: 'Av. República E7-10, unidad 804',
      City: 'Quito',
      SubdivisionName: 'La Carolina',
      StateOrProvince: 'Pichincha',
      Country: 'EC',
      NewConstructionYN: true,
      PublicRemarks: 'Departamento 804 de la Torre Unidades, piso alto con vista al parque.',
      ExpProjectKey: 'PRJ-U',
      BuilderModel: 'tipo b',
      ModificationTimestamp: nowDate().toISOString(),
      ...over,
    });
    reso.listings.set('PRJ-U', typed());
    reso.listings.set('U-804', listing('U-804'));
    reso.listings.set(
      'U-999',
      listing('U-999', { BuilderModel: 'Tipo Z', UnparsedAddress: 'Av. República E7-10, unidad 999' }),
    );
    const report = await resoRun();
    expect(report.projects.units).toEqual({ linked: 1, unlinked: 0, unmatched: ['U-999'] });
    const unitRow = async () =>
      (
        await server.sql<{ id: string; type_id: string | null; model: string | null; position: number | null }>(
          `select l.id::text as id, l.unit_type_id::text as type_id, t.model, t.position
             from internal.listings l left join internal.project_unit_types t on t.id = l.unit_type_id
            where l.source = 'reso:projects' and l.source_key = 'U-804'`,
        )
      )[0];
    const first = await unitRow();
    expect(first).toMatchObject({ model: 'Tipo B', position: 1 });
    // the public key reads what its card says of its project
    const read = async () => {
      const res = await fetch(`${server.url}/rest/v1/listings?id=eq.${first?.id}&select=unit_type_id,unit_of`, {
        headers: { apikey: 'local-anon-key' },
      });
      return ((await res.json()) as Array<{ unit_type_id: number | null; unit_of: Record<string, unknown> | null }>)[0];
    };
    expect(await read()).toMatchObject({
      unit_type_id: Number(first?.type_id),
      unit_of: {
        slug: 'torre-unidades',
        name: 'Torre Unidades',
        developer: 'Constructora Feed',
        stage: 'under_construction',
        progress: 40,
        model: 'Tipo B',
      },
    });
    // in the search for sale, as any listing, with its project
    const res = await fetch(`${server.url}/rest/v1/rpc/search_listings`, {
      method: 'POST',
      headers: { apikey: 'local-anon-key', 'Content-Type': 'application/json' },
      body: JSON.stringify({
        filters: { place: 'quito', features: ['new_construction'] },
        sort: 'newest',
        page_size: 100,
        page_offset: 0,
      }),
    });
    const rows = (await res.json()) as Array<{ id: number; operation: string; unit_of: { name?: string } | null }>;
    expect(rows.find((r) => r.id === Number(first?.id))).toMatchObject({
      operation: 'sale',
      unit_of: { name: 'Torre Unidades' },
    });
    // the project's page lists it under its type; its own page names its project
    const projectPage = await (await fetch(`${server.url}/projects/torre-unidades`)).text();
    expect(projectPage).toMatch(new RegExp(`data-unit-listing="${first?.id}"[^>]*href="/properties/${first?.id}-`));
    const listingPage = await (await fetch(`${server.url}/properties/${first?.id}`, { redirect: 'follow' })).text();
    expect(listingPage).toMatch(/data-unit-of="torre-unidades"[^>]*>[\s\S]*?href="\/projects\/torre-unidades"/);

    // the developer lists its types the other way round: the unit stays of its model's type
    reso.listings.set(
      'PRJ-U',
      typed([
        unit({ BuilderModel: 'Tipo B' }),
        unit({ BuilderModel: 'Tipo A', UnitTypeBedsTotal: 1, ExpPriceMin: 98000, ExpPriceMax: 109000 }),
      ]),
    );
    await resoRun();
    expect(await unitRow()).toMatchObject({ type_id: first?.type_id, model: 'Tipo B', position: 0 });
    // the listing no longer names its project: a plain listing, still for sale
    reso.listings.set('U-804', listing('U-804', { ExpProjectKey: null }));
    expect((await resoRun()).projects.units).toMatchObject({ linked: 0, unlinked: 1 });
    expect(await read()).toEqual({ unit_type_id: null, unit_of: null });
    // named again, then its project withdrawn: for sale still, of no project
    reso.listings.set('U-804', listing('U-804'));
    expect((await resoRun()).projects.units).toMatchObject({ linked: 1 });
    reso.listings.delete('PRJ-U');
    await resoRun();
    expect(await read()).toMatchObject({ unit_of: null });
  });

  it("the CSV template: one row a unit type under its project's key, stored as the RESO record is; a row that cannot be refused with its reason", async () => {
    writeFileSync(
      join(dir, 'projects.csv'),
      [
        'ListingKey;BuildingName;BuilderName;PropertyCondition;ExpDeliveryDate;ExpConstructionProgress;ExpReservation;ExpEntradaPercent;City;SubdivisionName;Latitude;Longitude;AssociationAmenities;UnitTypeType;UnitTypeBedsTotal;UnitTypeBathsTotal;UnitTypeUnitsTotal;ExpAreaMin;ExpAreaMax;ExpPriceMin;ExpPriceMax;BuilderModel',
        `CSV-7;Jardines del Río;Costa Urbana;To Be Built;${monthFromNow(20)};;1500;35;Samborondón;Km 5;-2.1305;-79.8720;Pool, Playground;OneBedroom;1;1;10;55;60;89.000;97.000;Suite Ceibo`,
        `CSV-7;;;;;;;;;;;;;ThreeBedroom;3;2,5;4;120;135;189.000;210.000;Familiar Samán`,
        `CSV-8;Torre Vieja;Costa Urbana;To Be Built;${monthFromNow(-2)};;0;30;Guayaquil;Urdesa;-2.17;-79.91;;TwoBedroom;2;2;3;80;90;120.000;130.000;`,
      ].join('\n'),
    );
    const report = await run({ kind: 'csv', location: 'projects.csv', name: 'csv:projects' });
    expect(report.projects).toMatchObject({ read: 2, new: 1 });
    expect(report.projects.quarantined).toEqual([
      { key: 'CSV-8', reasons: [expect.stringMatching(/pre-sale with its delivery in the past/)] },
    ]);
    expect(await stored('CSV-7', 'csv:projects')).toMatchObject({
      slug: 'jardines-del-rio',
      stage: 'pre_sale',
      progress: null,
      types: '1:89000-97000:55-60 3:189000-210000:120-135',
    });
    const [plan] = await server.sql<{ reservation: number; entrada_pct: number }>(
      "select reservation::float8 as reservation, entrada_pct::float8 as entrada_pct from internal.projects where source_key = 'CSV-7'",
    );
    expect(plan).toEqual({ reservation: 1500, entrada_pct: 35 });
    // each type's model, by which its units for sale name it
    expect(
      await server.sql(
        "select t.model from internal.project_unit_types t join internal.projects p on p.id = t.project_id where p.source_key = 'CSV-7' order by t.position",
      ),
    ).toEqual([{ model: 'Suite Ceibo' }, { model: 'Familiar Samán' }]);
    expect((await fetch(`${server.url}/es/proyectos/jardines-del-rio`)).status).toBe(200);
  });
});
