/**
 * An agent's own pages of the agents' area (docs/agent-area.md), through the data API with her
 * session's JWT (tests/support/agent-area.ts): her calendar of visits, confirmed, moved or
 * cancelled with the mails' effects, and her visiting hours and days off, which bound the next
 * booking at once (docs/visits.md); her profile, saved field by field, the places she serves and
 * her photo; her listings' weeks of views, saves, inquiries and visit requests. Hers only: another
 * agent reads none of it, the team what it may, the public key nothing.
 */
import type { PostgrestClient } from '@supabase/postgrest-js';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A, areaBrowsers, B, startAgentArea, TEAM } from '../support/agent-area.ts';
import type { TestServer } from '../support/servers.ts';

describe("the agents' area: her calendar, her profile, her listings' figures", () => {
  let server: TestServer;
  let agent: Record<string, string>;
  const { client, signIn } = areaBrowsers(() => server);

  beforeAll(async () => {
    ({ server, agent } = await startAgentArea());
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it("her calendar: her visits and not another's, confirmed, moved or cancelled with the mails' effects; her hours and days off bound the next booking at once", async () => {
    const a = await signIn(A, '10.75.0.1');
    const b = await signIn(B, '10.75.0.2');
    const anon = client('10.75.0.3').rest();
    await server.sql(
      `insert into internal.webhook_endpoints (url, events, secret, allow_private) values ('http://127.0.0.1:9/visits', array['visit.confirmed', 'visit.cancelled'], 'whsec_dGVzdHRlc3R0ZXN0dGVzdHRlc3R0ZXN0', true)`,
    );
    const [listing] = await server.sql<{ id: string }>(
      "select id::text as id from internal.listings where is_public and country_code = 'EC' order by id limit 1",
    );
    const open = async (agentId: string) =>
      (
        await server.sql<{ t: string }>(
          "select to_json(t)#>>'{}' as t from internal.open_visit_times($1::bigint, internal.now(), internal.now() + interval '14 days') t",
          [agentId],
        )
      ).map((r) => r.t);
    /** a visit request in this agent's calendar, come as an inquiry of hers */
    const request = async (key: string, owner: string, times: string[]) => {
      const [lead] = await server.sql<{ id: string }>(
        `insert into public.inquiries (idempotency_key, name, email, message, recipient_email, recipient_kind, lead_agent_id, listing_id)
         values ($1, 'Vera Visitante', 'vera@example.com', 'Quiero verla', 'x@example.com', 'lead_agent', $2::bigint, $3::bigint) returning id::text as id`,
        [key, owner, listing!.id],
      );
      const [made] = await server.sql<{ id: string }>(
        `insert into internal.visit_requests (inquiry_id, listing_id, agent_id, recipient_email, mode, proposed, name, email)
         values ($1::uuid, $2::bigint, $3::bigint, 'agente@example.com', 'in_person', $4::timestamptz[], 'Vera Visitante', 'vera@example.com') returning id::text as id`,
        [lead!.id, listing!.id, owner, times],
      );
      return { lead: lead!.id, id: Number(made!.id) };
    };
    const aTimes = await open(agent[A]!);
    const mine = await request('cal-a-1', agent[A]!, aTimes.slice(0, 2));
    const mine2 = await request('cal-a-2', agent[A]!, aTimes.slice(4, 5));
    const theirs = await request('cal-b-1', agent[B]!, (await open(agent[B]!)).slice(0, 1));
    const range = {
      from_at: new Date(Date.parse(aTimes[0]!) - 3_600_000).toISOString(),
      to_at: new Date(Date.parse(aTimes[0]!) + 15 * 86_400_000).toISOString(),
    };
    const visitsOf = async (who: { rest: PostgrestClient }) => {
      const { data, error } = await who.rest.rpc('my_visits', range);
      expect(error).toBeNull();
      return (data as Array<{ id: number }>)
        .map((v) => v.id)
        .filter((id) => [mine.id, mine2.id, theirs.id].includes(id));
    };
    expect((await visitsOf(a)).sort()).toEqual([mine.id, mine2.id].sort());
    expect(await visitsOf(b)).toEqual([theirs.id]);
    expect((await anon.rpc('my_visits', range)).error).not.toBeNull();
    expect(
      (
        await a.rest.rpc('my_visits', {
          from_at: range.from_at,
          to_at: new Date(Date.parse(range.from_at) + 90 * 86_400_000).toISOString(),
        })
      ).error?.hint,
    ).toBe('range');

    // another's visit: not hers to act on, nothing changed
    expect(
      (await a.rest.rpc('act_on_visit', { request_id: theirs.id, action: 'confirm', choice: 1 })).error?.code,
    ).toBe('P0002');
    expect(
      (await anon.rpc('act_on_visit', { request_id: mine.id, action: 'confirm', choice: 1 })).error,
    ).not.toBeNull();
    // her second time confirmed: both mails, the CRM's webhook, the lead to "visit booked", as the mail's link does
    const confirmed = await a.rest.rpc('act_on_visit', { request_id: mine.id, action: 'confirm', choice: 2 });
    expect(confirmed.error).toBeNull();
    expect(confirmed.data).toEqual({ id: mine.id, result: 'confirmed' });
    const mails = async (id: number) =>
      (
        await server.sql<{ kind: string }>(
          "select kind from internal.mail_outbox where ref_id = $1 and kind like 'visit-%' order by kind",
          [String(id)],
        )
      ).map((m) => m.kind);
    expect(await mails(mine.id)).toEqual(['visit-confirmed', 'visit-confirmed-agent']);
    const hook = await server.sql<{ data: Record<string, unknown> }>(
      "select payload->'data' as data from internal.mail_outbox where kind = 'webhook' and payload->>'type' = 'visit.confirmed' and payload->'data'->>'id' = $1",
      [String(mine.id)],
    );
    expect(hook[0]?.data).toMatchObject({
      status: 'confirmed',
      agent_id: Number(agent[A]),
      start: new Date(aTimes[1]!).toISOString(),
      contact: { email: 'vera@example.com' },
    });
    expect(
      (await server.sql<{ status: string }>('select status from public.inquiries where id = $1', [mine.lead]))[0]
        ?.status,
    ).toBe('visit_booked');
    const [shown] = (
      (await a.rest.rpc('my_visits', range)).data as Array<{ id: number; visit_start: string; location: string }>
    ).filter((v) => v.id === mine.id);
    expect(new Date(shown!.visit_start).toISOString()).toBe(new Date(aTimes[1]!).toISOString());
    expect(shown!.location).toBeTruthy();
    // confirmed already: a second confirmation says so
    expect((await a.rest.rpc('act_on_visit', { request_id: mine.id, action: 'confirm', choice: 1 })).data).toEqual({
      id: mine.id,
      result: 'done',
    });
    // another time: refused where her calendar is closed (the time she just booked), confirmed where it is open
    expect(
      (await a.rest.rpc('act_on_visit', { request_id: mine2.id, action: 'propose', start_at: aTimes[1] })).data,
    ).toEqual({
      id: mine2.id,
      result: 'unavailable',
    });
    const moved = await a.rest.rpc('act_on_visit', {
      request_id: mine2.id,
      action: 'propose',
      start_at: aTimes[6],
      place: 'En la garita del conjunto',
    });
    expect(moved.data).toEqual({ id: mine2.id, result: 'confirmed' });
    // and cancelled: both told, the time free again
    expect((await a.rest.rpc('act_on_visit', { request_id: mine2.id, action: 'cancel' })).data).toEqual({
      id: mine2.id,
      result: 'cancelled',
    });
    expect(await mails(mine2.id)).toEqual([
      'visit-cancelled',
      'visit-cancelled-agent',
      'visit-confirmed',
      'visit-confirmed-agent',
    ]);
    expect(await open(agent[A]!)).toContain(aTimes[6]);
    // a bad action or place: a clear refusal
    expect((await a.rest.rpc('act_on_visit', { request_id: mine2.id, action: 'delete' })).error?.hint).toBe('action');
    expect(
      (await a.rest.rpc('act_on_visit', { request_id: mine2.id, action: 'cancel', place: 'a\nb' })).error?.hint,
    ).toBe('place');

    // her hours: Tuesdays 14:00-17:00, and the next Tuesday off; the listing's times follow at once
    const before = (await a.rest.rpc('my_visiting_hours')).data as { own: boolean; hours: unknown[] };
    expect(before.own).toBe(false);
    expect(before.hours).toHaveLength(6);
    const tuesdays = [
      ...new Set(
        (await open(agent[A]!))
          .map((t) => new Date(Date.parse(t) - 5 * 3_600_000))
          .filter((d) => d.getUTCDay() === 2)
          .map((d) => d.toISOString().slice(0, 10)),
      ),
    ];
    const set = await a.rest.rpc('set_visiting_hours', {
      hours: [{ weekday: 2, opens: '14:00', closes: '17:00' }],
      days_off: [tuesdays[0]],
    });
    expect(set.error).toBeNull();
    expect(set.data).toEqual({
      own: true,
      hours: [{ weekday: 2, opens: '14:00', closes: '17:00' }],
      days_off: [tuesdays[0]],
    });
    const offered = (
      ((await anon.rpc('visit_times', { listing_id: Number(listing!.id), agent_id: Number(agent[A]) }))
        .data as string[]) ?? []
    ).map((t) => new Date(Date.parse(t) - 5 * 3_600_000).toISOString());
    expect(offered.length).toBeGreaterThan(0);
    for (const local of offered) {
      expect(new Date(local).getUTCDay()).toBe(2);
      expect(local.slice(11, 16) >= '14:00' && local.slice(11, 16) <= '16:00').toBe(true);
      expect(local.slice(0, 10)).not.toBe(tuesdays[0]);
    }
    // hours that overlap, end before they start, or a day off gone by: refused, nothing changed
    const refused = async (hours: unknown, days_off: string[] = []) =>
      (await a.rest.rpc('set_visiting_hours', { hours, days_off })).error;
    expect(
      (
        await refused([
          { weekday: 1, opens: '09:00', closes: '12:00' },
          { weekday: 1, opens: '11:00', closes: '13:00' },
        ])
      )?.hint,
    ).toBe('hours_overlap');
    expect((await refused([{ weekday: 1, opens: '12:00', closes: '09:00' }]))?.hint).toBe('hours_order');
    expect((await refused([{ weekday: 8, opens: '09:00', closes: '12:00' }]))?.hint).toBe('hours_shape');
    expect((await refused([{ weekday: 1, opens: '09:00', closes: '12:00' }], ['2020-01-01']))?.hint).toBe('days_off');
    expect((await a.rest.rpc('my_visiting_hours')).data).toEqual(set.data);
    // another agent's week is her own
    expect((await b.rest.rpc('my_visiting_hours')).data).toMatchObject({ own: false, days_off: [] });
    await server.sql('delete from internal.agent_visiting_hours where agent_id = $1', [agent[A]]);
    await server.sql('delete from internal.agent_days_off where agent_id = $1', [agent[A]]);
  });
  it("her profile: saved field by field through the data API, the places she serves route sellers' leads, her photo made in sizes; every change in her trail; bad input refused with nothing lost", async () => {
    const a = await signIn(A, '10.76.0.1');
    const b = await signIn(B, '10.76.0.2');
    const team = await signIn(TEAM, '10.76.0.3');
    const anon = client('10.76.0.4').rest();
    const [place] = await server.sql<{ path: string; name: string }>(
      "select path, name from internal.places where kind = 'sector' order by listings desc limit 1",
    );
    const before = (await a.rest.rpc('my_profile')).data as Record<string, unknown>;
    expect(before).toMatchObject({ id: Number(agent[A]), email: A, places: [] });
    const saved = await a.rest.rpc('update_my_profile', {
      profile: {
        about: 'I help families find their home in Quito.',
        about_es: 'Ayudo a familias a encontrar su casa en Quito.',
        languages: ['Español', 'English', 'English'],
        specializations: ['Casas', 'Inversión'],
        places: [place!.path],
        instagram: 'https://www.instagram.com/ana.agente',
        website: 'https://ana.example.com/',
      },
    });
    expect(saved.error).toBeNull();
    expect(saved.data).toMatchObject({
      languages: ['Español', 'English'],
      locations_served: [place!.name],
      places: [{ name: place!.name, path: place!.path }],
    });
    // the public reads it (both languages), and a seller's lead about her place now finds her
    expect((await anon.from('agents').select('about, about_es, instagram').eq('id', agent[A]!)).data).toEqual([
      {
        about: 'I help families find their home in Quito.',
        about_es: 'Ayudo a familias a encontrar su casa en Quito.',
        instagram: 'https://www.instagram.com/ana.agente',
      },
    ]);
    expect(((await anon.rpc('area_agents', { place: place!.path })).data as { agents: number[] }).agents).toContain(
      Number(agent[A]),
    );
    // the trail: by her, what changed, before and after; hers to read, not another agent's; the team's
    const trail = await a.rest.from('agent_events').select('what, before, after, by_user').eq('agent_id', agent[A]!);
    expect(trail.data).toContainEqual(
      expect.objectContaining({
        by_user: a.session.user.id,
        what: expect.stringContaining('about_es'),
        after: expect.objectContaining({ locations_served: [place!.name] }),
      }),
    );
    expect((await b.rest.from('agent_events').select('id').eq('agent_id', agent[A]!)).data).toEqual([]);
    expect(
      ((await team.rest.from('agent_events').select('id').eq('agent_id', agent[A]!)).data ?? []).length,
    ).toBeGreaterThan(0);
    expect((await anon.from('agent_events').select('id').limit(1)).error?.code).toBe('42501');
    // bad input: refused by name, nothing changed
    const refused = async (profile: unknown) => (await a.rest.rpc('update_my_profile', { profile })).error?.hint;
    expect(await refused({ places: ['ninguna-parte/nada'] })).toBe('places');
    expect(await refused({ facebook: 'https://evil.example/ana' })).toBe('facebook');
    expect(await refused({ website: 'http://ana.example.com' })).toBe('website');
    expect(await refused({ about: 'x'.repeat(2001) })).toBe('about');
    expect(await refused({ languages: 'Español' })).toBe('languages');
    expect(await refused({ phone: 'llámame' })).toBe('phone');
    expect(await refused({ about: 'Otra cosa', places: ['ninguna-parte/nada'] })).toBe('places');
    expect((await a.rest.rpc('my_profile')).data).toEqual(saved.data);
    // the team has no profile of its own; the public key may not call it
    expect((await team.rest.rpc('update_my_profile', { profile: { about: 'x' } })).error?.code).toBe('42501');
    expect((await anon.rpc('update_my_profile', { profile: { about: 'x' } })).error).not.toBeNull();

    // her photo: an image's bytes, made in the listing photos' sizes, hers at once
    const upload = (token: string | null, body: Buffer, type = 'image/png') =>
      fetch(`${server.url}/agent/photo`, {
        method: 'POST',
        headers: { 'Content-Type': type, ...(token ? { Authorization: `Bearer ${token}` } : {}) },
        body: new Uint8Array(body),
      });
    const face = await sharp({
      create: { width: 600, height: 800, channels: 3, background: { r: 180, g: 120, b: 90 } },
    })
      .png()
      .toBuffer();
    const sent = await upload(a.session.access_token, face);
    expect(sent.status).toBe(200);
    const { picture } = (await sent.json()) as { picture: string };
    expect(picture).toMatch(/^\/media\/photos\/[0-9a-f]{32}\//);
    const served = await fetch(new URL(picture, server.url));
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toMatch(/^image\//);
    expect((await anon.from('agents').select('picture').eq('id', agent[A]!)).data).toEqual([{ picture }]);
    expect(
      (await a.rest.from('agent_events').select('what, by_user').eq('agent_id', agent[A]!).eq('what', 'picture')).data,
    ).toEqual([{ what: 'picture', by_user: a.session.user.id }]);
    // not an image, too small, too large, not signed in, not an agent: refused, her photo kept
    expect((await upload(a.session.access_token, Buffer.from('<svg onload=alert(1)>'))).status).toBe(400);
    const tiny = await sharp({ create: { width: 60, height: 60, channels: 3, background: '#888' } })
      .png()
      .toBuffer();
    expect(await (await upload(a.session.access_token, tiny)).json()).toMatchObject({ error: 'too_small' });
    expect((await upload(a.session.access_token, Buffer.alloc(11 * 1024 * 1024), 'image/jpeg')).status).toBe(413);
    expect((await upload(a.session.access_token, face, 'text/plain')).status).toBe(415);
    expect((await upload(null, face)).status).toBe(401);
    expect((await upload('not.a.token', face)).status).toBe(401);
    expect((await upload(team.session.access_token, face)).status).toBe(403);
    expect((await anon.from('agents').select('picture').eq('id', agent[A]!)).data).toEqual([{ picture }]);
  });

  it("her listings' weeks: views and saves counted by the listing-events function (counts only), with the inquiries and visit requests of each week; hers only, the team's when it names her", async () => {
    const a = await signIn(A, '10.79.0.1');
    const b = await signIn(B, '10.79.0.2');
    const team = await signIn(TEAM, '10.79.0.3');
    const [listing] = await server.sql<{ id: string }>(
      "update internal.listings set agent_id = $1::bigint where id = (select id from internal.listings where is_public and country_code = 'EC' order by id desc limit 1) returning id::text as id",
      [agent[A]],
    );
    // (its figures this test's own: the seed counted views on some listings, server/seed/listing-weeks.ts)
    await server.sql('delete from internal.listing_weeks where listing_id = $1::bigint', [listing!.id]);
    const count = (body: unknown) =>
      fetch(`${server.url}/functions/v1/listing-events`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '10.79.1.1' },
        body: JSON.stringify(body),
      });
    for (const event of ['view', 'view', 'save']) {
      const r = await count({ listingId: listing!.id, event });
      expect([r.status, await r.json()]).toEqual([202, { counted: true }]);
    }
    // a listing not on the market is not counted; a bad event is refused
    expect(await (await count({ listingId: '999999999', event: 'view' })).json()).toEqual({ counted: false });
    expect((await count({ listingId: listing!.id, event: 'like' })).status).toBe(400);
    expect((await count({ listingId: 'x; drop table', event: 'view' })).status).toBe(400);
    const [lead] = await server.sql<{ id: string }>(
      `insert into public.inquiries (idempotency_key, name, email, message, recipient_email, recipient_kind, lead_agent_id, listing_id)
       values ('figures-1', 'Fabio', 'fabio@example.com', 'Hola', 'x@example.com', 'listing_agent', $1::bigint, $2::bigint) returning id::text as id`,
      [agent[A], listing!.id],
    );
    await server.sql(
      `insert into internal.visit_requests (listing_id, agent_id, recipient_email, mode, proposed, name, email)
       values ($1::bigint, $2::bigint, 'x@example.com', 'video', array[internal.now() + interval '3 days'], 'Fabio', 'fabio@example.com')`,
      [listing!.id, agent[A]],
    );
    type Figures = Array<{
      id: number;
      weeks: Array<{ week: string; views: number; saves: number; inquiries: number; visit_requests: number }>;
    }>;
    const figures = async (who: { rest: PostgrestClient }, args: Record<string, unknown> = {}) => {
      const { data, error } = await who.rest.rpc('my_listing_figures', args);
      expect(error).toBeNull();
      return (data as Figures).find((l) => l.id === Number(listing!.id));
    };
    const mine = await figures(a, { weeks: 4 });
    expect(mine?.weeks).toHaveLength(4);
    expect(mine?.weeks.at(-1)).toMatchObject({ views: 2, saves: 1, inquiries: 1, visit_requests: 1 });
    expect(mine?.weeks.slice(0, 3).every((w) => w.views === 0)).toBe(true);
    // another agent's: none of hers; the team, naming her: hers
    expect(await figures(b)).toBeUndefined();
    expect((await team.rest.rpc('my_listing_figures', {})).error?.code).toBe('42501');
    expect((await figures(team, { agent_id: Number(agent[A]) }))?.weeks.at(-1)).toMatchObject({ views: 2 });
    expect((await client('10.79.0.4').rest().rpc('my_listing_figures', {})).error).not.toBeNull();
    expect((await a.rest.rpc('my_listing_figures', { weeks: 60 })).error?.hint).toBe('range');
    await server.sql('delete from public.inquiries where id = $1', [lead!.id]);
  });
});
