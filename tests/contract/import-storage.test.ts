/**
 * Imported photos kept in Supabase Storage (docs/import.md, "Photos"; server/import/storage.ts),
 * through Supabase's own client (@supabase/storage-js) against a Storage API stand-in
 * (tests/support/feed-stand-ins.ts): the public bucket made, every size in every format uploaded
 * once, cached for a year, the listing and its page pointing at the bucket's public addresses; a
 * re-run uploads nothing; a wrong key or a private bucket fails the photos, not the listings.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listingPath } from '../../core/routes.ts';
import { PHOTO_WIDTHS } from '../../core/protocol/photos.ts';
import { loadConfig } from '../../server/config.ts';
import { runImport } from '../../server/import/run.ts';
import { sourceFrom } from '../../server/import/sources.ts';
import { supabasePhotoStore } from '../../server/import/storage.ts';
import { startPhotoHost, startStorageStandIn, type PhotoHost, type StorageStandIn } from '../support/feed-stand-ins.ts';
import { startTestServer, type TestServer } from '../support/servers.ts';
import { stopAll } from '../support/stop-all.ts';

describe('imported photos in Supabase Storage', () => {
  const dir = mkdtempSync(join(tmpdir(), 'exp-import-storage-'));
  let server: TestServer;
  let storage: StorageStandIn;
  let photos: PhotoHost;
  const csv = (rows: string[]) =>
    [
      'ListingKey,StandardStatus,ListPrice,BedroomsTotal,PropertySubType,Latitude,Longitude,UnparsedAddress,City,PublicRemarks,Photos',
      ...rows,
    ].join('\n');

  beforeAll(async () => {
    storage = await startStorageStandIn();
    photos = await startPhotoHost({ width: 2000, height: 1333 });
    server = await startTestServer('postgres', {
      photosDir: join(dir, 'local-photos'),
      site: { imageHosts: [storage.url] },
    });
  }, 240_000);
  afterAll(() => stopAll(server, photos, storage));

  it('makes the public bucket, uploads every size in every format once, and the listing and its page point at the bucket', async () => {
    // two listings share a photo: it is fetched and stored once
    writeFileSync(
      join(dir, 'a.csv'),
      csv([
        `ST-1,Active,210000,3,Single Family Residence,-0.2031,-78.4322,Calle 1,Pueblo Storage,Casa,${photos.photo(21)}`,
        `ST-2,Active,99000,2,Condominium,-0.2,-78.5,Calle 2,Pueblo Storage,Depa,${photos.photo(21)}|${photos.photo(22)}`,
      ]),
    );
    const store = supabasePhotoStore({ url: storage.url, serviceKey: storage.serviceKey, bucket: 'media' });
    const source = sourceFrom({ kind: 'csv', location: 'a.csv', photoHosts: [photos.origin] });
    const report = await runImport(server.db, source, { cwd: dir }, store);
    expect(report).toMatchObject({ outcome: 'done', new: 2 });
    expect(report.photos).toMatchObject({ fetched: 2, failed: 0 });
    expect(storage.buckets.get('media')).toEqual({
      public: true,
      allowedMimeTypes: ['image/jpeg', 'image/webp', 'image/avif'],
      fileSizeLimit: 8 * 1024 * 1024,
    });

    // 2 photos x 4 widths x 3 formats, each of its type and width, cached for a year
    expect(storage.objects.size).toBe(2 * PHOTO_WIDTHS.length * 3);
    for (const [id, object] of storage.objects) {
      const [, width, ext] = /^media\/photos\/[0-9a-f]{32}\/(\d+)\.(avif|webp|jpg)$/.exec(id) ?? [];
      expect(width, id).toBeDefined();
      expect(object.type).toBe({ avif: 'image/avif', webp: 'image/webp', jpg: 'image/jpeg' }[ext as string]);
      expect(object.cacheControl).toBe('max-age=31536000');
      const meta = await sharp(object.body).metadata();
      expect(meta.width, id).toBe(Number(width));
      expect(meta.format, id).toBe({ avif: 'heif', webp: 'webp', jpg: 'jpeg' }[ext as string]);
    }
    // the largest JPEG is the last file of each photo (what `has` asks for)
    const uploads = storage.requests.filter((r) => r.startsWith('POST /storage/v1/object/'));
    for (const hash of new Set(uploads.map((u) => u.split('/')[6])))
      expect(uploads.filter((u) => u.includes(`/${hash}/`)).pop()).toMatch(/\/1600\.jpg$/);

    const [row] = await server.sql<{ id: string; title: string; images: Array<{ url: string }> }>(
      "select id::text as id, title, images from internal.listings where source = 'csv:a.csv' and source_key = 'ST-2'",
    );
    const first = row?.images[0]?.url ?? '';
    expect(row?.images).toHaveLength(2);
    expect(first).toMatch(new RegExp(`^${storage.url}/storage/v1/object/public/media/photos/[0-9a-f]{32}/1024\\.jpg$`));
    // served publicly, without a key
    const res = await fetch(first.replace('1024.jpg', '640.avif'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/avif');
    // the listing's page offers every size and format from the bucket
    const page = await fetch(`${server.url}${listingPath(String(row?.id), row?.title, 'en')}`);
    const html = await page.text();
    const base = first.replace(/\/1024\.jpg$/, '');
    expect(html.toLowerCase()).toContain(
      `<source type="image/avif" srcset="${base}/320.avif 320w, ${base}/640.avif 640w, ${base}/1024.avif 1024w, ${base}/1600.avif 1600w"`.toLowerCase(),
    );
    expect(html).toContain(`src="${base}/1024.jpg"`);

    // a re-run uploads nothing and fetches nothing
    const before = storage.requests.length;
    const hits = photos.hits.get('/photos/21.jpg');
    const again = await runImport(server.db, source, { cwd: dir }, store);
    expect(again).toMatchObject({ outcome: 'done', new: 0, updated: 0, unchanged: 2 });
    expect(storage.requests.slice(before).filter((r) => !r.startsWith('HEAD'))).toEqual([]);
    expect(photos.hits.get('/photos/21.jpg')).toBe(hits);

    // a photo whose listing changed its photos, already stored, is only asked about (HEAD), not uploaded again
    writeFileSync(
      join(dir, 'a.csv'),
      csv([
        `ST-1,Active,210000,3,Single Family Residence,-0.2031,-78.4322,Calle 1,Pueblo Storage,Casa,${photos.photo(22)}`,
        `ST-2,Active,99000,2,Condominium,-0.2,-78.5,Calle 2,Pueblo Storage,Depa,${photos.photo(21)}|${photos.photo(22)}`,
      ]),
    );
    const mark = storage.requests.length;
    const changed = await runImport(server.db, source, { cwd: dir }, store);
    expect(changed.photos).toMatchObject({ fetched: 0, reused: 1, failed: 0 });
    expect(storage.requests.slice(mark).every((r) => r.startsWith('HEAD /storage/v1/object/media/photos/'))).toBe(true);
  });

  it('a wrong key or a private bucket fails the photos with the reason, and the listings are imported', async () => {
    writeFileSync(
      join(dir, 'b.csv'),
      csv([`SB-1,Active,150000,2,Condominium,-0.2,-78.5,Calle 9,Pueblo Storage,Depa,${photos.photo(31)}`]),
    );
    const source = sourceFrom({ kind: 'csv', location: 'b.csv', photoHosts: [photos.origin] });
    const wrongKey = await runImport(
      server.db,
      source,
      { cwd: dir },
      supabasePhotoStore({ url: storage.url, serviceKey: 'not-the-key', bucket: 'media' }),
    );
    expect(wrongKey).toMatchObject({ outcome: 'done', new: 1 });
    expect(wrongKey.photos).toMatchObject({ fetched: 0, failed: 1 });
    expect(wrongKey.photos.errors[0]?.error).toMatch(
      /^could not be made: Supabase Storage: .*403 .*\(is SUPABASE_SERVICE_ROLE_KEY the project's service role key\?\)$/,
    );

    storage.buckets.set('private-photos', { public: false, allowedMimeTypes: null, fileSizeLimit: null });
    const privateBucket = await runImport(
      server.db,
      source,
      { cwd: dir },
      supabasePhotoStore({ url: storage.url, serviceKey: storage.serviceKey, bucket: 'private-photos' }),
    );
    expect(privateBucket.photos.errors[0]?.error).toMatch(/the bucket "private-photos" is not public/);
    expect([...storage.objects.keys()].some((k) => k.startsWith('private-photos/'))).toBe(false);
    const [row] = await server.sql<{ images: unknown[] }>(
      "select images from internal.listings where source = 'csv:b.csv'",
    );
    expect(row?.images).toEqual([]);

    // the store failed, not the photo: the next run, the feed unchanged, tries it again and makes it
    const fixed = await runImport(
      server.db,
      source,
      { cwd: dir },
      supabasePhotoStore({ url: storage.url, serviceKey: storage.serviceKey, bucket: 'media' }),
    );
    expect(fixed).toMatchObject({ outcome: 'done', new: 0, updated: 0, unchanged: 1 });
    expect(fixed.photos).toMatchObject({ fetched: 1, failed: 0 });
    const [after] = await server.sql<{ images: Array<{ url: string }> }>(
      "select images from internal.listings where source = 'csv:b.csv'",
    );
    expect(after?.images[0]?.url).toMatch(/\/storage\/v1\/object\/public\/media\/photos\/[0-9a-f]{32}\/1024\.jpg$/);
  });

  it('is configured by SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY together, in a bucket named by PHOTO_BUCKET', () => {
    expect(loadConfig({}, []).photoStorage).toBeUndefined();
    expect(
      loadConfig({ SUPABASE_URL: 'https://abc.supabase.co/', SUPABASE_SERVICE_ROLE_KEY: 'k' }, []).photoStorage,
    ).toEqual({
      url: 'https://abc.supabase.co',
      serviceKey: 'k',
      bucket: 'media',
    });
    expect(
      loadConfig(
        { SUPABASE_URL: 'https://abc.supabase.co', SUPABASE_SERVICE_ROLE_KEY: 'k', PHOTO_BUCKET: 'listing-photos' },
        [],
      ).photoStorage?.bucket,
    ).toBe('listing-photos');
    expect(() => loadConfig({ SUPABASE_URL: 'https://abc.supabase.co' }, [])).toThrow(
      /SUPABASE_URL needs SUPABASE_SERVICE_ROLE_KEY/,
    );
    expect(() => loadConfig({ SUPABASE_SERVICE_ROLE_KEY: 'k' }, [])).toThrow(
      /SUPABASE_SERVICE_ROLE_KEY needs SUPABASE_URL/,
    );
    expect(() =>
      loadConfig({ SUPABASE_URL: 'https://abc.supabase.co', SUPABASE_SERVICE_ROLE_KEY: 'k', PHOTO_BUCKET: '../x' }, []),
    ).toThrow(/PHOTO_BUCKET must be a bucket name/);
    expect(() => loadConfig({ SUPABASE_URL: 'ftp://abc', SUPABASE_SERVICE_ROLE_KEY: 'k' }, [])).toThrow(
      /SUPABASE_URL must be a http or https URL/,
    );
  });
});
