/**
 * Visits in the database (docs/visits.md), on our server over PostgreSQL: the times a listing may
 * be visited, as the public key reads them, against the rule written apart here (the agent's hours
 * in Ecuador's time, or Monday to Saturday 9:00-18:00; hour-long visits starting on the half hour;
 * from two hours ahead to fourteen days; never over a confirmed visit); two confirmations of one
 * agent's time at once (the second waiting on the first's transaction): exactly one visit; a
 * request confirmed twice, a time gone by, a cancellation that frees the time.
 */
import { PostgrestClient } from '@supabase/postgrest-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/servers.ts';
import { stopAll } from '../support/stop-all.ts';
import { until } from '../support/until.ts';
import { now as clockNow } from '../../core/clock.ts';

const HOUR = 3_600_000;
const ECUADOR = -5 * HOUR;

/** Written apart: the start times the rule allows, given the hours by ISO weekday in Ecuador's time. */
function expectedTimes(
  now: number,
  hours: Record<number, Array<[number, number]>>,
  taken: Array<[number, number]> = [],
): string[] {
  const out: string[] = [];
  const first = Math.ceil((now + 2 * HOUR) / (HOUR / 2)) * (HOUR / 2);
  for (let t = first; t <= now + 14 * 24 * HOUR; t += HOUR / 2) {
    const local = new Date(t + ECUADOR);
    const weekday = local.getUTCDay() === 0 ? 7 : local.getUTCDay();
    const minutes = local.getUTCHours() * 60 + local.getUTCMinutes();
    const fits = (hours[weekday] ?? []).some(([open, close]) => minutes >= open * 60 && minutes + 60 <= close * 60);
    if (fits && !taken.some(([a, b]) => t < b && t + HOUR > a)) out.push(new Date(t).toISOString());
  }
  return out;
}

const DEFAULT_HOURS = Object.fromEntries([1, 2, 3, 4, 5, 6].map((d) => [d, [[9, 18]] as Array<[number, number]>]));

describe('visits (docs/visits.md)', () => {
  let server: TestServer;
  let rest: PostgrestClient;
  let listing: { id: string; agent_id: string };

  beforeAll(async () => {
    server = await startTestServer('postgres');
    rest = new PostgrestClient(`${server.url}/rest/v1`, { headers: { apikey: 'anon-key' } });
    [listing] = (await server.sql<{ id: string; agent_id: string }>(
      "select id::text as id, agent_id::text as agent_id from internal.listings where status = '1' and country_code = 'EC' and agent_id is not null order by id limit 1",
    )) as [{ id: string; agent_id: string }];
  }, 240_000);
  afterAll(() => stopAll(server));

  const times = async (listingId: string, agentId?: string) => {
    const { data, error } = await rest.rpc('visit_times', {
      listing_id: Number(listingId),
      ...(agentId ? { agent_id: Number(agentId) } : {}),
    });
    expect(error).toBeNull();
    return (data as string[]).map((t) => new Date(t).toISOString());
  };
  const dbNow = async () =>
    new Date(String((await server.sql<{ now: string }>('select internal.now()::text as now'))[0]?.now)).getTime();
  const request = async (agentId: string | null, proposed: string[]) =>
    String(
      (
        await server.sql<{ id: string }>(
          `insert into internal.visit_requests (listing_id, agent_id, recipient_email, mode, proposed, name, email)
           values ($1, $2, 'agent@example.org', 'video', $3::timestamptz[], 'Visitante', 'v@example.org') returning id::text as id`,
          [listing.id, agentId, proposed],
        )
      )[0]?.id,
    );

  it("offers the listing's agent's times: Monday to Saturday 9:00-18:00 in Ecuador by default, the agent's own hours when set", async () => {
    const offered = await times(listing.id);
    // the rule's times at the moment the database answered (a half-hour boundary may pass between)
    const now = await dbNow();
    expect(offered.length).toBeGreaterThan(100);
    expect(offered.slice(1, -1)).toEqual(
      expectedTimes(now, DEFAULT_HOURS).filter((t) => t >= offered[1]! && t <= offered.at(-2)!),
    );
    for (const t of offered) expect(new Date(t).getUTCMinutes() % 30).toBe(0);

    // Tuesdays and Thursdays 14:00-17:00 only
    await server.sql(
      'insert into internal.agent_visiting_hours (agent_id, weekday, opens, closes) values ($1, 2, $2, $3), ($1, 4, $2, $3)',
      [listing.agent_id, '14:00', '17:00'],
    );
    const own = await times(listing.id);
    expect(own).toEqual(expectedTimes(await dbNow(), { 2: [[14, 17]], 4: [[14, 17]] }).filter((t) => t >= own[0]!));
    expect(own.length).toBeGreaterThanOrEqual(4 * 5 - 5);
    await server.sql('delete from internal.agent_visiting_hours where agent_id = $1', [listing.agent_id]);
  });

  it('takes a confirmed visit out of the times, and an unknown or inactive listing has none', async () => {
    const before = await times(listing.id);
    // a time with offered half hours on both sides (not a day's first or last)
    const at = before.find(
      (t, i) =>
        before[i - 1] === new Date(Date.parse(t) - HOUR / 2).toISOString() &&
        before[i + 1] === new Date(Date.parse(t) + HOUR / 2).toISOString(),
    )!;
    const id = await request(listing.agent_id, [at]);
    expect((await server.sql<{ s: string }>('select internal.confirm_visit($1, 1) as s', [id]))[0]?.s).toBe(
      'confirmed',
    );
    const after = await times(listing.id);
    const start = Date.parse(at);
    // the hour itself and the half hours that would overlap it
    for (const gone of [start - HOUR / 2, start, start + HOUR / 2])
      expect(after).not.toContain(new Date(gone).toISOString());
    expect(after.length).toBe(before.length - 3);
    expect(await times('999999999')).toEqual([]);
    // a cancellation frees the time again, once
    expect((await server.sql<{ s: string }>('select internal.cancel_visit($1) as s', [id]))[0]?.s).toBe('cancelled');
    expect(await times(listing.id)).toEqual(before);
    expect(
      (
        await server.sql<{ sequence: number; status: string }>(
          'select sequence, status from internal.visits where request_id = $1',
          [id],
        )
      )[0],
    ).toEqual({
      sequence: 1,
      status: 'cancelled',
    });
  });

  it('two confirmations of one agent for one time at once: exactly one visit; the other is told the time is taken', async () => {
    const at = (await times(listing.id))[20]!;
    const first = await request(listing.agent_id, [at]);
    const second = await request(listing.agent_id, [new Date(Date.parse(at) + HOUR / 2).toISOString(), at]);
    let inserted!: () => void;
    const firstInserted = new Promise<void>((r) => (inserted = r));
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    // the first confirmation's transaction stays open while the second runs: the second waits on it
    const a = server.db.transaction(async (q) => {
      const [row] = await q.query<{ s: string }>('select internal.confirm_visit($1, 1) as s', [first]);
      inserted();
      await held;
      return row?.s;
    });
    await firstInserted;
    let settled = false;
    const b = server.sql<{ s: string }>('select internal.confirm_visit($1, 2) as s', [second]).then((rows) => {
      settled = true;
      return rows[0]?.s;
    });
    await until(
      async () =>
        (
          await server.sql<{ n: number }>(
            "select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query like '%confirm_visit($1, 2)%'",
          )
        )[0]?.n === 1,
      10_000,
      'the second confirmation waiting on the first',
    );
    expect(settled).toBe(false);
    release();
    expect(await a).toBe('confirmed');
    expect(await b).toBe('taken');
    const visits = await server.sql<{ request_id: string }>(
      "select request_id::text as request_id from internal.visits where status = 'confirmed' and during @> $1::timestamptz",
      [at],
    );
    expect(visits).toEqual([{ request_id: first }]);
    // its other time (half an hour later) overlaps the confirmed hour too; a straight insert is refused by the constraint
    expect((await server.sql<{ s: string }>('select internal.confirm_visit($1, 1) as s', [second]))[0]?.s).toBe(
      'taken',
    );
    await expect(
      server.sql(
        "insert into internal.visits (request_id, agent_id, during) values ($1, $2, tstzrange($3::timestamptz, $3::timestamptz + interval '1 hour'))",
        [second, listing.agent_id, at],
      ),
    ).rejects.toThrow(/visits_no_double_booking/);
    // the first cannot be confirmed twice
    expect((await server.sql<{ s: string }>('select internal.confirm_visit($1, 1) as s', [first]))[0]?.s).toBe('done');
  });

  it("the team keeps a calendar too: a visit with no agent takes its time out of the team's times, and a second one at that time is told it is taken", async () => {
    const teamTimes = async () =>
      (
        await server.sql<{ t: string }>(
          "select t::text as t from internal.open_visit_times(null, internal.now(), internal.now() + interval '14 days') t",
        )
      ).map((r) => new Date(r.t).toISOString());
    const before = await teamTimes();
    const at = before[30]!;
    const first = await request(null, [at]);
    const second = await request(null, [new Date(Date.parse(at) + HOUR / 2).toISOString(), at]);
    expect((await server.sql<{ s: string }>('select internal.confirm_visit($1, 1) as s', [first]))[0]?.s).toBe(
      'confirmed',
    );
    const after = await teamTimes();
    for (const gone of [Date.parse(at) - HOUR / 2, Date.parse(at), Date.parse(at) + HOUR / 2])
      expect(after).not.toContain(new Date(gone).toISOString());
    expect((await server.sql<{ s: string }>('select internal.confirm_visit($1, 1) as s', [second]))[0]?.s).toBe(
      'taken',
    );
    expect((await server.sql<{ s: string }>('select internal.confirm_visit($1, 2) as s', [second]))[0]?.s).toBe(
      'taken',
    );
    await expect(
      server.sql(
        "insert into internal.visits (request_id, agent_id, during) values ($1, null, tstzrange($2::timestamptz, $2::timestamptz + interval '1 hour'))",
        [second, at],
      ),
    ).rejects.toThrow(/visits_no_double_booking/);
    // an agent's visit at that hour is the agent's own calendar, not the team's
    const agents = await request(listing.agent_id, [at]);
    expect((await server.sql<{ s: string }>('select internal.confirm_visit($1, 1) as s', [agents]))[0]?.s).toBe(
      'confirmed',
    );
    for (const id of [first, agents]) await server.sql('select internal.cancel_visit($1)', [id]);
    expect(await teamTimes()).toEqual(before);
  });

  it('a time gone by or a choice that is not one of the times cannot be confirmed', async () => {
    const past = await request(listing.agent_id, [new Date(clockNow() - HOUR).toISOString()]);
    expect((await server.sql<{ s: string }>('select internal.confirm_visit($1, 1) as s', [past]))[0]?.s).toBe('past');
    expect((await server.sql<{ s: string }>('select internal.confirm_visit($1, 2) as s', [past]))[0]?.s).toBe(
      'unknown',
    );
    expect((await server.sql<{ s: string }>('select internal.confirm_visit(0, 1) as s'))[0]?.s).toBe('unknown');
  });

  it('the public key reads times only: not the requests, not the visits, and it cannot confirm', async () => {
    for (const table of ['visit_requests', 'visits', 'agent_visiting_hours']) {
      const { error } = await rest
        .schema('internal' as 'public')
        .from(table)
        .select('*')
        .limit(1);
      expect(error, table).not.toBeNull();
    }
    const { error } = await rest.rpc('confirm_visit', { request: 1, choice: 1 });
    expect(error).not.toBeNull();
  });
});
