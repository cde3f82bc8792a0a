/**
 * The agents' area's data (docs/agent-area.md), as an agent's browser reaches it: signed in by
 * @supabase/supabase-js against our stand-in of Supabase Auth (a code by e-mail, read from the mail
 * the server sent), then through the same data API the elements use, with that session's JWT.
 * Row level security is the rule: agent A reads and moves her own leads and none of agent B's, the
 * team reads and moves all, the public key reads none; every change is in the lead's trail.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AuthClient } from '@supabase/auth-js';
import { SignJWT } from 'jose';
import sharp from 'sharp';
import { PostgrestClient } from '@supabase/postgrest-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/servers.ts';
import { LEAD_STATUSES } from '../../widgets/lib/data/agent-area.ts';

const A = 'ana.agente@example.com';
const B = 'bruno.agente@example.com';
const TEAM = 'oficina@example.com';

describe("the agents' area: a code by mail, a session, and only one's own leads", () => {
  let server: TestServer;
  const ids: Record<string, string> = {};
  const agent: Record<string, string> = {};

  /** A browser of its own (an address of its own): Supabase's Auth client and, signed in, the data API with its token, as supabase-js makes them. */
  const client = (ip: string) => {
    const headers = { apikey: 'local-anon-key', 'X-Forwarded-For': ip };
    const auth = new AuthClient({ url: `${server.url}/auth/v1`, headers, persistSession: false, autoRefreshToken: false, detectSessionInUrl: false });
    const rest = (token = 'local-anon-key') => new PostgrestClient(`${server.url}/rest/v1`, { headers: { ...headers, Authorization: `Bearer ${token}` } });
    return { auth, rest };
  };
  /** The codes mailed to an address, oldest first (the server writes each mail as an .eml file). */
  const codesFor = async (email: string): Promise<string[]> => {
    await server.drainOutbox();
    return readdirSync(server.outboxDir)
      .sort()
      .map((f) => readFileSync(join(server.outboxDir, f), 'utf8'))
      .filter((m) => m.split(/\r?\n/).some((line) => line.toLowerCase() === `to: ${email}`) && /^Auto-Submitted: auto-generated/im.test(m))
      .map((m) => /\b(\d{6})\b/.exec(m.slice(m.search(/\r?\n\r?\n/)))?.[1] ?? '');
  };

  const signIn = async (email: string, ip: string) => {
    // (the address's earlier codes forgotten: its one-a-minute limit is the first test's)
    await server.sql('delete from internal.auth_codes where lower(email) = $1', [email]);
    const sb = client(ip);
    expect((await sb.auth.signInWithOtp({ email, options: { shouldCreateUser: false } })).error).toBeNull();
    const code = (await codesFor(email)).at(-1) ?? '';
    const { data, error } = await sb.auth.verifyOtp({ email, token: code, type: 'email' });
    expect(error).toBeNull();
    expect(data.session?.access_token).toBeTruthy();
    return { sb, rest: sb.rest(data.session!.access_token), code, session: data.session! };
  };

  beforeAll(async () => {
    server = await startTestServer('postgres', { trustProxy: { hops: 1 } });
    const made = await server.sql<{ id: string; email: string }>(
      `insert into public.agents (first_name, last_name, email, country_code) values ('Ana', 'Agente', $1, 'EC'), ('Bruno', 'Agente', $2, 'EC')
       returning id::text as id, email`,
      [A, B],
    );
    for (const row of made) agent[row.email] = row.id;
    await server.sql(`with u as (insert into auth.users (email) values ($1) returning id) insert into internal.team_members (user_id) select id from u`, [
      TEAM,
    ]);
    const lead = async (key: string, owner: string | null) =>
      (
        await server.sql<{ id: string }>(
          `insert into public.inquiries (idempotency_key, name, email, message, recipient_email, recipient_kind, lead_agent_id)
           values ($1, 'Carla Compradora', 'carla@example.com', 'Hola, ¿sigue disponible?', 'x@example.com', $2, $3::bigint) returning id::text as id`,
          [key, owner ? 'lead_agent' : 'team', owner],
        )
      )[0]!.id;
    ids.a = await lead('area-a', agent[A]!);
    ids.b = await lead('area-b', agent[B]!);
    ids.team = await lead('area-team', null);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it("the statuses the area offers are the database's (the inquiries' check constraint, and move_lead's)", async () => {
    const [row] = await server.sql<{ def: string }>("select pg_get_constraintdef(oid) as def from pg_constraint where conname = 'inquiries_status_check'");
    expect([...(row?.def ?? '').matchAll(/'(\w+)'/g)].map((m) => m[1])).toEqual([...LEAD_STATUSES]);
  });

  it("mails a code to an agent's address only, with the same answer for any address; a code works once", async () => {
    const sb = client('10.70.0.1');
    expect((await sb.auth.signInWithOtp({ email: 'nadie@example.com', options: { shouldCreateUser: false } })).error).toBeNull();
    expect(await codesFor('nadie@example.com')).toEqual([]);
    const { code } = await signIn(A, '10.70.0.2');
    expect(code).toMatch(/^\d{6}$/);
    // the same code again, or another address's code: refused as Auth refuses it
    const again = await client('10.70.0.3').auth.verifyOtp({ email: A, token: code, type: 'email' });
    expect(again.error?.code).toBe('otp_expired');
    expect(again.error?.status).toBe(403);
    // a second code within the minute: Auth's rate limit
    const soon = await client('10.70.0.2').auth.signInWithOtp({ email: A, options: { shouldCreateUser: false } });
    expect(soon.error?.status).toBe(429);
  });

  it('row level security through the data API: each agent reads and moves her own leads, the team all, the public key none; every change is in the trail', async () => {
    const a = await signIn(A, '10.71.0.1');
    const b = await signIn(B, '10.71.0.2');
    const team = await signIn(TEAM, '10.71.0.3');
    const leadsOf = async (sb: PostgrestClient) => {
      const { data, error } = await sb.from('inquiries').select('id, status, owner_agent_id').order('received_at');
      expect(error).toBeNull();
      return (data ?? []).map((r) => r.id as string).filter((id) => Object.values(ids).includes(id));
    };
    expect(await leadsOf(a.rest)).toEqual([ids.a]);
    expect(await leadsOf(b.rest)).toEqual([ids.b]);
    expect((await leadsOf(team.rest)).sort()).toEqual([ids.a, ids.b, ids.team].sort());
    // the same in one call, as the page asks (public.my_leads)
    const called = async (sb: PostgrestClient) =>
      ((await sb.rpc('my_leads', { max_rows: 500 })).data as Array<{ id: string }>).map((r) => r.id).filter((id) => Object.values(ids).includes(id));
    expect(await called(a.rest)).toEqual([ids.a]);
    expect(await called(b.rest)).toEqual([ids.b]);
    expect((await called(team.rest)).sort()).toEqual([ids.a, ids.b, ids.team].sort());
    expect((await a.rest.rpc('my_leads', { max_rows: 5000 })).error?.hint).toBe('max_rows');
    // the public key: no lead, however it asks
    const anon = client('10.71.0.4').rest();
    const { error: anonError } = await anon.from('inquiries').select('id').limit(1);
    expect(anonError?.code).toBe('42501');
    expect((await anon.rpc('my_leads', {})).error).not.toBeNull();
    // A moves hers, with a note; she cannot move B's (it is not hers: not found)
    const moved = await a.rest.rpc('move_lead', { lead_id: ids.a, status: 'contacted', follow_up_on: '2026-06-20', note: 'Llamé: visita el sábado' });
    expect(moved.error).toBeNull();
    expect(moved.data).toEqual({ id: ids.a, status: 'contacted', follow_up_on: '2026-06-20' });
    const theirs = await a.rest.rpc('move_lead', { lead_id: ids.b, status: 'lost' });
    expect(theirs.error?.code).toBe('P0002');
    expect((await server.sql<{ status: string }>('select status from public.inquiries where id = $1', [ids.b]))[0]?.status).toBe('new');
    // nor may the public key call it
    expect((await anon.rpc('move_lead', { lead_id: ids.a, status: 'lost' })).error).not.toBeNull();
    // the trail: who, when, what; read by whoever reads the lead
    const trail = await a.rest.from('lead_events').select('lead_id, what, before, after, by_user').eq('lead_id', ids.a).order('at');
    expect(trail.error).toBeNull();
    expect(trail.data).toEqual([
      expect.objectContaining({
        what: 'changed',
        before: expect.objectContaining({ status: 'new' }),
        after: expect.objectContaining({ status: 'contacted', follow_up_on: '2026-06-20' }),
        by_user: a.session.user.id,
      }),
      expect.objectContaining({ what: 'note', by_user: a.session.user.id }),
    ]);
    expect((await b.rest.from('lead_events').select('id').eq('lead_id', ids.a)).data).toEqual([]);
    const notes = await team.rest.from('lead_notes').select('body, author').eq('lead_id', ids.a);
    expect(notes.data).toEqual([{ body: 'Llamé: visita el sábado', author: a.session.user.id }]);
    // the team moves any lead
    expect((await team.rest.rpc('move_lead', { lead_id: ids.b, status: 'won' })).error).toBeNull();
  });

  it('a session refreshes once per refresh token; signing out everywhere ends it; an agent who leaves cannot refresh', async () => {
    // (each step from a client of its own, holding no session: auth-js reads a session's expiry by
    // the process's Date, which the suite's clock does not move, and would refresh a stored one first)
    const fresh = (ip: string) => client(ip).auth;
    const { session } = await signIn(B, '10.72.0.1');
    const refreshed = await fresh('10.72.0.1').refreshSession({ refresh_token: session.refresh_token });
    expect(refreshed.error).toBeNull();
    expect(refreshed.data.session?.refresh_token).not.toBe(session.refresh_token);
    // the spent token is no longer good
    expect((await fresh('10.72.0.2').refreshSession({ refresh_token: session.refresh_token })).error?.status).toBe(400);
    const access = refreshed.data.session!.access_token;
    expect((await fresh('10.72.0.1').getUser(access)).data.user?.email).toBe(B);
    expect((await fresh('10.72.0.1').admin.signOut(access, 'global')).error).toBeNull();
    expect((await fresh('10.72.0.3').refreshSession({ refresh_token: refreshed.data.session!.refresh_token })).error?.status).toBe(400);
    // the signed-out session's access token: Auth no longer knows its session
    const user = await fetch(`${server.url}/auth/v1/user`, { headers: { apikey: 'local-anon-key', Authorization: `Bearer ${access}` } });
    expect(user.status).toBe(403);
    expect(await user.json()).toMatchObject({ error_code: 'session_not_found' });
    // a deactivated agent: no code, no refresh
    const other = await signIn(A, '10.72.0.4');
    await server.sql('update public.agents set active = false where email = $1', [A]);
    expect((await fresh('10.72.0.5').refreshSession({ refresh_token: other.session.refresh_token })).error?.status).toBe(400);
    const before = (await codesFor(A)).length;
    // (her earlier codes forgotten, so that the address's own limit does not answer instead)
    await server.sql('delete from internal.auth_codes where lower(email) = $1', [A]);
    expect((await client('10.72.0.6').auth.signInWithOtp({ email: A, options: { shouldCreateUser: false } })).error).toBeNull();
    expect((await codesFor(A)).length).toBe(before);
    await server.sql('update public.agents set active = true where email = $1', [A]);
  });
  it('the team reassigns a lead: the new owner sees it, the old one no longer does, the trail and the CRM say so; an agent cannot', async () => {
    const a = await signIn(A, '10.73.0.1');
    const b = await signIn(B, '10.73.0.2');
    const team = await signIn(TEAM, '10.73.0.3');
    const lead = (
      await server.sql<{ id: string }>(
        `insert into public.inquiries (idempotency_key, name, email, message, recipient_email, recipient_kind, lead_agent_id)
       values ('area-reassign', 'Diego Dueño', 'diego@example.com', 'Quiero vender', 'x@example.com', 'lead_agent', $1::bigint) returning id::text as id`,
        [agent[A]],
      )
    )[0]!.id;
    await server.sql(
      `insert into internal.webhook_endpoints (url, events, secret, allow_private) values ('http://127.0.0.1:9/hook', array['lead.reassigned'], 'whsec_dGVzdHRlc3R0ZXN0dGVzdHRlc3R0ZXN0', true)`,
    );
    // an agent may not give away a lead, even her own
    expect((await a.rest.rpc('reassign_lead', { lead_id: lead, agent_id: Number(agent[B]) })).error?.code).toBe('42501');
    const given = await team.rest.rpc('reassign_lead', { lead_id: lead, agent_id: Number(agent[B]), reason: 'Bruno habla inglés' });
    expect(given.error).toBeNull();
    const seen = async (who: { rest: PostgrestClient }) => ((await who.rest.from('inquiries').select('id').eq('id', lead)).data ?? []).length;
    expect(await seen(b)).toBe(1);
    expect(await seen(a)).toBe(0);
    const trail = await b.rest.from('lead_events').select('what, before, after, by_user').eq('lead_id', lead);
    expect(trail.data).toEqual([
      expect.objectContaining({
        what: 'reassigned',
        before: expect.objectContaining({ owner_agent_id: Number(agent[A]) }),
        after: expect.objectContaining({ owner_agent_id: Number(agent[B]) }),
        by_user: team.session.user.id,
      }),
    ]);
    const hooks = await server.sql<{ payload: { type: string; data: Record<string, unknown> } }>(
      "select payload from internal.mail_outbox where kind = 'webhook' and payload->>'type' = 'lead.reassigned'",
    );
    expect(hooks.map((h) => h.payload.data)).toContainEqual({
      id: lead,
      from_agent_id: Number(agent[A]),
      to_agent_id: Number(agent[B]),
      reason: 'Bruno habla inglés',
      by: 'team',
    });
    // and the new owner is mailed the lead, with the team's reason
    expect(await server.sql("select recipient, payload from internal.mail_outbox where kind = 'lead-reassigned' and ref_id like $1", [`${lead}:%`])).toEqual([
      { recipient: B, payload: { reason: 'Bruno habla inglés' } },
    ]);
    // to an agent who is not ours: refused, nothing moved
    expect((await team.rest.rpc('reassign_lead', { lead_id: lead, agent_id: 987654321 })).error?.code).toBe('22023');
    expect(await seen(b)).toBe(1);
  });

  it('the team deactivates an agent: out of the directory, her open leads to the team, her session ended; new leads no longer name her', async () => {
    const c = await server.sql<{ id: string }>(
      `insert into public.agents (first_name, last_name, email, country_code) values ('Clara', 'Saliente', 'clara.saliente@example.com', 'EC') returning id::text as id`,
    );
    const clara = c[0]!.id;
    const gone = await signIn('clara.saliente@example.com', '10.74.0.1');
    const team = await signIn(TEAM, '10.74.0.2');
    const open = async (key: string, status: string) =>
      (
        await server.sql<{ id: string }>(
          `insert into public.inquiries (idempotency_key, name, email, message, recipient_email, recipient_kind, lead_agent_id, status)
         values ($1, 'Eva', 'eva@example.com', 'Hola', 'x@example.com', 'lead_agent', $2::bigint, $3) returning id::text as id`,
          [key, clara, status],
        )
      )[0]!.id;
    const [live, won] = [await open('area-clara-1', 'contacted'), await open('area-clara-2', 'won')];
    const anon = client('10.74.0.3').rest();
    expect((await anon.from('agents').select('id').eq('id', clara)).data).toHaveLength(1);
    expect((await gone.rest.rpc('deactivate_agent', { agent_id: Number(clara) })).error?.code).toBe('42501');
    const done = await team.rest.rpc('deactivate_agent', { agent_id: Number(clara) });
    expect(done.error).toBeNull();
    expect(done.data).toEqual({ agent_id: Number(clara), leads_moved: 1 });
    // the directory and her profile: gone
    expect((await anon.from('agents').select('id').eq('id', clara)).data).toEqual([]);
    // her open lead is the team's, her won one stays hers; she reads neither any more
    const owners = await server.sql<{ id: string; owner: string | null }>(
      'select id::text as id, owner_agent_id::text as owner from public.inquiries where id = any($1::uuid[]) order by received_at',
      [[live, won]],
    );
    expect(Object.fromEntries(owners.map((o) => [o.id, o.owner]))).toEqual({ [live]: null, [won]: clara });
    expect((await gone.rest.from('inquiries').select('id')).data).toEqual([]);
    expect((await client('10.74.0.4').auth.refreshSession({ refresh_token: gone.session.refresh_token })).error?.status).toBe(400);
    // a new inquiry naming her as its owner is refused, as any id not ours
    const inquiry = await fetch(`${server.url}/functions/v1/send-property-inquiry`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '10.74.0.5' },
      body: JSON.stringify({ name: 'Fede', email: 'fede@example.com', phone: '', message: 'Hola', idempotencyKey: 'area-clara-new', leadAgentId: clara }),
    });
    expect(inquiry.status).toBe(400);
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
      return (data as Array<{ id: number }>).map((v) => v.id).filter((id) => [mine.id, mine2.id, theirs.id].includes(id));
    };
    expect((await visitsOf(a)).sort()).toEqual([mine.id, mine2.id].sort());
    expect(await visitsOf(b)).toEqual([theirs.id]);
    expect((await anon.rpc('my_visits', range)).error).not.toBeNull();
    expect(
      (await a.rest.rpc('my_visits', { from_at: range.from_at, to_at: new Date(Date.parse(range.from_at) + 90 * 86_400_000).toISOString() })).error?.hint,
    ).toBe('range');

    // another's visit: not hers to act on, nothing changed
    expect((await a.rest.rpc('act_on_visit', { request_id: theirs.id, action: 'confirm', choice: 1 })).error?.code).toBe('P0002');
    expect((await anon.rpc('act_on_visit', { request_id: mine.id, action: 'confirm', choice: 1 })).error).not.toBeNull();
    // her second time confirmed: both mails, the CRM's webhook, the lead to "visit booked", as the mail's link does
    const confirmed = await a.rest.rpc('act_on_visit', { request_id: mine.id, action: 'confirm', choice: 2 });
    expect(confirmed.error).toBeNull();
    expect(confirmed.data).toEqual({ id: mine.id, result: 'confirmed' });
    const mails = async (id: number) =>
      (await server.sql<{ kind: string }>("select kind from internal.mail_outbox where ref_id = $1 and kind like 'visit-%' order by kind", [String(id)])).map(
        (m) => m.kind,
      );
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
    expect((await server.sql<{ status: string }>('select status from public.inquiries where id = $1', [mine.lead]))[0]?.status).toBe('visit_booked');
    const [shown] = ((await a.rest.rpc('my_visits', range)).data as Array<{ id: number; visit_start: string; location: string }>).filter(
      (v) => v.id === mine.id,
    );
    expect(new Date(shown!.visit_start).toISOString()).toBe(new Date(aTimes[1]!).toISOString());
    expect(shown!.location).toBeTruthy();
    // confirmed already: a second confirmation says so
    expect((await a.rest.rpc('act_on_visit', { request_id: mine.id, action: 'confirm', choice: 1 })).data).toEqual({ id: mine.id, result: 'done' });
    // another time: refused where her calendar is closed (the time she just booked), confirmed where it is open
    expect((await a.rest.rpc('act_on_visit', { request_id: mine2.id, action: 'propose', start_at: aTimes[1] })).data).toEqual({
      id: mine2.id,
      result: 'unavailable',
    });
    const moved = await a.rest.rpc('act_on_visit', { request_id: mine2.id, action: 'propose', start_at: aTimes[6], place: 'En la garita del conjunto' });
    expect(moved.data).toEqual({ id: mine2.id, result: 'confirmed' });
    // and cancelled: both told, the time free again
    expect((await a.rest.rpc('act_on_visit', { request_id: mine2.id, action: 'cancel' })).data).toEqual({ id: mine2.id, result: 'cancelled' });
    expect(await mails(mine2.id)).toEqual(['visit-cancelled', 'visit-cancelled-agent', 'visit-confirmed', 'visit-confirmed-agent']);
    expect(await open(agent[A]!)).toContain(aTimes[6]);
    // a bad action or place: a clear refusal
    expect((await a.rest.rpc('act_on_visit', { request_id: mine2.id, action: 'delete' })).error?.hint).toBe('action');
    expect((await a.rest.rpc('act_on_visit', { request_id: mine2.id, action: 'cancel', place: 'a\nb' })).error?.hint).toBe('place');

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
    const set = await a.rest.rpc('set_visiting_hours', { hours: [{ weekday: 2, opens: '14:00', closes: '17:00' }], days_off: [tuesdays[0]] });
    expect(set.error).toBeNull();
    expect(set.data).toEqual({ own: true, hours: [{ weekday: 2, opens: '14:00', closes: '17:00' }], days_off: [tuesdays[0]] });
    const offered = (((await anon.rpc('visit_times', { listing_id: Number(listing!.id), agent_id: Number(agent[A]) })).data as string[]) ?? []).map((t) =>
      new Date(Date.parse(t) - 5 * 3_600_000).toISOString(),
    );
    expect(offered.length).toBeGreaterThan(0);
    for (const local of offered) {
      expect(new Date(local).getUTCDay()).toBe(2);
      expect(local.slice(11, 16) >= '14:00' && local.slice(11, 16) <= '16:00').toBe(true);
      expect(local.slice(0, 10)).not.toBe(tuesdays[0]);
    }
    // hours that overlap, end before they start, or a day off gone by: refused, nothing changed
    const refused = async (hours: unknown, days_off: string[] = []) => (await a.rest.rpc('set_visiting_hours', { hours, days_off })).error;
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
    expect(((await anon.rpc('area_agents', { place: place!.path })).data as { agents: number[] }).agents).toContain(Number(agent[A]));
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
    expect(((await team.rest.from('agent_events').select('id').eq('agent_id', agent[A]!)).data ?? []).length).toBeGreaterThan(0);
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
    const face = await sharp({ create: { width: 600, height: 800, channels: 3, background: { r: 180, g: 120, b: 90 } } })
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
    expect((await a.rest.from('agent_events').select('what, by_user').eq('agent_id', agent[A]!).eq('what', 'picture')).data).toEqual([
      { what: 'picture', by_user: a.session.user.id },
    ]);
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
  it("the team's routing: a lead nothing names an agent for goes by the team's rules in order, else its default (the team, or an even spread); a departing agent's open leads move by them; the new owner is mailed", async () => {
    const team = await signIn(TEAM, '10.77.0.1');
    const a = await signIn(A, '10.77.0.2');
    const [place] = await server.sql<{ path: string }>("select path from internal.places where kind = 'city' order by listings desc limit 1");
    // only the team sees and sets it; each bad rule named by its position and field, nothing saved
    expect((await a.rest.rpc('save_routing', { default_route: 'spread', rules: [] })).error?.code).toBe('42501');
    const refused = async (rules: unknown[], default_route = 'team') => (await team.rest.rpc('save_routing', { default_route, rules })).error?.hint;
    expect(await refused([{ agent_id: Number(agent[B]), place: 'ninguna-parte' }])).toBe('place:1');
    expect(await refused([{ agent_id: Number(agent[B]) }, { agent_id: 987654321 }])).toBe('agent:2');
    expect(await refused([{ agent_id: Number(agent[B]), min_price: 300000, max_price: 100000 }])).toBe('price:1');
    expect(await refused([], 'everyone')).toBe('default');
    expect((await team.rest.rpc('routing_setup')).data).toEqual({ default: 'team', rules: [] });
    const saved = await team.rest.rpc('save_routing', {
      default_route: 'team',
      rules: [
        { agent_id: Number(agent[B]), source: 'spring-campaign' },
        { agent_id: Number(agent[A]), place: place!.path, property_type: 'house', min_price: 100000 },
      ],
    });
    expect(saved.error).toBeNull();
    expect((saved.data as { rules: unknown[] }).rules).toEqual([
      expect.objectContaining({ agent_id: Number(agent[B]), source: 'spring-campaign', place: null }),
      expect.objectContaining({ agent_id: Number(agent[A]), place: place!.path, property_type: 'house', min_price: 100000, max_price: null }),
    ]);

    // a general question from a campaign: the first rule's; one from nowhere: the team's
    const ask = async (key: string, utm?: Record<string, string>) => {
      const response = await fetch(`${server.url}/functions/v1/send-property-inquiry`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `10.77.1.${key.length}` },
        body: JSON.stringify({
          name: 'Rita Ruta',
          email: 'rita@example.com',
          phone: '',
          message: 'Busco casa',
          idempotencyKey: key,
          ...(utm ? { source: { element: 'exp-inquiry-form', utm } } : {}),
        }),
      });
      expect(response.status).toBe(200);
      const [row] = await server.sql<{ kind: string; owner: string | null; routed: Record<string, unknown> | null; to: string }>(
        'select recipient_kind as kind, owner_agent_id::text as owner, routed, recipient_email as to from public.inquiries where idempotency_key = $1',
        [key],
      );
      return row!;
    };
    expect(await ask('route-campaign-1', { utm_source: 'spring-campaign' })).toMatchObject({
      kind: 'routed',
      owner: agent[B],
      to: B,
      routed: { by: 'rule', agent_id: Number(agent[B]) },
    });
    expect(await ask('route-nowhere-1')).toMatchObject({ kind: 'team', owner: null, routed: null });
    // the default spread: each next lead to the agent the spread has given fewest
    await team.rest.rpc('save_routing', { default_route: 'spread', rules: (saved.data as { rules: unknown[] }).rules });
    const spread = [await ask('route-spread-1'), await ask('route-spread-22'), await ask('route-spread-333')];
    for (const lead of spread) expect(lead).toMatchObject({ kind: 'routed', routed: { by: 'spread' } });
    expect(new Set(spread.map((l) => l.owner)).size).toBe(3);
    await team.rest.rpc('save_routing', { default_route: 'team', rules: (saved.data as { rules: unknown[] }).rules });

    // an agent who leaves: her open lead from the campaign goes by the first rule, to B, who is mailed it
    const [dora] = await server.sql<{ id: string }>(
      "insert into public.agents (first_name, last_name, email, country_code) values ('Dora', 'Deja', 'dora.deja@example.com', 'EC') returning id::text as id",
    );
    const [open] = await server.sql<{ id: string }>(
      `insert into public.inquiries (idempotency_key, name, email, message, recipient_email, recipient_kind, lead_agent_id, element, utm)
       values ('route-dora', 'Olga', 'olga@example.com', 'Hola', 'dora.deja@example.com', 'lead_agent', $1::bigint, 'exp-inquiry-form', '{"utm_source": "spring-campaign"}') returning id::text as id`,
      [dora!.id],
    );
    expect((await team.rest.rpc('deactivate_agent', { agent_id: Number(dora!.id) })).data).toEqual({ agent_id: Number(dora!.id), leads_moved: 1 });
    const [moved] = await server.sql<{ owner: string; routed: Record<string, unknown> }>(
      'select owner_agent_id::text as owner, routed from public.inquiries where id = $1',
      [open!.id],
    );
    expect(moved).toMatchObject({ owner: agent[B], routed: { by: 'rule', agent_id: Number(agent[B]) } });
    await server.drainOutbox();
    const mailed = readdirSync(server.outboxDir)
      .map((f) => readFileSync(join(server.outboxDir, f), 'utf8'))
      .filter((m) => new RegExp(`^X-Inquiry-Id: ${open!.id}`, 'im').test(m) && m.split(/\r?\n/).some((line) => line.toLowerCase() === `to: ${B}`));
    expect(mailed).toHaveLength(1);
    expect(mailed[0]).toMatch(/^Subject: \[Reasignada \/ Reassigned\]/m);
    expect(mailed[0]).toContain('Motivo / Why: Su agente dej=C3=B3 la oficina / Their agent left the office');
    await team.rest.rpc('save_routing', { default_route: 'team', rules: [] });
  });
  it('her confirmed alert subscriptions are among her leads: hers only, confirmed only; the team reads all; the public key none', async () => {
    const a = await signIn(A, '10.78.0.1');
    const team = await signIn(TEAM, '10.78.0.2');
    const made = await server.sql<{ id: string }>(
      `insert into internal.saved_searches (email, email_key, filters, filters_key, frequency, lang, status, expires_at, confirmed_at, idempotency_key, client_hash, lead_agent_id, element)
       values ('sigue@example.com', 'sigue@example.com', '{"city": "Quito"}', 'k1', 'daily', 'es', 'active', internal.now() + interval '1 day', internal.now(), 'sub-a', 'h', $1::bigint, 'exp-property-search'),
              ('espera@example.com', 'espera@example.com', '{"city": "Quito"}', 'k2', 'daily', 'es', 'pending', internal.now() + interval '1 day', null, 'sub-a-pending', 'h', $1::bigint, null),
              ('otro@example.com', 'otro@example.com', '{"city": "Cuenca"}', 'k3', 'weekly', 'en', 'active', internal.now() + interval '1 day', internal.now(), 'sub-b', 'h', $2::bigint, null)
       returning id::text as id`,
      [agent[A], agent[B]],
    );
    const ids = made.map((m) => Number(m.id));
    const mine = await a.rest.rpc('my_alert_leads');
    expect(mine.error).toBeNull();
    expect((mine.data as Array<{ id: number; email: string; element: string }>).filter((r) => ids.includes(r.id))).toEqual([
      expect.objectContaining({ id: ids[0], email: 'sigue@example.com', frequency: 'daily', element: 'exp-property-search' }),
    ]);
    const all = ((await team.rest.rpc('my_alert_leads')).data as Array<{ id: number }>).map((r) => r.id).filter((id) => ids.includes(id));
    expect(all.sort()).toEqual([ids[0], ids[2]].sort());
    expect((await client('10.78.0.3').rest().rpc('my_alert_leads')).error).not.toBeNull();
    await server.sql('delete from internal.saved_searches where id = any($1::bigint[])', [ids]);
  });
  it("visitors' privacy requests and the retention job's last run: the team reads them, never an address; an agent and the public key do not", async () => {
    const a = await signIn(A, '10.78.1.1');
    const team = await signIn(TEAM, '10.78.1.2');
    const [made] = await server.sql<{ id: string }>(
      "insert into internal.privacy_requests (kind, email, asked_at) values ('access', 'pide.datos@example.com', internal.now()) returning id::text as id",
    );
    await server.applyRetention(0);
    try {
      const seen = await team.rest.rpc('privacy_overview', { max_rows: 5 });
      expect(seen.error).toBeNull();
      const overview = seen.data as {
        requests: Array<{ kind: string; answered_at: string | null }>;
        retention: { at: string; outcome: Record<string, number> } | null;
      };
      expect(overview.requests[0]).toMatchObject({ kind: 'access', answered_at: null });
      expect(JSON.stringify(overview)).not.toContain('pide.datos');
      expect(overview.retention?.outcome).toEqual(expect.objectContaining({ leads: expect.any(Number), mails: expect.any(Number) }));
      expect((await a.rest.rpc('privacy_overview')).error?.code).toBe('42501');
      expect((await client('10.78.1.3').rest().rpc('privacy_overview')).error).not.toBeNull();
    } finally {
      await server.sql('delete from internal.privacy_requests where id = $1::bigint', [made!.id]);
    }
  });

  it("a lead's consents in her list (public.my_leads): what was given and withdrawn, on her leads only, her home report's with each of her leads", async () => {
    const a = await signIn(A, '10.79.2.1');
    const b = await signIn(B, '10.79.2.2');
    const team = await signIn(TEAM, '10.79.2.3');
    const lead = async (key: string, email: string, owner: string) =>
      (
        await server.sql<{ id: string }>(
          `insert into public.inquiries (idempotency_key, name, email, message, recipient_email, recipient_kind, lead_agent_id)
           values ($1, 'Consuelo', $2, 'Hola', 'x@example.com', 'lead_agent', $3::bigint) returning id::text as id`,
          [key, email, owner],
        )
      )[0]!.id;
    const hers = await lead('consents-a', 'consuelo@example.com', agent[A]!);
    const other = await lead('consents-b', 'Consuelo+otra@Example.com', agent[B]!);
    const [search] = await server.sql<{ id: string }>(
      `insert into internal.saved_searches (email, email_key, filters, filters_key, frequency, lang, status, expires_at, idempotency_key, client_hash, home)
       values ('consuelo@example.com', 'consuelo@example.com', '{}', 'home:consents', 'monthly', 'es', 'active', internal.now() + interval '7 days', 'consents-s', 'x', '{"facts": {}}') returning id::text as id`,
    );
    await server.sql(
      `insert into internal.consents (purpose, email, inquiry_id, search_id, text, lang, notice_version, given_at, withdrawn_at, withdrawn_via) values
         ('marketing', 'consuelo@example.com', $1::uuid, null, 'Envíame...', 'es', '1.0', internal.now() - interval '2 days', null, null),
         ('other_agents', 'consuelo@example.com', $1::uuid, null, 'Otros...', 'es', '1.0', internal.now() - interval '2 days', internal.now(), 'my-data'),
         ('home_report', 'consuelo@example.com', null, $2::bigint, 'Envíame esta estimación...', 'es', '1.0', internal.now() - interval '1 day', null, null)`,
      [hers, search!.id],
    );
    type Row = { id: string; consents: Array<{ purpose: string; withdrawn_at: string | null }> | null };
    const consentsOf = async (who: { rest: PostgrestClient }, id: string) => {
      const { data, error } = await who.rest.rpc('my_leads', { max_rows: 1000 });
      expect(error).toBeNull();
      return (data as Row[]).find((l) => l.id === id);
    };
    try {
      // hers: given with the lead (one withdrawn), and her home report's (the same mailbox)
      expect((await consentsOf(a, hers))?.consents?.map((c) => [c.purpose, c.withdrawn_at !== null])).toEqual([
        ['marketing', false],
        ['other_agents', true],
        ['home_report', false],
      ]);
      // B's lead of the same visitor shows the home report's; A never reads B's lead
      expect((await consentsOf(b, other))?.consents?.map((c) => c.purpose)).toEqual(['home_report']);
      expect(await consentsOf(a, other)).toBeUndefined();
      expect((await consentsOf(team, hers))?.consents).toHaveLength(3);
      // a signed-in agent may not read the table itself
      expect(
        (
          await a.rest
            .schema('internal' as never)
            .from('consents')
            .select('*')
        ).error,
      ).not.toBeNull();
      // her report unsubscribed (its mail's link): the consent goes with it
      await server.sql('select internal.unsubscribe_search($1::bigint)', [search!.id]);
      expect(await server.sql("select withdrawn_via from internal.consents where purpose = 'home_report' and search_id = $1::bigint", [search!.id])).toEqual([
        { withdrawn_via: 'unsubscribe' },
      ]);
    } finally {
      await server.sql('delete from public.inquiries where id = any($1::uuid[])', [[hers, other]]);
      await server.sql('delete from internal.saved_searches where id = $1::bigint', [search!.id]);
    }
  });

  it("her listings' weeks: views and saves counted by the listing-events function (counts only), with the inquiries and visit requests of each week; hers only, the team's when it names her", async () => {
    const a = await signIn(A, '10.79.0.1');
    const b = await signIn(B, '10.79.0.2');
    const team = await signIn(TEAM, '10.79.0.3');
    const [listing] = await server.sql<{ id: string }>(
      "update internal.listings set agent_id = $1::bigint where id = (select id from internal.listings where is_public and country_code = 'EC' order by id desc limit 1) returning id::text as id",
      [agent[A]],
    );
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
    type Figures = Array<{ id: number; weeks: Array<{ week: string; views: number; saves: number; inquiries: number; visit_requests: number }> }>;
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
  it("a token of a hosted project's Auth, which links nothing of ours: the agent whose address it carries, while no sign-in holds her", async () => {
    const [hosted] = await server.sql<{ id: string }>(
      "insert into public.agents (first_name, last_name, email, country_code) values ('Helena', 'Hosted', 'Helena.Hosted@example.com', 'EC') returning id::text as id",
    );
    await server.sql(
      `insert into public.inquiries (idempotency_key, name, email, message, recipient_email, recipient_kind, lead_agent_id)
       values ('hosted-1', 'Iris', 'iris@example.com', 'Hola', 'x@example.com', 'lead_agent', $1::bigint)`,
      [hosted!.id],
    );
    const [{ value } = { value: '' }] = await server.sql<{ value: string }>("select value from internal.settings where name = 'jwt_secret'");
    /** a token as Auth signs it: the user's id (none of ours knows it) and the address it verified */
    const token = (email: string) =>
      new SignJWT({ role: 'authenticated', email, app_metadata: { provider: 'email' } })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(crypto.randomUUID())
        .setAudience('authenticated')
        .setIssuedAt()
        .setExpirationTime('10m')
        .sign(new TextEncoder().encode(value));
    const rest = async (email: string) => client('10.80.0.1').rest(await token(email));
    const leads = async (email: string) => ((await (await rest(email)).from('inquiries').select('name')).data ?? []).map((r) => r.name as string);
    expect(await leads('helena.hosted@example.com')).toEqual(['Iris']);
    expect(((await (await rest('helena.hosted@example.com')).rpc('my_role')).data as { agent_id: number }).agent_id).toBe(Number(hosted!.id));
    // another address: nothing; once a sign-in holds her, a token of another user with her address: nothing
    expect(await leads('alguien@example.com')).toEqual([]);
    await server.sql(
      "with u as (insert into auth.users (email) values ('helena.hosted@example.com') returning id) update public.agents set user_id = (select id from u) where id = $1::bigint",
      [hosted!.id],
    );
    expect(await leads('helena.hosted@example.com')).toEqual([]);
  });
});
