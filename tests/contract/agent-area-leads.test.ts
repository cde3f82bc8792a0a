/**
 * The agents' leads through the data API (docs/agent-area.md), with a session's JWT as an agent's
 * browser holds it (tests/support/agent-area.ts): row level security is the rule, agent A reads
 * and moves her own leads and none of agent B's, the team reads and moves all, the public key reads
 * none; every change is in the lead's trail. The team reassigns a lead, deactivates an agent and
 * routes the leads nothing names an agent for; an agent's confirmed alert subscriptions and her
 * leads' consents are in her list; the team reads the visitors' privacy requests, never an address.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PostgrestClient } from '@supabase/postgrest-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A, areaBrowsers, B, startAgentArea, TEAM } from '../support/agent-area.ts';
import type { TestServer } from '../support/servers.ts';
import { LEAD_STATUSES } from '../../widgets/lib/data/agent-area.ts';

describe("the agents' area: only one's own leads, and the team's", () => {
  let server: TestServer;
  let agent: Record<string, string>;
  const ids: Record<string, string> = {};
  const { client, signIn } = areaBrowsers(() => server);

  beforeAll(async () => {
    ({ server, agent } = await startAgentArea());
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
    const [row] = await server.sql<{ def: string }>(
      "select pg_get_constraintdef(oid) as def from pg_constraint where conname = 'inquiries_status_check'",
    );
    expect([...(row?.def ?? '').matchAll(/'(\w+)'/g)].map((m) => m[1])).toEqual([...LEAD_STATUSES]);
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
      ((await sb.rpc('my_leads', { max_rows: 500 })).data as Array<{ id: string }>)
        .map((r) => r.id)
        .filter((id) => Object.values(ids).includes(id));
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
    const moved = await a.rest.rpc('move_lead', {
      lead_id: ids.a,
      status: 'contacted',
      follow_up_on: '2026-06-20',
      note: 'Llamé: visita el sábado',
    });
    expect(moved.error).toBeNull();
    expect(moved.data).toEqual({ id: ids.a, status: 'contacted', follow_up_on: '2026-06-20' });
    const theirs = await a.rest.rpc('move_lead', { lead_id: ids.b, status: 'lost' });
    expect(theirs.error?.code).toBe('P0002');
    expect(
      (await server.sql<{ status: string }>('select status from public.inquiries where id = $1', [ids.b]))[0]?.status,
    ).toBe('new');
    // nor may the public key call it
    expect((await anon.rpc('move_lead', { lead_id: ids.a, status: 'lost' })).error).not.toBeNull();
    // the trail: who, when, what; read by whoever reads the lead
    const trail = await a.rest
      .from('lead_events')
      .select('lead_id, what, before, after, by_user')
      .eq('lead_id', ids.a)
      .order('at');
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
    expect((await a.rest.rpc('reassign_lead', { lead_id: lead, agent_id: Number(agent[B]) })).error?.code).toBe(
      '42501',
    );
    const given = await team.rest.rpc('reassign_lead', {
      lead_id: lead,
      agent_id: Number(agent[B]),
      reason: 'Bruno habla inglés',
    });
    expect(given.error).toBeNull();
    const seen = async (who: { rest: PostgrestClient }) =>
      ((await who.rest.from('inquiries').select('id').eq('id', lead)).data ?? []).length;
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
    expect(
      await server.sql(
        "select recipient, payload from internal.mail_outbox where kind = 'lead-reassigned' and ref_id like $1",
        [`${lead}:%`],
      ),
    ).toEqual([{ recipient: B, payload: { reason: 'Bruno habla inglés' } }]);
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
    expect(
      (await client('10.74.0.4').auth.refreshSession({ refresh_token: gone.session.refresh_token })).error?.status,
    ).toBe(400);
    // a new inquiry naming her as its owner is refused, as any id not ours
    const inquiry = await fetch(`${server.url}/functions/v1/send-property-inquiry`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '10.74.0.5' },
      body: JSON.stringify({
        name: 'Fede',
        email: 'fede@example.com',
        phone: '',
        message: 'Hola',
        idempotencyKey: 'area-clara-new',
        leadAgentId: clara,
      }),
    });
    expect(inquiry.status).toBe(400);
  });
  it("the team's routing: a lead nothing names an agent for goes by the team's rules in order, else its default (the team, or an even spread); a departing agent's open leads move by them; the new owner is mailed", async () => {
    const team = await signIn(TEAM, '10.77.0.1');
    const a = await signIn(A, '10.77.0.2');
    const [place] = await server.sql<{ path: string }>(
      "select path from internal.places where kind = 'city' order by listings desc limit 1",
    );
    // only the team sees and sets it; each bad rule named by its position and field, nothing saved
    expect((await a.rest.rpc('save_routing', { default_route: 'spread', rules: [] })).error?.code).toBe('42501');
    const refused = async (rules: unknown[], default_route = 'team') =>
      (await team.rest.rpc('save_routing', { default_route, rules })).error?.hint;
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
      expect.objectContaining({
        agent_id: Number(agent[A]),
        place: place!.path,
        property_type: 'house',
        min_price: 100000,
        max_price: null,
      }),
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
      const [row] = await server.sql<{
        kind: string;
        owner: string | null;
        routed: Record<string, unknown> | null;
        to: string;
      }>(
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
    expect((await team.rest.rpc('deactivate_agent', { agent_id: Number(dora!.id) })).data).toEqual({
      agent_id: Number(dora!.id),
      leads_moved: 1,
    });
    const [moved] = await server.sql<{ owner: string; routed: Record<string, unknown> }>(
      'select owner_agent_id::text as owner, routed from public.inquiries where id = $1',
      [open!.id],
    );
    expect(moved).toMatchObject({ owner: agent[B], routed: { by: 'rule', agent_id: Number(agent[B]) } });
    await server.drainOutbox();
    const mailed = readdirSync(server.outboxDir)
      .map((f) => readFileSync(join(server.outboxDir, f), 'utf8'))
      .filter(
        (m) =>
          new RegExp(`^X-Inquiry-Id: ${open!.id}`, 'im').test(m) &&
          m.split(/\r?\n/).some((line) => line.toLowerCase() === `to: ${B}`),
      );
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
    expect(
      (mine.data as Array<{ id: number; email: string; element: string }>).filter((r) => ids.includes(r.id)),
    ).toEqual([
      expect.objectContaining({
        id: ids[0],
        email: 'sigue@example.com',
        frequency: 'daily',
        element: 'exp-property-search',
      }),
    ]);
    const all = ((await team.rest.rpc('my_alert_leads')).data as Array<{ id: number }>)
      .map((r) => r.id)
      .filter((id) => ids.includes(id));
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
      expect(overview.retention?.outcome).toEqual(
        expect.objectContaining({ leads: expect.any(Number), mails: expect.any(Number) }),
      );
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
      expect(
        await server.sql(
          "select withdrawn_via from internal.consents where purpose = 'home_report' and search_id = $1::bigint",
          [search!.id],
        ),
      ).toEqual([{ withdrawn_via: 'unsubscribe' }]);
    } finally {
      await server.sql('delete from public.inquiries where id = any($1::uuid[])', [[hers, other]]);
      await server.sql('delete from internal.saved_searches where id = $1::bigint', [search!.id]);
    }
  });
});
