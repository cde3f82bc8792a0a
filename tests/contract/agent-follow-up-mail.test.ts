/**
 * Her morning mail of the leads to follow up (docs/agent-area.md "Her morning mail"), on a Tuesday
 * at 07:30 in Ecuador: the leads the database lists are those the page's rule calls due
 * (core/protocol/follow-up.ts followUpState) and the new ones from before the day, never won, lost,
 * spam, erased or another's (the team's list of agents counts them); the alert job queues one mail
 * a day for each agent and one for the team's own leads (to its inbox), from 07:00 to noon only,
 * however many runs at once; the mail as it is sent,
 * its visitor's words escaped; a lead moved before it is sent leaves it, and with none left it is
 * dropped, as is a day's mail sent after its day; her choice through the data API with her session
 * (her role says it), hers only.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { PostgrestClient } from '@supabase/postgrest-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ecuadorDay } from '../../core/protocol/calendar.ts';
import { followUpState } from '../../core/protocol/follow-up.ts';
import { A, areaBrowsers, B, startAgentArea, TEAM } from '../support/agent-area.ts';
import { atInstant, useClockAt } from '../support/clock-at.ts';
import type { TestServer } from '../support/servers.ts';
import { DEFAULTS } from '../../core/functions/defaults.ts';

const DAY = '2026-03-10';

describe("the agents' area: her morning mail of the leads to follow up", () => {
  // (07:30 in Ecuador; the alert job runs when the test says)
  useClockAt('2026-03-10T12:30:00Z');
  let server: TestServer;
  let agent: Record<string, string>;
  const { signIn, client } = areaBrowsers(() => server);
  let a: { rest: PostgrestClient };
  let b: { rest: PostgrestClient };
  let team: { rest: PostgrestClient };
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    ({ server, agent } = await startAgentArea({ alerts: { intervalSeconds: 0 } }));
    // Ana's leads, each a case of the rule: when it came (Ecuador's time), its status and follow-up day
    const leads: Array<
      [key: string, owner: string | null, name: string, received: string, status: string, followUp: string | null]
    > = [
      ['overdue', agent[A]!, 'Olga Atrasada', '2026-02-20T10:00', 'contacted', '2026-03-08'],
      ['today', agent[A]!, 'Tomás Hoy', '2026-02-25T10:00', 'offer', DAY],
      ['later', agent[A]!, 'Luis Luego', '2026-02-26T10:00', 'contacted', '2026-03-12'],
      ['newOld', agent[A]!, '<b>Eva</b> & Nueva', '2026-03-09T15:00', 'new', null],
      ['newToday', agent[A]!, 'Nico Hoy', '2026-03-10T07:10', 'new', null],
      ['newPlanned', agent[A]!, 'Pablo Plan', '2026-03-05T09:00', 'new', '2026-03-11'],
      ['newDue', agent[A]!, 'Nora Debida', '2026-03-01T09:00', 'new', '2026-03-09'],
      ['won', agent[A]!, 'Gana Cerrado', '2026-02-01T10:00', 'won', '2026-03-01'],
      ['lost', agent[A]!, 'Pedro Perdido', '2026-02-01T10:00', 'lost', '2026-03-09'],
      ['bruno', agent[B]!, 'Bea de Bruno', '2026-03-01T10:00', 'contacted', '2026-03-09'],
      ['teams', null, 'Tina del Equipo', '2026-03-01T10:00', 'contacted', '2026-03-09'],
    ];
    for (const [key, owner, name, received, status, followUp] of leads) {
      const [row] = await server.sql<{ id: string }>(
        `insert into public.inquiries (idempotency_key, name, email, phone, message, recipient_email, recipient_kind, lead_agent_id,
                                       received_at, status, follow_up_on)
         values ($1, $2, $3, '+593 99 123 4567', 'Hola', 'x@example.com', case when $4::bigint is null then 'team' else 'lead_agent' end,
                 $4::bigint, ($5::timestamp at time zone 'America/Guayaquil'), $6, $7::date)
         returning id::text as id`,
        [`morning-${key}`, name, `${key.toLowerCase()}@correo.example`, owner, received, status, followUp],
      );
      ids[key] = row!.id;
    }
    // and hers that are not hers to follow: one the spam check caught, one erased on the person's request
    for (const [key, column] of [
      ['spam', 'spam'],
      ['erased', 'erased_at'],
    ] as const) {
      const [row] = await server.sql<{ id: string }>(
        `insert into public.inquiries (idempotency_key, name, email, message, recipient_email, recipient_kind, lead_agent_id, received_at,
                                       status, follow_up_on, ${column})
         values ($1, 'Otro', $2, 'Hola', 'x@example.com', 'lead_agent', $3::bigint, internal.now() - interval '20 days', 'contacted',
                 '2026-03-09', ${column === 'spam' ? 'true' : 'internal.now()'})
         returning id::text as id`,
        [`morning-${key}`, `${key}@correo.example`, agent[A]!],
      );
      ids[key] = row!.id;
    }
    a = await signIn(A, '10.74.0.1');
    b = await signIn(B, '10.74.0.2');
    team = await signIn(TEAM, '10.74.0.3');
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  const keyOf = (id: string) => Object.entries(ids).find(([, v]) => v === id)?.[0];
  const listed = async (who: string) =>
    (
      await server.sql<{ id: string }>(
        'select id::text as id from internal.leads_to_follow_up where owner_agent_id = $1::bigint order by follow_up_on nulls last, received_at',
        [agent[who]!],
      )
    ).map((r) => keyOf(r.id));
  const mailsOf = (ref: string) =>
    server.sql<{ status: string; recipient: string }>(
      "select status, recipient from internal.mail_outbox where kind = 'follow-ups' and ref_id = $1",
      [ref],
    );
  const mailsTo = async (email: string): Promise<ParsedMail[]> => {
    const parsed = await Promise.all(
      readdirSync(server.outboxDir)
        .filter((f) => f.endsWith('.eml'))
        .map((f) => simpleParser(readFileSync(join(server.outboxDir, f)))),
    );
    return parsed
      .filter((m) => /^(Para seguir hoy|To follow up today)/.test(m.subject ?? '') && m.text?.length)
      .filter((m) => JSON.stringify(m.to).includes(email));
  };

  it("lists the leads the page calls due and the new ones from before the day: the longest due first; never won, lost, spam, erased or another's", async () => {
    expect(await listed(A)).toEqual(['overdue', 'newDue', 'today', 'newOld']);
    // the page's rule (followUpState) on each of her leads, and the new ones of an earlier day without a follow-up day
    const hers = await server.sql<{ id: string; status: string; follow_up_on: string | null; received_at: string }>(
      `select id::text as id, status, follow_up_on::text as follow_up_on, received_at from public.inquiries
        where owner_agent_id = $1::bigint and not spam and erased_at is null`,
      [agent[A]!],
    );
    const due = hers
      .filter((l) => {
        const state = followUpState(l, DAY);
        return (
          state === 'overdue' ||
          state === 'today' ||
          (!l.follow_up_on && l.status === 'new' && ecuadorDay(l.received_at) < DAY)
        );
      })
      .map((l) => keyOf(l.id));
    expect(new Set(await listed(A))).toEqual(new Set(due));
    expect(await listed(B)).toEqual(['bruno']);
    // the team's list of agents says how many each has to follow up today: who is behind
    const { data, error } = await team.rest.rpc('team_agents');
    expect(error).toBeNull();
    const count = (id: string) =>
      (data as Array<{ id: number; to_follow_up: number }>).find((r) => String(r.id) === id)?.to_follow_up;
    expect([count(agent[A]!), count(agent[B]!)]).toEqual([4, 1]);
  });

  it('her choice is hers: read and set with her session; the team, the public key and a choice of neither refused', async () => {
    // (her role, which the area reads first, says it: an agent's, on until she turns it off)
    const wants = async (who: { rest: PostgrestClient }) =>
      ((await who.rest.rpc('my_role')).data as { follow_up_mail: boolean | null }).follow_up_mail;
    expect(await wants(a)).toBe(true);
    const off = await b.rest.rpc('set_my_follow_up_mail', { wanted: false });
    expect(off.error).toBeNull();
    expect(off.data).toBe(false);
    expect(await wants(b)).toBe(false);
    // Ana's is her own still
    expect(await wants(a)).toBe(true);
    const neither = await a.rest.rpc('set_my_follow_up_mail', { wanted: null });
    expect(neither.error).toMatchObject({ code: '22023', hint: 'wanted' });
    expect((await team.rest.rpc('set_my_follow_up_mail', { wanted: false })).error?.code).toBe('42501');
    expect(await wants(team)).toBeNull();
    expect((await client('10.74.0.9').rest().rpc('set_my_follow_up_mail', { wanted: false })).error).not.toBeNull();
    expect(
      (
        await server.sql<{ on: boolean }>('select follow_up_mail as on from public.agents where id = $1::bigint', [
          agent[A]!,
        ])
      )[0]?.on,
    ).toBe(true);
  });

  it("is queued once a day for each agent who wants it and for the team's own, from 07:00 to noon, however many runs at once", async () => {
    const queued = (instant: string) =>
      atInstant(server.db, instant, async (tx) => {
        await tx.query('select internal.queue_follow_up_mails()');
        return (
          await tx.query<{ ref_id: string }>(
            "select ref_id from internal.mail_outbox where kind = 'follow-ups' order by ref_id like 'team:%', ref_id",
          )
        ).map((r) => r.ref_id);
      });
    // 06:59 and 12:00 in Ecuador: none; 07:00 and 11:59: hers and the team's, of that day
    expect(await queued('2026-03-10T11:59:00Z')).toEqual([]);
    expect(await queued('2026-03-10T17:00:00Z')).toEqual([]);
    expect(await queued('2026-03-10T12:00:00Z')).toEqual([`${agent[A]}:${DAY}`, `team:${DAY}`]);
    expect(await queued('2026-03-11T16:59:00Z')).toEqual([`${agent[A]}:2026-03-11`, 'team:2026-03-11']);
    // at 07:30: hers and the team's, waiting to be sent (the job's own runs send at once)
    expect(await server.sql('select internal.queue_follow_up_mails() as n')).toEqual([{ n: 2 }]);
    expect(await mailsOf(`${agent[A]}:${DAY}`)).toMatchObject([{ recipient: A, status: 'pending' }]);
    // (a lead she closes before it goes leaves it: the next test reads the mail)
    expect((await a.rest.rpc('move_lead', { lead_id: ids.today, status: 'won' })).error).toBeNull();
    // three runs of the job at once and one after: still one mail, to her; none to Bruno, who turned it off
    await Promise.all([server.runAlerts(), server.runAlerts(), server.runAlerts()]);
    await server.runAlerts();
    expect(await mailsOf(`${agent[A]}:${DAY}`)).toMatchObject([{ recipient: A }]);
    expect(await mailsOf(`${agent[B]}:${DAY}`)).toEqual([]);
    expect(await mailsOf(`team:${DAY}`)).toMatchObject([{ recipient: 'team' }]);
  });

  it("is made when sent, from her leads then: the due ones first, each with its phone and address, the visitor's words escaped", async () => {
    await server.drainOutbox();
    const [mail, ...more] = await mailsTo(A);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe('Para seguir hoy: 3 contactos / To follow up today: 3 leads');
    const text = mail!.text ?? '';
    expect(text).toContain('Hola Ana, / Hi Ana,');
    expect(text).toContain('Seguimiento pendiente / Follow-up due (2)');
    expect(text).toContain('Olga Atrasada — Seguimiento pendiente desde el 8 mar / Follow-up was due 8 Mar');
    expect(text).toContain('Nora Debida — Seguimiento pendiente desde el 9 mar / Follow-up was due 9 Mar');
    expect(text).toContain('Nuevos, aún sin contactar / New, not contacted yet (1)');
    expect(text).toContain('<b>Eva</b> & Nueva — Llegó el 9 mar / Came 9 Mar');
    expect(text.indexOf('Olga')).toBeLessThan(text.indexOf('Eva'));
    for (const gone of ['Tomás Hoy', 'Luis Luego', 'Nico Hoy', 'Pablo Plan', 'Gana', 'Pedro', 'Bea', 'Tina', 'Otro'])
      expect(text).not.toContain(gone);
    expect(text).toMatch(/Abrir tus contactos \/ Open your leads: https?:\/\/[^\s]+\/es\/agente\n/);
    const html = String(mail!.html);
    expect(html).toContain('&lt;b&gt;Eva&lt;/b&gt; &amp; Nueva');
    expect(html).not.toContain('<b>Eva</b>');
    expect(html).toContain('href="tel:+593991234567"');
    expect(html).toContain('href="mailto:overdue@correo.example"');
    expect(await mailsOf(`${agent[A]}:${DAY}`)).toMatchObject([{ status: 'sent' }]);
    // the team's inbox, of the team's own lead (no agent's)
    const [teams] = await mailsTo(DEFAULTS.teamInbox);
    expect(teams!.subject).toBe('Para seguir hoy: 1 contacto / To follow up today: 1 lead');
    expect(teams!.text).toContain('Hola, / Hi,');
    expect(teams!.text).toContain('Estos contactos propios del equipo, sin agente asignado, esperan hoy.');
    expect(teams!.text).toContain('Tina del Equipo — Seguimiento pendiente desde el 9 mar');
    expect(teams!.text).not.toContain('Olga');
  });

  it('with nothing left to follow up, or sent after its day, it is dropped', async () => {
    // Bruno wants it again: queued at the next run; his one lead moved meanwhile, nothing is sent
    expect((await b.rest.rpc('set_my_follow_up_mail', { wanted: true })).data).toBe(true);
    expect(await server.sql('select internal.queue_follow_up_mails() as n')).toEqual([{ n: 1 }]);
    expect(await mailsOf(`${agent[B]}:${DAY}`)).toMatchObject([{ status: 'pending' }]);
    expect(
      (await b.rest.rpc('move_lead', { lead_id: ids.bruno, status: 'contacted', follow_up_on: '2026-03-13' })).error,
    ).toBeNull();
    // and yesterday's mail of Ana's, held back until today
    await server.sql("select internal.enqueue_mail('follow-ups', $1, $2)", [`${agent[A]}:2026-03-09`, A]);
    await server.drainOutbox();
    expect(await mailsOf(`${agent[B]}:${DAY}`)).toMatchObject([{ status: 'dropped' }]);
    expect(await mailsOf(`${agent[A]}:2026-03-09`)).toMatchObject([{ status: 'dropped' }]);
    expect(await mailsTo(B)).toEqual([]);
    expect(await mailsTo(A)).toHaveLength(1);
  });
});
