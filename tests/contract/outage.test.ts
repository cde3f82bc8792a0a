/**
 * `npm start` on a real PostgreSQL that stops and starts again while visitors' reads and inquiries
 * are in flight: the process keeps running, every answer is a clean 200 or 503 (never a reset),
 * the API is back within 5 s of the database, every inquiry answered 200 is stored and mailed
 * exactly once, and every one answered 503 is either absent or recognised when it is retried.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type PostgresServer } from '../support/postgres.ts';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { startSmtp, type TestSmtp } from '../support/smtp.ts';
import { stopAll } from '../support/stop-all.ts';
import { until } from '../support/until.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Outcome {
  kind: 'read' | 'inquiry';
  status?: number;
  error?: string;
  retryAfter?: string | null;
  body?: Record<string, unknown>;
  key?: string;
}

let seq = 0;
const newKey = () => `outage-${process.pid}-${++seq}-${Math.random().toString(36).slice(2, 10)}`;

function inquiry(key: string) {
  return {
    name: 'Carmen Vélez',
    email: 'carmen.velez@example.com',
    phone: '0991234567',
    message: `Consulta ${key}`,
    propertyTitle: 'Casa en Cumbayá',
    propertyAddress: 'Cumbayá',
    propertyPrice: '$250,000',
    recipientEmail: '',
    idempotencyKey: key,
    lang: 'es',
  };
}

async function request(base: string, kind: 'read' | 'inquiry', key = newKey()): Promise<Outcome> {
  try {
    const res =
      kind === 'read'
        ? await fetch(
            `${base}/rest/v1/listings?select=id,title,price&city_search=ilike.*quito*&order=price.desc&limit=24`,
            {
              headers: { Prefer: 'count=exact' },
              signal: AbortSignal.timeout(20_000),
            },
          )
        : await fetch(`${base}/functions/v1/send-property-inquiry`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `10.1.${seq % 200}.7` },
            body: JSON.stringify(inquiry(key)),
            signal: AbortSignal.timeout(20_000),
          });
    const text = await res.text();
    let body: Record<string, unknown> | undefined;
    try {
      const parsed = JSON.parse(text) as unknown;
      body = Array.isArray(parsed) ? { rows: parsed.length } : (parsed as Record<string, unknown>);
    } catch {
      body = { raw: text.slice(0, 200) };
    }
    return {
      kind,
      status: res.status,
      retryAfter: res.headers.get('retry-after'),
      body,
      key: kind === 'inquiry' ? key : undefined,
    };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return {
      kind,
      error: `${(error as Error).message} ${cause?.code ?? cause?.message ?? ''}`,
      key: kind === 'inquiry' ? key : undefined,
    };
  }
}

describe('PostgreSQL restarts while npm start is under load', () => {
  let postgres: PostgresServer;
  let smtp: TestSmtp;
  let server: ServerProcess;
  let admin: pg.Pool;

  beforeAll(async () => {
    postgres = await startPostgres();
    smtp = await startSmtp();
    server = await startServerProcess({
      DATABASE_URL: postgres.url,
      SMTP_URL: smtp.url,
      SEED_LISTINGS: '300',
      INQUIRY_RATE_LIMIT: '100000',
      TRUST_PROXY: '1',
    });
    admin = new pg.Pool({ connectionString: postgres.url, max: 2 });
    admin.on('error', () => {});
  });
  afterAll(() => stopAll(server, admin, smtp, postgres));

  it('keeps running through 4 restarts with 40 requests in flight; answers are clean 200/503; each inquiry stored and mailed exactly once', async () => {
    const outcomes: Outcome[] = [];
    const backWithin: number[] = [];
    for (let round = 0; round < 4; round++) {
      let running = true;
      // 40 requests always in flight: 20 visitors sending inquiries, 20 searching
      const workers = Array.from({ length: 40 }, async (_, i) => {
        while (running) outcomes.push(await request(server.url, i % 2 ? 'read' : 'inquiry'));
      });
      // the traffic under way: forty answers come
      const before = outcomes.length;
      await until(() => outcomes.length >= before + 40, 20_000, 'forty answers before the outage');
      // 'fast' ends the sessions with 57P01, 'immediate' drops them like a crash
      await postgres.pause(round % 2 ? 'immediate' : 'fast');
      await sleep(1500);
      await postgres.resume();
      const back = Date.now();
      for (;;) {
        const probe = await request(server.url, 'read');
        if (probe.status === 200 || probe.status === 206) break;
        if (Date.now() - back > 15_000) break;
        await sleep(100);
      }
      backWithin.push(Date.now() - back);
      // the traffic once more after the outage: forty answers more
      const after = outcomes.length;
      await until(() => outcomes.length >= after + 40, 20_000, 'forty answers after the outage');
      running = false;
      await Promise.all(workers);
      expect(server.exitStatus(), server.output().slice(-3000)).toBeNull();
    }

    // never a reset or a hang: a visitor always learns whether the inquiry was taken
    const failures = outcomes.filter((o) => o.error);
    expect(failures.slice(0, 5), `${failures.length} of ${outcomes.length} requests failed without an answer`).toEqual(
      [],
    );
    // a page of a longer result is PostgREST's 206
    const statuses = new Set(outcomes.map((o) => o.status));
    expect(
      [...statuses].every((s) => s === 200 || s === 206 || s === 503),
      `statuses ${[...statuses].join(', ')}`,
    ).toBe(true);
    const unavailable = outcomes.filter((o) => o.status === 503);
    expect(unavailable.length).toBeGreaterThan(0);
    for (const o of unavailable) {
      expect(o.retryAfter, JSON.stringify(o)).toBeTruthy();
      if (o.kind === 'read') expect(Object.keys(o.body ?? {}).sort()).toEqual(['code', 'details', 'hint', 'message']);
      else expect(o.body).toMatchObject({ error: 'unavailable' });
    }
    expect(Math.max(...backWithin), `back after ${backWithin.join(', ')} ms`).toBeLessThanOrEqual(5000);

    // the visitor whose inquiry got 503 retries with the same key: it is stored once, never twice
    const inquiries = outcomes.filter((o) => o.kind === 'inquiry');
    const accepted = inquiries.filter((o) => o.status === 200);
    const refused = inquiries.filter((o) => o.status === 503);
    expect(accepted.length).toBeGreaterThan(20);
    for (const o of refused) expect((await request(server.url, 'inquiry', o.key)).status).toBe(200);
    const keys = inquiries.map((o) => o.key as string);
    const rows = (
      await admin.query<{ id: string; idempotency_key: string }>(
        'select id::text as id, idempotency_key from public.inquiries where idempotency_key = any($1)',
        [keys],
      )
    ).rows;
    expect(rows).toHaveLength(keys.length);
    const idByKey = new Map(rows.map((r) => [r.idempotency_key, r.id]));
    for (const o of accepted) expect(idByKey.get(o.key as string)).toBe(o.body?.id);

    // every stored inquiry is mailed, each exactly once
    const ids = new Set(rows.map((r) => r.id));
    const end = Date.now() + 60_000;
    while ([...ids].some((id) => !smtp.mails.some((m) => m.inquiryId === id)) && Date.now() < end) await sleep(200);
    await sleep(2000);
    const perId = new Map<string, number>();
    for (const m of smtp.mails) if (ids.has(m.inquiryId)) perId.set(m.inquiryId, (perId.get(m.inquiryId) ?? 0) + 1);
    expect(perId.size).toBe(ids.size);
    expect([...perId.values()].filter((n) => n !== 1)).toEqual([]);
    expect(server.exitStatus()).toBeNull();
  }, 240_000);
});
