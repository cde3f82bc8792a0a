/**
 * The places of the location box (internal.places, docs/decisions.md #26): every province, city and
 * sector with active listings, their counts always what counting the listings gives (after the
 * seed and after every kind of change), and the suggestions the box shows for what a visitor types.
 */
import { describe, expect, it } from 'vitest';
import { seededDatabase } from '../support/seeded-database.ts';

/** The places counted from the listings, written apart from the migration, as the oracle: a place of every active listing, counting those for sale (what a search of it without an operation finds). */
const COUNTED = `
  select path, (count(*) filter (where operation = 'sale'))::int as n from (
    select 'provincia/' || public.slugify(state) as path, operation from internal.listings where country_code = 'EC' and status = '1' and public.slugify(state) <> ''
    union all
    select public.slugify(city), operation from internal.listings where country_code = 'EC' and status = '1' and public.slugify(city) <> ''
    union all
    select public.slugify(city) || '/' || public.slugify(sector), operation from internal.listings
    where country_code = 'EC' and status = '1' and public.slugify(city) <> '' and public.slugify(sector) <> ''
  ) p group by path order by path`;
const KEPT = 'select path, listings as n from internal.places order by path';

type Suggestion = {
  kind: string;
  path: string;
  name: string;
  city: string | null;
  province: string | null;
  listings: number;
};

describe.each(['postgres'] as const)('places and suggestions on %s', (kind) => {
  const db = seededDatabase(kind, 1800);
  const suggest = async (q: string, max?: number) =>
    db().anon.query<Suggestion>(
      `select * from public.place_suggestions(${max === undefined ? '$1' : '$1, $2'})`,
      max === undefined ? [q] : [q, max],
    );

  it('every listing has a sector, and the kept places equal the counted ones after the seed', async () => {
    const [{ n } = { n: -1 }] = await db().admin.query<{ n: number }>(
      "select count(*)::int as n from internal.listings where country_code = 'EC' and status = '1' and sector is null and city in ('Quito', 'Guayaquil', 'Cuenca')",
    );
    expect(n).toBe(0);
    const kept = await db().admin.query<{ path: string; n: number }>(KEPT);
    expect(kept).toEqual(await db().admin.query(COUNTED));
    expect(kept.filter((p) => p.path.includes('/') && !p.path.startsWith('provincia/')).length).toBeGreaterThan(60);
  });

  it('stay equal after inserts, sector changes, moves, a sale put up for rent, deactivation and deletes, one at a time and many at once', async () => {
    await db().admin.query(
      "insert into internal.listings (title, city, state, sector, geo_lat, geo_lon) values ('places a', 'Quito', 'Pichincha', 'Nuevo Sector', '-0.18', '-78.48'), ('places b', 'Pueblo Nuevo', 'Manabí', null, null, null)",
    );
    await db().admin.query("update internal.listings set sector = 'La Floresta' where title = 'places a'");
    await db().admin.query("update internal.listings set city = 'Cuenca', state = 'Azuay' where title = 'places a'");
    await db().admin.query(
      "update internal.listings set status = '0' where id in (select id from internal.listings where sector = 'Iñaquito' limit 3)",
    );
    await db().admin.query("update internal.listings set description = 'unchanged place' where city = 'Manta'");
    // put up for rent: still a place of the listing's, no longer counted as a sale
    await db().admin.query(
      "update internal.listings set operation = 'rent' where id in (select id from internal.listings where city = 'Ambato' and operation = 'sale' order by id limit 4)",
    );
    expect(await db().admin.query(KEPT)).toEqual(await db().admin.query(COUNTED));
    await db().admin.query(
      "update internal.listings set sector = 'Centro' where city = 'Loja' and sector = 'La Tebaida'",
    );
    await db().admin.query(
      "delete from internal.listings where title like 'places %' or id in (select id from internal.listings where city = 'Salinas' limit 15)",
    );
    expect(await db().admin.query(KEPT)).toEqual(await db().admin.query(COUNTED));
    expect(
      await db().admin.query("select 1 from internal.places where path in ('quito/nuevo-sector', 'loja/la-tebaida')"),
    ).toEqual([]);
  });

  it('suggests from the second letter, ignoring case and accents, with the active listings of each place', async () => {
    expect(await suggest('i')).toEqual([]);
    const [first] = await suggest('inaq');
    const [{ n } = { n: -1 }] = await db().admin.query<{ n: number }>(
      "select count(*)::int as n from internal.listings where country_code = 'EC' and status = '1' and operation = 'sale' and city = 'Quito' and sector = 'Iñaquito'",
    );
    expect(first).toMatchObject({
      kind: 'sector',
      path: 'quito/inaquito',
      name: 'Iñaquito',
      city: 'Quito',
      province: 'Pichincha',
      listings: n,
    });
    expect((await suggest('IÑAQ'))[0]?.path).toBe('quito/inaquito');
    expect((await suggest('la carolina'))[0]).toMatchObject({ kind: 'sector', path: 'quito/la-carolina' });
    expect((await suggest('cumbaya'))[0]).toMatchObject({ kind: 'city', path: 'cumbaya', name: 'Cumbayá' });
    expect((await suggest('pichincha'))[0]).toMatchObject({ kind: 'province', path: 'provincia/pichincha' });
  });

  it('forgives a small typo and knows other names; finds a listing by its code or its street', async () => {
    expect((await suggest('guayakil')).map((s) => s.path)).toContain('guayaquil');
    expect((await suggest('samborondon'))[0]?.path).toBe('samborondon');
    expect((await suggest('gye'))[0]?.path).toBe('guayaquil');
    expect((await suggest('uio'))[0]?.path).toBe('quito');
    const [listing] = await db().admin.query<{ id: string; title: string }>(
      "select id::text, title from internal.listings where country_code = 'EC' and status = '1' order by id limit 1",
    );
    expect(await suggest(`#${listing?.id}`)).toEqual([
      expect.objectContaining({ kind: 'listing', path: listing?.id, name: listing?.title }),
    ]);
    const street = await suggest('naciones unidas');
    expect(street.length).toBeGreaterThan(0);
    for (const s of street) expect(s).toMatchObject({ kind: 'listing' });
  });

  it('answers any text without an error, at most ten suggestions, small enough for every keystroke', async () => {
    for (const q of [
      '%',
      '_',
      '\\',
      "'; drop table internal.places; --",
      'a'.repeat(5000),
      '   ',
      '\u0000x'.slice(1),
      '🏠🏠',
      '#999999999999999',
    ]) {
      await expect(suggest(q), q.slice(0, 20)).resolves.toBeInstanceOf(Array);
    }
    expect((await suggest('an', 50)).length).toBeLessThanOrEqual(10);
    expect((await suggest('an', -3)).length).toBeLessThanOrEqual(1);
    expect(JSON.stringify(await suggest('an')).length).toBeLessThan(2048);
    expect(await db().admin.query("select 1 from internal.places where path = 'quito'")).toHaveLength(1);
  });
});
