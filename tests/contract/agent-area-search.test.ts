/**
 * Every lead an agent has is within her reach (docs/agent-area.md "The page"), through the data API
 * with her session's JWT (tests/support/agent-area.ts): public.my_leads pages on past her newest
 * (older than the last lead she has, each lead once, in the order the database keeps them, leads of
 * one instant included) and finds what she searches for among all of them: a name without its
 * accents, an address, a phone however written, words from the message; only among the leads row
 * level security lets her read, never spam; of one status; for the team, one agent's or its own. A
 * search or a page asked wrongly is refused with its field named.
 */
import type { PostgrestClient } from '@supabase/postgrest-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A, areaBrowsers, B, startAgentArea, TEAM } from '../support/agent-area.ts';
import type { TestServer } from '../support/servers.ts';

type Row = { id: string; received_at: string; name: string };

describe("the agents' area: her leads past the newest, and her search", () => {
  let server: TestServer;
  let agent: Record<string, string>;
  const { signIn } = areaBrowsers(() => server);
  let a: { rest: PostgrestClient };
  let b: { rest: PostgrestClient };
  let team: { rest: PostgrestClient };
  /** her leads' ids as the database orders them: newest first, at one instant the larger id first */
  let hers: string[];
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    ({ server, agent } = await startAgentArea());
    // Ana's: four at one instant (the pages must not lose or repeat one of them), the rest a day apart
    const leads: Array<
      [
        key: string,
        owner: string | null,
        name: string,
        email: string,
        phone: string | null,
        message: string,
        daysAgo: number,
      ]
    > = [
      ['perez', agent[A]!, 'José Pérez', 'jose@correo.example', '+593 99 123 4567', 'Busco casa', 9],
      ['lopez', agent[A]!, 'María López', 'maria.lopez@correo.example', null, 'Me interesa la de Cumbayá', 7],
      ['pool', agent[A]!, 'Luis Vera', 'luis@correo.example', '022 345 678', '¿Tiene PISCINA climatizada?', 5],
      ['tie1', agent[A]!, 'Ana Uno', 'uno@correo.example', null, 'Hola', 3],
      ['tie2', agent[A]!, 'Ana Dos', 'dos@correo.example', null, 'Hola', 3],
      ['tie3', agent[A]!, 'Ana Tres', 'tres@correo.example', null, 'Hola', 3],
      ['tie4', agent[A]!, 'Ana Cuatro', 'cuatro@correo.example', null, 'Hola 100%', 3],
      ['newest', agent[A]!, 'Rosa Nueva', 'rosa@correo.example', null, 'Hola', 1],
      ['other', agent[B]!, 'José Perez Otro', 'otro@correo.example', '0991234567', 'Busco casa', 2],
      ['team', null, 'Tomás Equipo', 'tomas@correo.example', null, 'Busco casa', 4],
    ];
    for (const [key, owner, name, email, phone, message, daysAgo] of leads) {
      const [row] = await server.sql<{ id: string }>(
        `insert into public.inquiries (idempotency_key, name, email, phone, message, recipient_email, recipient_kind, lead_agent_id, received_at)
         values ($1, $2, $3, $4, $5, 'x@example.com', case when $6::bigint is null then 'team' else 'lead_agent' end, $6::bigint, date_trunc('day', internal.now()) - make_interval(days => $7))
         returning id::text as id`,
        [`search-${key}`, name, email, phone, message, owner, daysAgo],
      );
      ids[key] = row!.id;
    }
    // and one the spam check caught, of the same name: never hers to see, on any page or search
    await server.sql(
      `insert into public.inquiries (idempotency_key, name, email, message, recipient_email, recipient_kind, lead_agent_id, spam)
       values ('search-spam', 'José Pérez Spam', 'spam@correo.example', 'Busco casa', 'x@example.com', 'lead_agent', $1::bigint, true)`,
      [agent[A]!],
    );
    hers = (
      await server.sql<{ id: string }>(
        'select id::text as id from public.inquiries where owner_agent_id = $1::bigint and not spam order by received_at desc, id desc',
        [agent[A]!],
      )
    ).map((r) => r.id);
    a = await signIn(A, '10.73.0.1');
    b = await signIn(B, '10.73.0.2');
    team = await signIn(TEAM, '10.73.0.3');
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  const call = async (who: { rest: PostgrestClient }, args: Record<string, unknown>) => {
    const { data, error } = await who.rest.rpc('my_leads', args);
    expect(error).toBeNull();
    return data as Row[];
  };
  /** every page, each asked older than the last lead of the one before */
  const pages = async (
    who: { rest: PostgrestClient },
    size: number,
    search?: string,
    more: Record<string, unknown> = {},
  ) => {
    const seen: Row[][] = [];
    for (;;) {
      const last = seen.at(-1)?.at(-1);
      const page = await call(who, {
        max_rows: size,
        ...(search === undefined ? {} : { search }),
        ...more,
        ...(last ? { older_than: last.received_at, older_id: last.id } : {}),
      });
      if (!page.length) return seen;
      seen.push(page);
      expect(seen.length).toBeLessThan(50);
    }
  };

  it('pages on past her newest: each of her leads once, in the database order, the four of one instant included', async () => {
    expect(hers).toHaveLength(8);
    for (const size of [1, 2, 3, 5]) {
      const got = await pages(a, size);
      expect(got.every((page) => page.length <= size)).toBe(true);
      expect(got.flat().map((r) => r.id)).toEqual(hers);
    }
    // the first page is her newest, as before
    expect((await call(a, { max_rows: 2 })).map((r) => r.id)).toEqual(hers.slice(0, 2));
    // the team pages through everyone's; Bruno's is among them, and Ana's in her order
    const all = (await pages(team, 3)).flat().map((r) => r.id);
    expect(new Set(all).size).toBe(all.length);
    expect(all).toContain(ids.other);
    expect(all.filter((id) => hers.includes(id))).toEqual(hers);
  });

  it('finds by a name without its accents, an address, a phone however written, words of the message; among her own leads only', async () => {
    const found = async (who: { rest: PostgrestClient }, search: string) =>
      (await call(who, { max_rows: 500, search })).map((r) => r.id);
    // her oldest lead, past her newest two, by its name as people type it
    expect((await call(a, { max_rows: 2 })).map((r) => r.id)).not.toContain(ids.perez);
    expect(await found(a, 'perez')).toEqual([ids.perez]);
    expect(await found(a, '  PÉREZ ')).toEqual([ids.perez]);
    expect(await found(a, 'maria.lopez@')).toEqual([ids.lopez]);
    expect(await found(a, 'cumbaya')).toEqual([ids.lopez]);
    expect(await found(a, 'piscina')).toEqual([ids.pool]);
    // a phone written the national way, with spaces, or with the country's code
    expect(await found(a, '0991234567')).toEqual([ids.perez]);
    expect(await found(a, '99 123 4567')).toEqual([ids.perez]);
    expect(await found(a, '+593991234567')).toEqual([ids.perez]);
    expect(await found(a, '(02) 2345-678')).toEqual([ids.pool]);
    // a character that means "anything" to LIKE means itself here
    expect(await found(a, '%')).toEqual([ids.tie4]);
    expect(await found(a, '_')).toEqual([]);
    // nothing at all asked: all of hers
    expect(await found(a, '   ')).toEqual(hers);
    // Bruno's lead of the same name: his, never hers; the team finds both
    expect(await found(b, 'perez')).toEqual([ids.other]);
    expect(await found(b, '0991234567')).toEqual([ids.other]);
    expect((await found(team, 'perez')).sort()).toEqual([ids.perez, ids.other].sort());
    // a search pages on too
    const ties = await pages(a, 1, 'hola');
    expect(ties.flat().map((r) => r.id)).toEqual(
      hers.filter((id) => id !== ids.perez && id !== ids.lopez && id !== ids.pool),
    );
  });

  it("keeps to a status (a page of them at a time, from all of hers), and for the team to one agent's leads or its own", async () => {
    await server.sql("update public.inquiries set status = 'won' where id = any ($1::uuid[])", [[ids.perez, ids.tie2]]);
    const of = async (who: { rest: PostgrestClient }, args: Record<string, unknown>) =>
      (await call(who, { max_rows: 500, ...args })).map((r) => r.id);
    try {
      expect(await of(a, { status: 'won' })).toEqual(hers.filter((id) => id === ids.perez || id === ids.tie2));
      expect((await pages(a, 1, undefined, { status: 'new' })).flat().map((r) => r.id)).toEqual(
        hers.filter((id) => id !== ids.perez && id !== ids.tie2),
      );
      expect(await of(a, { status: 'won', search: 'perez' })).toEqual([ids.perez]);
      expect(await of(b, { status: 'won' })).toEqual([]);
      // the team: one agent's, or its own (no agent's)
      expect(await of(team, { owner_id: Number(agent[B]) })).toEqual([ids.other]);
      expect((await of(team, { owner_id: Number(agent[A]) })).sort()).toEqual([...hers].sort());
      expect(await of(team, { owner_id: 0 })).toContain(ids.team);
      expect(await of(team, { owner_id: 0 })).not.toContain(ids.other);
      // an agent asking for another's: her own, never his
      expect(await of(a, { owner_id: Number(agent[B]) })).toEqual(hers);
    } finally {
      await server.sql("update public.inquiries set status = 'new' where id = any ($1::uuid[])", [
        [ids.perez, ids.tie2],
      ]);
    }
  });

  it("keeps to what a lead asked about, which the database keeps: a home's value, a listing, a general question", async () => {
    await server.sql("update public.inquiries set property_title = 'Casa en Cumbayá' where id = $1", [ids.lopez]);
    await server.sql(`update public.inquiries set seller = '{"facts": {}}', property_title = 'Casa' where id = $1`, [
      ids.pool,
    ]);
    try {
      const kinds = Object.fromEntries(
        (await call(a, { max_rows: 500 })).map((r) => [r.id, (r as Row & { kind: string }).kind]),
      );
      expect(kinds[ids.lopez!]).toBe('listing');
      expect(kinds[ids.pool!]).toBe('valuation');
      expect(kinds[ids.perez!]).toBe('general');
      const of = async (kind: string) => (await call(a, { max_rows: 500, kind })).map((r) => r.id);
      expect(await of('listing')).toEqual([ids.lopez]);
      expect(await of('valuation')).toEqual([ids.pool]);
      expect(await of('general')).toEqual(hers.filter((id) => id !== ids.lopez && id !== ids.pool));
      // an empty title is no listing
      await server.sql("update public.inquiries set property_title = '' where id = $1", [ids.lopez]);
      expect(await of('listing')).toEqual([]);
    } finally {
      await server.sql('update public.inquiries set property_title = null, seller = null where id = any ($1::uuid[])', [
        [ids.lopez, ids.pool],
      ]);
    }
  });

  it('a search or a page asked wrongly is refused, its field named', async () => {
    const refused = async (args: Record<string, unknown>) => (await a.rest.rpc('my_leads', args)).error;
    expect((await refused({ search: 'x'.repeat(101) }))?.hint).toBe('search');
    expect(await refused({ search: 'x'.repeat(100) })).toBeNull();
    expect((await refused({ older_than: '2026-06-01T00:00:00Z' }))?.hint).toBe('older_than');
    expect((await refused({ older_id: ids.perez }))?.hint).toBe('older_than');
    expect((await refused({ older_than: 'yesterday-ish', older_id: ids.perez }))?.code).toBe('22007');
    expect((await refused({ max_rows: 0 }))?.hint).toBe('max_rows');
    expect((await refused({ status: 'closed' }))?.hint).toBe('status');
    expect((await refused({ kind: 'house' }))?.hint).toBe('kind');
    expect((await refused({ owner_id: -1 }))?.hint).toBe('owner_id');
    // moving a lead names the status the same way
    expect((await a.rest.rpc('move_lead', { lead_id: ids.perez, status: 'closed' })).error?.hint).toBe('status');
  });
});
