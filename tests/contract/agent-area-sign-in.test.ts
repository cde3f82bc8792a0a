/**
 * Signing in to the agents' area (docs/agent-area.md), as an agent's browser does it: a code by
 * e-mail from @supabase/supabase-js against our stand-in of Supabase Auth (read from the mail the
 * server sent), mailed to an agent's address only and good once; a session that refreshes once per
 * refresh token and ends when she signs out everywhere or leaves; and a token of a hosted project's
 * Auth, which names the agent by the address it carries; an agent of the seed, signed in to a fresh
 * database, has her leads to work. The browsers are tests/support/agent-area.ts.
 */
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A, areaBrowsers, B, startAgentArea, TEAM } from '../support/agent-area.ts';
import type { TestServer } from '../support/servers.ts';

describe("the agents' area: a code by mail, a session, a hosted project's token", () => {
  let server: TestServer;
  const { client, codesFor, signIn } = areaBrowsers(() => server);

  beforeAll(async () => {
    ({ server } = await startAgentArea());
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it("mails a code to an agent's address only, with the same answer for any address; a code works once", async () => {
    const sb = client('10.70.0.1');
    expect(
      (await sb.auth.signInWithOtp({ email: 'nadie@example.com', options: { shouldCreateUser: false } })).error,
    ).toBeNull();
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
    expect(
      (await fresh('10.72.0.3').refreshSession({ refresh_token: refreshed.data.session!.refresh_token })).error?.status,
    ).toBe(400);
    // the signed-out session's access token: Auth no longer knows its session
    const user = await fetch(`${server.url}/auth/v1/user`, {
      headers: { apikey: 'local-anon-key', Authorization: `Bearer ${access}` },
    });
    expect(user.status).toBe(403);
    expect(await user.json()).toMatchObject({ error_code: 'session_not_found' });
    // a deactivated agent: no code, no refresh
    const other = await signIn(A, '10.72.0.4');
    await server.sql('update public.agents set active = false where email = $1', [A]);
    expect(
      (await fresh('10.72.0.5').refreshSession({ refresh_token: other.session.refresh_token })).error?.status,
    ).toBe(400);
    const before = (await codesFor(A)).length;
    // (her earlier codes forgotten, so that the address's own limit does not answer instead)
    await server.sql('delete from internal.auth_codes where lower(email) = $1', [A]);
    expect(
      (await client('10.72.0.6').auth.signInWithOtp({ email: A, options: { shouldCreateUser: false } })).error,
    ).toBeNull();
    expect((await codesFor(A)).length).toBe(before);
    await server.sql('update public.agents set active = true where email = $1', [A]);
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
    const [{ value } = { value: '' }] = await server.sql<{ value: string }>(
      "select value from internal.settings where name = 'jwt_secret'",
    );
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
    const leads = async (email: string) =>
      ((await (await rest(email)).from('inquiries').select('name')).data ?? []).map((r) => r.name as string);
    expect(await leads('helena.hosted@example.com')).toEqual(['Iris']);
    expect(
      ((await (await rest('helena.hosted@example.com')).rpc('my_role')).data as { agent_id: number }).agent_id,
    ).toBe(Number(hosted!.id));
    // another address: nothing; once a sign-in holds her, a token of another user with her address: nothing
    expect(await leads('alguien@example.com')).toEqual([]);
    await server.sql(
      "with u as (insert into auth.users (email) values ('helena.hosted@example.com') returning id) update public.agents set user_id = (select id from u) where id = $1::bigint",
      [hosted!.id],
    );
    expect(await leads('helena.hosted@example.com')).toEqual([]);
  });

  it("a fresh database's agent has leads to work (the seed's, server/seed/leads.ts): hers only, newest first (the newest still new), a seller's with the estimate the database made; her listings have their views and saves", async () => {
    const [first] = await server.sql<{ id: string; email: string }>(
      "select id::text as id, email from public.agents where country_code = 'EC' and active order by id limit 1",
    );
    const seeded = await server.sql<{ id: string; owner: string }>(
      "select id::text as id, owner_agent_id::text as owner from public.inquiries where idempotency_key like 'seed-lead-%'",
    );
    const hers = seeded.filter((l) => l.owner === first!.id).map((l) => l.id);
    expect(hers.length).toBeGreaterThanOrEqual(8);
    const me = await signIn(first!.email, '10.71.0.9');
    const { data, error } = await me.rest.rpc('my_leads', { max_rows: 500 });
    expect(error).toBeNull();
    type Row = { id: string; received_at: string; status: string; seller: { estimate?: { value?: number } } | null };
    const rows = data as Row[];
    // (only the seed's: a test may give her a lead of its own)
    const seededIds = new Set(seeded.map((l) => l.id));
    expect(
      rows
        .map((r) => r.id)
        .filter((id) => seededIds.has(id))
        .sort(),
    ).toEqual([...hers].sort());
    const times = rows.map((r) => Date.parse(r.received_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(rows.find((r) => seededIds.has(r.id))?.status).toBe('new');
    // a seller's lead as the inquiry function stores it: the home's facts and what the estimate answered then
    const sellers = await server.sql<{ value: number | null }>(
      "select (seller -> 'estimate' ->> 'value')::numeric as value from public.inquiries where idempotency_key like 'seed-lead-%' and seller is not null",
    );
    expect(sellers.length).toBeGreaterThan(0);
    expect(sellers.filter((s) => Number(s.value) > 0).length).toBeGreaterThan(sellers.length / 2);
    // the team reads them all, an agent of none of them none
    const team = await signIn(TEAM, '10.71.0.10');
    const all = ((await team.rest.rpc('my_leads', { max_rows: 1000 })).data as Row[]).map((r) => r.id);
    expect(seeded.every((l) => all.includes(l.id))).toBe(true);
    const b = await signIn(B, '10.71.0.11');
    const bs = ((await b.rest.rpc('my_leads', { max_rows: 500 })).data as Row[]).map((r) => r.id);
    expect(bs.filter((id) => seeded.some((l) => l.id === id))).toEqual([]);
    // her listings' figures (server/seed/listing-weeks.ts): views and saves on her newest, and her
    // leads about them counted in the weeks they came
    type Figures = Array<{
      id: number;
      weeks: Array<{ week: string; views: number; saves: number; inquiries: number }>;
    }>;
    const figures = (await me.rest.rpc('my_listing_figures', {})).data as Figures;
    const views = figures.flatMap((l) => l.weeks).reduce((sum, w) => sum + w.views, 0);
    expect(views).toBeGreaterThan(figures.length);
    const about = await server.sql<{ listing: number; week: string; n: number }>(
      `select listing_id::int as listing, internal.ecuador_week(received_at)::text as week, count(*)::int as n
         from public.inquiries where idempotency_key like 'seed-lead-%' and owner_agent_id = $1::bigint and listing_id is not null
        group by 1, 2`,
      [first!.id],
    );
    const counted = about.filter(({ listing, week }) =>
      figures.some((l) => l.id === listing && l.weeks.some((w) => w.week === week)),
    );
    expect(counted.length).toBeGreaterThan(0);
    for (const { listing, week, n } of counted)
      expect(figures.find((l) => l.id === listing)?.weeks.find((w) => w.week === week)?.inquiries).toBe(n);
  });
});
