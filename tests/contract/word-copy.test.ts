/**
 * The narrow copy of the public listings' words (internal.listing_words,
 * supabase/schemas/22_listing_words.sql; docs/decisions.md #27): what the word counts and the words' id lists read. It
 * must always hold exactly the words of the public listings: after the seed, and after inserts,
 * edits of the text, changes that leave the words alone, withdrawals, relistings, deletes and
 * changes of many rows at once. And a count of words alone, read from it, is the one the rule
 * gives (listing_matches(), and the folded text read apart).
 */
import { describe, expect, it } from 'vitest';
import { FOR_SALE, PUBLIC as ACTIVE, WORDS_OFF_RULE, WORDS_TEXT } from '../support/independent-sql.ts';
import { seededDatabase } from '../support/seeded-database.ts';

const COPY = 'select id::text as id, words::text as words from internal.listing_words order by id';
const PUBLIC_WORDS = `select id::text as id, words::text as words from internal.listings where ${ACTIVE} order by id`;

describe.each(['postgres'] as const)('the words kept apart on %s', (kind) => {
  const db = seededDatabase(kind, 1200);
  const copyIsExact = async () => {
    const [copy, expected] = await Promise.all([db().admin.query(COPY), db().admin.query(PUBLIC_WORDS)]);
    expect(copy.length).toBe(expected.length);
    expect(copy).toEqual(expected);
    // and the words themselves are every listing's text's (kept by a trigger, migration 20261209000000)
    expect((await db().admin.query<{ n: number }>(WORDS_OFF_RULE))[0]?.n).toBe(0);
  };
  const count = async (words: string) =>
    Number(
      (
        await db().anon.query<{ n: string }>('select public.search_listings_count($1::jsonb) as n', [
          JSON.stringify({ words }),
        ])
      )[0]?.n,
    );
  const counted = async (regex: string) =>
    Number(
      (
        await db().admin.query<{ n: string }>(
          `select count(*) as n from internal.listings where ${ACTIVE} and ${FOR_SALE} and ${WORDS_TEXT} ~ $1`,
          [regex],
        )
      )[0]?.n,
    );
  const byRule = async (words: string) =>
    Number(
      (
        await db().admin.query<{ n: string }>(
          'select count(*) as n from internal.listings l where internal.listing_matches(l, $1::jsonb)',
          [JSON.stringify({ words })],
        )
      )[0]?.n,
    );

  it('holds the words of every public listing and of no other after the seed', async () => {
    await copyIsExact();
    const [{ n } = { n: 0 }] = await db().admin.query<{ n: number }>(
      `select count(*)::int as n from internal.listings where not (${ACTIVE})`,
    );
    expect(n).toBeGreaterThan(0);
  });

  it('follows inserts, edits, withdrawals, relistings and deletes, one row and many at once; a count of words reads it at once', async () => {
    const word = 'zafiroplata';
    expect(await count(word)).toBe(0);
    // a new listing, public, and one that is not
    const [a] = await db().admin.query<{ id: string }>(
      `insert into internal.listings (title, description, city, state, price) values ('Casa ${word} en Cumbayá', 'Con jardín', 'Cumbayá', 'Pichincha', 250000) returning id::text as id`,
    );
    await db().admin.query(
      `insert into internal.listings (title, city, state, price, status) values ('Oficina ${word}', 'Quito', 'Pichincha', 90000, '0')`,
    );
    await copyIsExact();
    expect(await count(word)).toBe(1);
    // its text edited: the word goes, another comes
    await db().admin.query(`update internal.listings set title = 'Casa turquesaluna en Cumbayá' where id = $1`, [
      a?.id,
    ]);
    await copyIsExact();
    expect(await count(word)).toBe(0);
    expect(await count('turquesaluna')).toBe(1);
    // a change that leaves the words alone (the price) keeps the copy as it is
    await db().admin.query('update internal.listings set price = price - 5000 where id = $1', [a?.id]);
    await copyIsExact();
    // withdrawn, then relisted
    await db().admin.query("update internal.listings set status = '3' where id = $1", [a?.id]);
    await copyIsExact();
    expect(await count('turquesaluna')).toBe(0);
    await db().admin.query("update internal.listings set status = '1' where id = $1", [a?.id]);
    await copyIsExact();
    expect(await count('turquesaluna')).toBe(1);
    // many rows at once: descriptions of 40 listings, 30 withdrawn, the other listing made public
    await db().admin.query(
      `update internal.listings set description = description || ' Con ${word}.' where id in (select id from internal.listings where ${ACTIVE} order by id limit 40)`,
    );
    await db().admin.query(
      `update internal.listings set status = '2' where id in (select id from internal.listings where ${ACTIVE} order by id desc limit 30)`,
    );
    await db().admin.query(`update internal.listings set status = '1' where title = 'Oficina ${word}'`);
    await copyIsExact();
    // deleted
    await db().admin.query('delete from internal.listings where id = $1', [a?.id]);
    await db().admin.query(
      `delete from internal.listings where id in (select id from internal.listings where ${ACTIVE} order by id limit 5)`,
    );
    await copyIsExact();
    const expected = await counted(`\\m${word}\\M`);
    expect(expected).toBe(36);
    expect(await count(word)).toBe(expected);
    expect(await byRule(word)).toBe(expected);
  });

  it('keeps the words of the text whatever a write says of them: written alone, with the text, or as import_merge supplies them', async () => {
    const [a] = await db().admin.query<{ id: string; words: string }>(
      'select id::text as id, words::text as words from internal.listings where title is not null order by id limit 1',
    );
    // words written without their text: the text's are kept
    await db().admin.query(
      "update internal.listings set words = to_tsvector('simple', 'falso'), title_words = null where id = $1",
      [a?.id],
    );
    // words written with a new text: the new text's
    await db().admin.query(
      "insert into internal.listings (title, description, city, state, price, words) values ('Casa ambarina', 'Con huerto', 'Quito', 'Pichincha', 1, to_tsvector('simple', 'falso'))",
    );
    await db().admin.query(
      "update internal.listings set title = 'Casa granatina', words = to_tsvector('simple', 'falso') where title = 'Casa ambarina'",
    );
    expect((await db().admin.query<{ n: number }>(WORDS_OFF_RULE))[0]?.n).toBe(0);
    expect(
      (
        await db().admin.query<{ words: string }>('select words::text as words from internal.listings where id = $1', [
          a?.id,
        ])
      )[0]?.words,
    ).toBe(a?.words);
    expect(await count('granatina')).toBe(1);
    expect(await count('falso')).toBe(0);
    // the setting only import_merge sets lets a transaction hand them over (and the test proves it is that setting, not something else, that does)
    await db().transaction(async (q) => {
      await q.query("select set_config('exp.words_supplied', 'on', true)");
      await q.query(
        "update internal.listings set title = 'Casa coralina', words = to_tsvector('simple', 'supplied'), title_words = to_tsvector('simple', 'supplied') where title = 'Casa granatina'",
      );
    });
    expect((await db().admin.query<{ n: number }>(WORDS_OFF_RULE))[0]?.n).toBe(1);
    await db().admin.query("update internal.listings set title = 'Casa granatina' where title = 'Casa coralina'");
    await db().admin.query("delete from internal.listings where title = 'Casa granatina'");
    await copyIsExact();
  });

  it("counts of words alone are the rule's: a common word, a phrase, a word left out, stop words only", async () => {
    for (const words of ['casa', 'piscina jardin', '"vista al mar"', '-piscina', 'la de', 'chimenea OR terraza']) {
      expect(await count(words), words).toBe(await byRule(words));
    }
    expect(await count('casa')).toBe(await counted('\\mcasas?\\M'));
  });
});
