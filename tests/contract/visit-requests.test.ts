/**
 * Visits end to end on our server (docs/visits.md), with a real SMTP server and a webhook
 * receiver: a visitor abroad asks for three video times (an inquiry with a `visit` part), the
 * agent's mail has a link per time and "propose another", a link's page changes nothing until its
 * button is pressed, one click confirms, the visitor's mail carries an invitation that Mozilla's
 * ical.js reads with the right start in UTC and the agent as organiser, the other times can no
 * longer be confirmed, a cancellation reaches both with METHOD:CANCEL; two requests' links for one
 * agent's time clicked at once: one visit, the other told the time is taken; bad input refused by
 * name; the reminder the day before, once.
 */
import ICAL from 'ical.js';
import pg from 'pg';
import { clockSessionOptions } from '../../core/clock.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { SITE, useDeliveries } from '../support/deliveries.ts';
import { clientHeaders } from '../support/servers.ts';
import { type ReceivedMail } from '../support/smtp.ts';
import { until } from '../support/until.ts';
import { FROM_MADRID, inquiryBody } from '../support/inquiry.ts';

describe('visits: the request, the links, the calendar (docs/visits.md)', () => {
  const d = useDeliveries(['visit.requested', 'visit.confirmed', 'visit.cancelled']);
  let ip = 0;
  let listing: { id: string; title: string; agent_email: string; agent_name: string };

  beforeAll(async () => {
    [listing] = (await d.server.sql<typeof listing>(
      `select l.id::text as id, l.title, a.email as agent_email, concat_ws(' ', a.first_name, a.last_name) as agent_name
         from internal.listings l join public.agents a on a.id = l.agent_id
        where l.status = '1' and l.country_code = 'EC' and a.email is not null order by l.id limit 1`,
    )) as [typeof listing];
  }, 240_000);

  const times = async () => {
    const { data, error } = await d.rest.rpc('visit_times', { listing_id: Number(listing.id) });
    expect(error).toBeNull();
    return (data as string[]).map((t) => new Date(t).toISOString());
  };
  const ask = (body: Record<string, unknown>) =>
    fetch(`${d.server.url}/functions/v1/send-property-inquiry`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...clientHeaders(`10.45.0.${++ip}`) },
      body: JSON.stringify(body),
    });
  const request = (email: string, visit: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    ask({
      ...inquiryBody({ ...FROM_MADRID, email }),
      propertyId: listing.id,
      visit,
      ...extra,
    });
  /** the agent's mail of a visitor's request, once it is sent */
  const requestMail = async (email: string) => {
    await d.server.drainOutbox();
    return until(() =>
      d.mailsTo(listing.agent_email).find((m) => m.subject.startsWith('Solicitud de visita') && m.text.includes(email)),
    );
  };
  /** a visitor asks for one time in person; the agent's mail */
  const asked = async (email: string, time: string | undefined, extra: Record<string, unknown> = {}) => {
    expect((await request(email, { mode: 'in_person', times: [time] }, extra)).status).toBe(200);
    return requestMail(email);
  };
  /** the links of a mail, by kind, as paths on our server */
  const links = (mail: ReceivedMail, kind: string) =>
    [...mail.text.matchAll(new RegExp(`${SITE}((?:/es)?/visits/${kind}\\?token=[\\w-]{43})`, 'g'))].map(
      (m) => m[1] as string,
    );
  const page = (path: string, form?: Record<string, string>) =>
    fetch(
      `${d.server.url}${path}`,
      form
        ? {
            method: 'POST',
            headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams(form).toString(),
          }
        : {},
    );
  const heading = async (res: Response) => /<h1[^>]*>([^<]*)<\/h1>/.exec(await res.text())?.[1] ?? '';
  const event = (type: string, id: string) =>
    d.event((body) => body.includes(`"type":"${type}"`) && body.includes(`"id":"${id}"`), `the ${type} webhook`);
  /** the event in the calendar part of a mail, read by ical.js */
  const calendarOf = (mail: ReceivedMail) => {
    const part = mail.calendars.find((c) => /^text\/calendar/i.test(c.contentType)) ?? mail.calendars[0];
    expect(part, 'a calendar part').toBeTruthy();
    const root = new ICAL.Component(ICAL.parse(String(part?.content)));
    return {
      method: String(root.getFirstPropertyValue('method')),
      event: new ICAL.Event(root.getFirstSubcomponent('vevent') as ICAL.Component),
    };
  };

  it("a visitor in Madrid asks for three video times; one click on the agent's link confirms one, in both calendars; the others are spent; a cancellation reaches both", async () => {
    const open = await times();
    const proposed = [open[4], open[10], open[20]] as string[];
    const email = `madrid.${Date.now()}@example.org`;
    const key = `visit-${Date.now()}`;
    const res = await request(
      email,
      { mode: 'video', times: proposed, timeZone: 'Europe/Madrid' },
      { idempotencyKey: key },
    );
    expect(res.status, await res.clone().text()).toBe(200);
    const { id: inquiryId } = (await res.json()) as { id: string };
    // stored before any delivery, as an inquiry and a request; a retry is the same one
    const [stored] = await d.server.sql<{ id: string; mode: string; time_zone: string; n: number }>(
      'select r.id::text as id, r.mode, r.time_zone, cardinality(r.proposed) as n from internal.visit_requests r where r.inquiry_id = $1',
      [inquiryId],
    );
    expect(stored).toMatchObject({ mode: 'video', time_zone: 'Europe/Madrid', n: 3 });
    expect(
      (
        (await (
          await request(email, { mode: 'video', times: proposed, timeZone: 'Europe/Madrid' }, { idempotencyKey: key })
        ).json()) as { id: string }
      ).id,
    ).toBe(inquiryId);
    expect((await d.server.sql('select 1 from internal.visit_requests where email = $1', [email])).length).toBe(1);

    // the agent's mail: a link per time, in Ecuador's time, and "propose another time"
    await d.server.drainOutbox();
    const agentMail = await until(() =>
      d
        .mailsTo(listing.agent_email)
        .find((m) => m.subject.startsWith('Solicitud de visita / Visit request') && m.text.includes(email)),
    );
    expect(agentMail.replyTo).toContain(email);
    const confirms = links(agentMail, 'confirm');
    expect(confirms).toHaveLength(3);
    expect(links(agentMail, 'propose')).toHaveLength(1);
    const ecuador = new Intl.DateTimeFormat('es-EC', {
      timeZone: 'America/Guayaquil',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    for (const at of proposed) expect(agentMail.text).toContain(ecuador.format(new Date(at)));
    const requested = await event('visit.requested', inquiryId);
    expect(requested.data).toMatchObject({
      visit: { id: stored?.id, mode: 'video', times: proposed, time_zone: 'Europe/Madrid' },
      recipient: { email: listing.agent_email },
    });

    // the page shows the second time and changes nothing (a mail scanner opens links)
    const shown = await page(confirms[1] as string);
    expect(shown.status).toBe(200);
    const html = await shown.text();
    expect(html).toContain('Lucía Viajera');
    expect(html).toContain(
      `Confirmar ${new Intl.DateTimeFormat('es-EC', { timeZone: 'America/Guayaquil', weekday: 'long', day: 'numeric', month: 'long', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(proposed[1] as string))}`,
    );
    expect(
      (
        await d.server.sql(
          'select 1 from internal.visits v join internal.visit_requests r on r.id = v.request_id where r.email = $1',
          [email],
        )
      ).length,
    ).toBe(0);

    // one click confirms it, with the video call's link
    const done = await page(confirms[1] as string, { location: 'https://meet.example.org/lucia' });
    expect(done.status).toBe(200);
    expect(await heading(done)).toBe('La visita está confirmada');
    // the other times, and the same link again: already confirmed, nothing more
    for (const link of [confirms[0], confirms[2], confirms[1]] as string[]) {
      const again = await page(link, { location: '' });
      expect(await heading(again)).toBe('Esta visita ya está confirmada');
    }
    expect(
      await d.server.sql<{ n: number }>(
        "select count(*)::int as n from internal.visits v join internal.visit_requests r on r.id = v.request_id where r.email = $1 and v.status = 'confirmed'",
        [email],
      ),
    ).toEqual([{ n: 1 }]);

    // the visitor's mail, in Spanish, with the invitation a calendar reads: the right start in UTC, the agent organising
    await d.server.drainOutbox();
    const confirmed = await until(() =>
      d.mailsTo(email).find((m) => m.subject.startsWith('Tu visita está confirmada')),
    );
    const madrid = new Intl.DateTimeFormat('es-EC', {
      timeZone: 'Europe/Madrid',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(new Date(proposed[1] as string));
    expect(confirmed.text).toContain(madrid);
    expect(confirmed.text).toContain(`${ecuador.format(new Date(proposed[1] as string))} en Ecuador`);
    const invite = calendarOf(confirmed);
    expect(invite.method).toBe('REQUEST');
    expect(invite.event.startDate.toJSDate().toISOString()).toBe(proposed[1]);
    expect(invite.event.endDate.toJSDate().getTime() - invite.event.startDate.toJSDate().getTime()).toBe(3_600_000);
    expect(invite.event.startDate.zone?.tzid).toBe('America/Guayaquil');
    expect(String(invite.event.organizer).toLowerCase()).toBe(`mailto:${listing.agent_email.toLowerCase()}`);
    expect(invite.event.location).toBe('https://meet.example.org/lucia');
    expect(invite.event.attendees.map((a) => String(a.getFirstValue()).toLowerCase())).toEqual([`mailto:${email}`]);
    // the agent's calendar too
    const agentInvite = await until(() =>
      d
        .mailsTo(listing.agent_email)
        .find((m) => m.subject.startsWith('Visita confirmada / Visit confirmed') && m.text.includes(email)),
    );
    expect(calendarOf(agentInvite).event.uid).toBe(invite.event.uid);
    expect((await event('visit.confirmed', String(stored?.id))).data).toMatchObject({
      status: 'confirmed',
      mode: 'video',
      start: proposed[1],
      location: 'https://meet.example.org/lucia',
    });

    // the visitor cancels: both get METHOD:CANCEL for the same event, one sequence on; the time is free again
    const [cancel] = links(confirmed, 'cancel');
    expect(links(confirmed, 'reschedule')).toHaveLength(1);
    expect(await heading(await page(cancel as string))).toBe('Cancelar la visita');
    expect(await heading(await page(cancel as string, {}))).toBe('La visita está cancelada');
    expect(await heading(await page(cancel as string, {}))).toBe('Esta visita fue cancelada');
    await d.server.drainOutbox();
    for (const to of [email, listing.agent_email]) {
      const mail = await until(
        () => d.mailsTo(to).find((m) => /cancelada/i.test(m.subject) && (to === email || m.text.includes(email))),
        15_000,
        `the cancellation to ${to}`,
      );
      const c = calendarOf(mail);
      expect(c.method).toBe('CANCEL');
      expect(c.event.uid).toBe(invite.event.uid);
      expect(c.event.sequence).toBe(1);
    }
    expect((await event('visit.cancelled', String(stored?.id))).data).toMatchObject({
      status: 'cancelled',
      cancelled_by: 'visitor',
    });
    expect(await times()).toContain(proposed[1]);
  });

  it('two requests for one time, both confirmation links clicked at once: one visit; the other is told the time is taken', async () => {
    const at = (await times())[30] as string;
    const emails = [`first.${Date.now()}@example.org`, `second.${Date.now()}@example.org`];
    for (const email of emails) expect((await request(email, { mode: 'in_person', times: [at] })).status).toBe(200);
    const confirms = await Promise.all(
      emails.map(async (email) => links(await requestMail(email), 'confirm')[0] as string),
    );
    const answers = await Promise.all(confirms.map((link) => page(link, { location: '' })));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 409]);
    const headings = await Promise.all(answers.map(heading));
    expect(headings.sort()).toEqual(['Este horario está ocupado', 'La visita está confirmada']);
    expect(
      await d.server.sql<{ n: number }>(
        "select count(*)::int as n from internal.visits where status = 'confirmed' and lower(during) = $1::timestamptz",
        [at],
      ),
    ).toEqual([{ n: 1 }]);
    // the time is gone from what visitors may propose
    expect(await times()).not.toContain(at);
    // an in-person visit's place is the listing's address
    const [visit] = await d.server.sql<{ location: string }>(
      'select v.location from internal.visits v where lower(v.during) = $1::timestamptz',
      [at],
    );
    expect(visit?.location).toBeTruthy();
  });

  it("two confirmations of one agent's visits at once take their turn: the second waits before it writes its visit, and is told the time is taken", async () => {
    // two requests for one time, confirmed in two transactions held open by the test: the first
    // has written its visit and not committed when the second asks (as two clicks at once may be)
    const at = (await times())[31] as string;
    const emails = [`turn.a.${Date.now()}@example.org`, `turn.b.${Date.now()}@example.org`];
    for (const email of emails) expect((await request(email, { mode: 'in_person', times: [at] })).status).toBe(200);
    const ids = (
      await d.server.sql<{ id: string }>(
        'select id::text as id from internal.visit_requests where email = any($1::text[]) order by id',
        [emails],
      )
    ).map((r) => r.id);
    expect(ids).toHaveLength(2);
    // at the suite's instant, as the server's own sessions (core/clock.ts)
    const [first, second] = emails.map(
      () => new pg.Client({ connectionString: d.server.databaseUrl, options: clockSessionOptions() }),
    );
    await Promise.all([first!.connect(), second!.connect()]);
    try {
      await first!.query('begin');
      const confirm = 'select internal.confirm_visit($1::bigint, 1) as r';
      expect((await first!.query<{ r: string }>(confirm, [ids[0]])).rows[0]?.r).toBe('confirmed');
      await second!.query('begin');
      const [{ pid }] = (await second!.query<{ pid: number }>('select pg_backend_pid() as pid')).rows as [
        { pid: number },
      ];
      const answer = second!.query<{ r: string }>(confirm, [ids[1]]);
      // it waits for the agent's turn, not for the first's row while checking its own against it
      // (two rows checked against each other at once deadlocked, and one visitor was told to try again)
      const waits = await until(
        () =>
          d.server
            .sql<{ locktype: string }>('select locktype from pg_locks where pid = $1 and not granted', [pid])
            .then((rows) => rows.length > 0 && rows),
        15_000,
        'the second confirmation waiting',
      );
      expect(waits.map((w) => w.locktype)).toEqual(['advisory']);
      await first!.query('commit');
      expect((await answer).rows[0]?.r).toBe('taken');
      await second!.query('commit');
    } finally {
      await Promise.all([first!.end(), second!.end()]);
    }
    expect(
      await d.server.sql<{ id: string }>(
        "select request_id::text as id from internal.visits where status = 'confirmed' and lower(during) = $1::timestamptz",
        [at],
      ),
    ).toEqual([{ id: ids[0] }]);
  });

  it('refuses by name: no listing, a bad mode, four times, a time not open, a listing gone; a bad, expired or used link says so', async () => {
    const open = await times();
    const email = `bad.${Date.now()}@example.org`;
    const refused = async (body: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
      const res = await request(email, body, extra);
      return {
        status: res.status,
        body: (await res.json()) as { fields?: Record<string, string>; error?: string; times?: string[] },
      };
    };
    expect((await refused({ mode: 'video', times: [open[0]] }, { propertyId: '' })).body.fields).toEqual({
      propertyId: 'required',
    });
    expect((await refused({ mode: 'drive-by', times: [open[0]] })).body.fields).toEqual({ 'visit.mode': 'invalid' });
    expect((await refused({ mode: 'video', times: open.slice(0, 4) })).body.fields).toEqual({
      'visit.times': 'invalid',
    });
    expect((await refused({ mode: 'video', times: [open[0], open[0]] })).body.fields).toEqual({
      'visit.times': 'invalid',
    });
    expect((await refused({ mode: 'video', times: [open[0]], timeZone: 'Mars/Olympus' })).body.fields).toEqual({
      'visit.timeZone': 'invalid',
    });
    // a time at 3:00 in Ecuador (outside the hours), one in the past: named, nothing stored
    const night = new Date(open[0] as string);
    night.setUTCDate(night.getUTCDate() + 1);
    night.setUTCHours(8, 0, 0, 0);
    const nightAt = night.toISOString();
    const closed = await refused({ mode: 'video', times: [open[0], nightAt] });
    expect(closed.status).toBe(409);
    expect(closed.body).toMatchObject({ error: 'times_unavailable', times: [nightAt] });
    expect((await refused({ mode: 'video', times: ['2020-01-04T15:00:00Z'] })).status).toBe(409);
    const [gone] = await d.server.sql<{ id: string }>(
      "select id::text as id from internal.listings where status <> '1' and country_code = 'EC' order by id limit 1",
    );
    expect(await refused({ mode: 'video', times: [open[0]] }, { propertyId: gone?.id })).toMatchObject({
      status: 409,
      body: { error: 'listing_unavailable' },
    });
    expect((await d.server.sql('select 1 from internal.visit_requests where email = $1', [email])).length).toBe(0);

    // links: a token we never issued, one past its time
    expect((await page(`/es/visits/confirm?token=${'A'.repeat(43)}`)).status).toBe(404);
    expect((await page('/visits/confirm?token=short')).status).toBe(404);
    const mail = await asked(email, open[6]);
    const [confirm] = links(mail, 'confirm');
    await d.server.sql(
      "update internal.visit_tokens set expires_at = internal.now() - interval '1 minute' where request_id = (select id from internal.visit_requests where email = $1)",
      [email],
    );
    const expired = await page(confirm as string, { location: '' });
    expect(expired.status).toBe(410);
    expect(await heading(expired)).toBe('Este enlace caducó');
    // a confirm link is not a cancel link
    expect((await page((confirm as string).replace('/confirm?', '/cancel?'))).status).toBe(404);
  });

  it('the agent proposes another time: only one open in the calendar; then the visit is at that time', async () => {
    const open = await times();
    const email = `propose.${Date.now()}@example.org`;
    const mail = await asked(email, open[2], { lang: 'en' });
    const [propose] = links(mail, 'propose');
    const form = await (await page(propose as string)).text();
    const offered = [...form.matchAll(/<option value="([^"]+)"/g)].map((m) => m[1]);
    expect(offered.length).toBeGreaterThan(50);
    expect(offered).toContain(open[40]);
    // 3:00 in Ecuador is not one
    const night = new Date(Date.parse(open[40] as string) + 12 * 3_600_000);
    night.setUTCHours(8, 0, 0, 0);
    expect((await page(propose as string, { time: night.toISOString(), location: 'Portería' })).status).toBe(409);
    const ok = await page(propose as string, { time: open[40] as string, location: 'Portería del conjunto' });
    expect(ok.status).toBe(200);
    expect(
      await d.server.sql<{ start: string; location: string }>(
        "select to_json(lower(v.during))#>>'{}' as start, v.location from internal.visits v join internal.visit_requests r on r.id = v.request_id where r.email = $1",
        [email],
      ),
    ).toEqual([
      {
        start: expect.stringMatching(new RegExp(`^${(open[40] as string).slice(0, 16)}`)) as unknown as string,
        location: 'Portería del conjunto',
      },
    ]);
    // the visitor hears it in English
    await d.server.drainOutbox();
    const confirmed = await until(() => d.mailsTo(email).find((m) => m.subject.startsWith('Your visit is confirmed')));
    expect(calendarOf(confirmed).event.startDate.toJSDate().toISOString()).toBe(open[40]);
  });

  it('reminds the visitor the day before, once, across runs', async () => {
    const open = await times();
    const email = `reminder.${Date.now()}@example.org`;
    const mail = await asked(email, open[50], { lang: 'en' });
    expect((await page(links(mail, 'confirm')[0] as string, { location: '' })).status).toBe(200);
    // as if it had been confirmed days ago for tomorrow
    await d.server.sql(
      `update internal.visits v set during = tstzrange(internal.now() + interval '25 hours', internal.now() + interval '26 hours'), confirmed_at = internal.now() - interval '3 days'
        from internal.visit_requests r where r.id = v.request_id and r.email = $1`,
      [email],
    );
    const runs = [await d.server.runAlerts(), await d.server.runAlerts()];
    expect(runs.map((r) => r.reminders)).toEqual([1, 0]);
    await d.server.drainOutbox();
    const reminder = await until(() => d.mailsTo(email).find((m) => m.subject.startsWith('Tomorrow: your visit')));
    expect(links(reminder, 'cancel')).toHaveLength(1);
    expect(links(reminder, 'reschedule')).toHaveLength(1);
    expect(reminder.calendars).toEqual([]);
  });
});
