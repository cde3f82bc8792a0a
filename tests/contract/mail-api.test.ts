/**
 * Mail that can leave a hosted function (docs/deployment.md "The functions"): the deployed function under
 * Deno, configured with a mail provider's HTTP API (MAIL_API_URL, MAIL_API_KEY; a stand-in of
 * Resend's here), delivers an inquiry's mail through it, once; through the provider's outage the
 * inquiry waits and goes out once the provider is back; a refusal fails the mail for good. A
 * function configured with SMTP on port 587 (or 25), which Supabase's edge functions may not open,
 * refuses to start and says why. Our own server sends through the same transport.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDenoFunction } from '../support/deno-function.ts';
import { startHostedFunction, type HostedFunction } from '../support/hosted-function.ts';
import { startMailApi } from '../support/mail-api.ts';
import { clientHeaders, startTestServer } from '../support/servers.ts';
import { httpMailer } from '../../core/functions/outbox/http-mail.ts';
import { visitCalendar } from '../../core/protocol/ical.ts';
import { until } from '../support/until.ts';
import { nowDate } from '../../core/clock.ts';

const SITE = 'https://expecuador.example';
let n = 0;
const inquiry = (url: string, over: Record<string, unknown> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...clientHeaders(`10.8.0.${++n}`) },
    body: JSON.stringify({
      name: 'Rosa Mena',
      email: `rosa.mena.${n}@example.com`,
      phone: '',
      message: 'Quisiera más información',
      idempotencyKey: `mail-api-${process.pid}-${n}`,
      lang: 'es',
      ...over,
    }),
  });

describe("the deployed function with a mail provider's HTTP API", () => {
  let hosted: HostedFunction;
  beforeAll(async () => {
    hosted = await startHostedFunction({ secrets: { SITE_URL: SITE } });
  }, 240_000);
  afterAll(async () => {
    await hosted?.close();
  });

  it("delivers an inquiry's mail through the API, once, with its Message-ID as the idempotency key", async () => {
    const { db, api, fn } = hosted;
    const res = await inquiry(fn.url);
    expect(res.status).toBe(200);
    const { id } = (await res.json()) as { id: string };
    await until(() => api.sent.some((m) => m.headers['X-Inquiry-Id'] === id || m.text.includes('Rosa Mena')));
    await fn.drain();
    const mails = api.sent.filter((m) => m.headers['X-Inquiry-Id'] === id);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ subject: expect.stringContaining('Rosa Mena'), to: [expect.stringMatching(/@/)] });
    expect(mails[0]?.idempotencyKey).toMatch(/^inquiry-/);
    const [row] = await db.admin.query<{ status: string }>(
      "select o.status from internal.mail_outbox o where o.kind = 'inquiry' and o.ref_id = $1",
      [id],
    );
    expect(row?.status).toBe('sent');
  });

  it("waits through the provider's outage and delivers once it is back, once", async () => {
    const { db, api, fn } = hosted;
    api.mode = 'down';
    const res = await inquiry(fn.url, { name: 'Tomás Outage' });
    const { id } = (await res.json()) as { id: string };
    expect(res.status).toBe(200);
    await until(
      async () =>
        (
          await db.admin.query(
            "select 1 from internal.mail_outbox where kind = 'inquiry' and ref_id = $1 and status = 'pending' and attempts > 0",
            [id],
          )
        ).length > 0,
    );
    expect(api.sent.some((m) => m.headers['X-Inquiry-Id'] === id)).toBe(false);
    api.mode = 'ok';
    // the scheduled call (pg_cron in production) probes the provider and delivers what waited
    await fn.drain();
    await until(() => api.sent.some((m) => m.headers['X-Inquiry-Id'] === id));
    await fn.drain();
    expect(api.sent.filter((m) => m.headers['X-Inquiry-Id'] === id)).toHaveLength(1);
  });

  it("a refusal (422) fails the mail for good, with the provider's reason; nothing is tried again", async () => {
    const { db, api, fn } = hosted;
    api.mode = 'refuse';
    const res = await inquiry(fn.url, { name: 'Ines Refused' });
    const { id } = (await res.json()) as { id: string };
    await until(
      async () =>
        (
          await db.admin.query(
            "select 1 from internal.mail_outbox where kind = 'inquiry' and ref_id = $1 and status = 'failed'",
            [id],
          )
        ).length > 0,
    );
    const [row] = await db.admin.query<{ last_error: string; attempts: number }>(
      "select last_error, attempts from internal.mail_outbox where kind = 'inquiry' and ref_id = $1",
      [id],
    );
    expect(row?.last_error).toMatch(/422.*Invalid `to` field/);
    expect(row?.attempts).toBe(1);
    api.mode = 'ok';
  });

  it('a scheduled call sends what its share of CPU allows and leaves the rest due for the next; each mail once', async () => {
    const { db, api } = hosted;
    // a small share, so that 80 inquiries' mails take several calls on any machine
    const small = await hosted.another({ REQUEST_CPU_BUDGET_MS: '10' });
    try {
      api.mode = 'down';
      const ids: string[] = [];
      for (let i = 0; i < 80; i++) {
        const res = await fetch(small.url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'CF-Connecting-IP': `10.81.${i}.1` },
          body: JSON.stringify({
            name: 'Marta Budget',
            email: `marta.budget.${i}@example.com`,
            phone: '',
            message: 'Hola',
            idempotencyKey: `budget-${process.pid}-${i}`,
            lang: 'es',
          }),
        });
        expect(res.status).toBe(200);
        ids.push(((await res.json()) as { id: string }).id);
      }
      // the provider back, every held mail due now
      await until(
        async () =>
          (
            await db.admin.query(
              "select 1 from internal.mail_outbox where kind = 'inquiry' and ref_id = any($1) and status = 'pending' and attempts > 0",
              [ids],
            )
          ).length === 80,
      );
      api.mode = 'ok';
      await db.admin.query(
        "update internal.mail_outbox set next_attempt_at = internal.now() where kind = 'inquiry' and ref_id = any($1)",
        [ids],
      );
      const calls: Array<{ sent: number; more: boolean }> = [];
      for (let i = 0; i < 200; i++) {
        const answer = (await small.drain()) as unknown as { sent: number; more: boolean };
        calls.push(answer);
        if (!answer.more) break;
      }
      // several calls, each stopped by its budget until the last; all sent, each once
      expect(calls.length).toBeGreaterThan(1);
      expect(calls.slice(0, -1).every((c) => c.more && c.sent > 0)).toBe(true);
      expect(calls.at(-1)?.more).toBe(false);
      for (const id of ids) expect(api.sent.filter((m) => m.headers['X-Inquiry-Id'] === id)).toHaveLength(1);
      const [left] = await db.admin.query<{ n: number }>(
        "select count(*)::int as n from internal.mail_outbox where kind = 'inquiry' and ref_id = any($1) and status <> 'sent'",
        [ids],
      );
      expect(left?.n).toBe(0);
    } finally {
      api.mode = 'ok';
    }
  }, 120_000);
});

describe('a hosted function configured with SMTP on a blocked port', () => {
  it('refuses to start, and says why', async () => {
    for (const smtp of [
      'smtp://user:pass@smtp.example.com:587',
      'smtp://user:pass@smtp.example.com',
      'smtp://user:pass@smtp.example.com:25',
    ]) {
      const start = startDenoFunction({ SUPABASE_DB_URL: 'postgres://postgres@127.0.0.1:9/none', SMTP_URL: smtp });
      await expect(start, smtp).rejects.toThrow(
        /SMTP_URL connects to port (587|25), which a Supabase edge function may not open: use smtps:\/\/ on port 465, or a mail provider's HTTP API/,
      );
    }
  }, 120_000);
});

describe("our server with a mail provider's HTTP API", () => {
  it("delivers an inquiry's mail through it", async () => {
    const api = await startMailApi();
    const server = await startTestServer('postgres', {
      trustProxy: { hops: 1 },
      mail: { api: { url: api.url, key: api.key }, intervalMs: 200, siteUrl: SITE },
    });
    try {
      const res = await inquiry(`${server.url}/functions/v1/send-property-inquiry`);
      const { id } = (await res.json()) as { id: string };
      await until(() => api.sent.some((m) => m.headers['X-Inquiry-Id'] === id));
      expect(api.sent.filter((m) => m.headers['X-Inquiry-Id'] === id)).toHaveLength(1);
    } finally {
      await server.close();
      await api.close();
    }
  });
});

describe("a visit's invitation through the API (docs/visits.md)", () => {
  it('goes as a text/calendar attachment with its method, the .ics byte for byte', async () => {
    const api = await startMailApi();
    try {
      const ics = visitCalendar({
        method: 'REQUEST',
        uid: 'visit-1@expecuador.example',
        sequence: 0,
        start: new Date('2026-11-28T15:00:00Z'),
        end: new Date('2026-11-28T16:00:00Z'),
        stamp: nowDate(),
        summary: 'Visita: Casa en Cumbayá (Videollamada)',
        organizer: { name: 'Xavier Núñez', email: 'xavier@expecuador.example' },
        attendee: { name: 'Lucía', email: 'lucia@example.org' },
      });
      await httpMailer({ url: api.url, key: api.key }).send({
        from: 'no-reply@expecuador.example',
        to: 'lucia@example.org',
        subject: 'Tu visita está confirmada',
        text: 't',
        html: '<p>t</p>',
        messageId: '<visit-confirmed-1-0@expecuador.example>',
        headers: {},
        icalEvent: { method: 'REQUEST', filename: 'invite.ics', content: ics },
      });
      const [attachment] = api.sent[0]?.attachments ?? [];
      expect(attachment).toMatchObject({
        filename: 'invite.ics',
        content_type: 'text/calendar; charset=utf-8; method=REQUEST',
      });
      expect(Buffer.from(String(attachment?.content), 'base64').toString('utf8')).toBe(ics);
    } finally {
      await api.close();
    }
  });
});
