/**
 * Nothing of a visitor's data kept for ever (docs/privacy.md, "Retention"), over PostgreSQL: the
 * retention job on old leads, mails and requests, run by two servers on one database at once.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../../server/db/postgres.ts';
import { startServer, type RunningServer } from '../../server/server.ts';
import { postgresDatabase } from '../support/postgres.ts';

describe('nothing kept for ever: the retention job, once across two servers on one database', () => {
  let copy: { url: string; drop: () => Promise<void> };
  const servers: RunningServer[] = [];

  beforeAll(async () => {
    copy = await postgresDatabase('seeded');
    // two servers on one database, as a deployment with two processes has them; their job runs only
    // when the test asks (its run at each start, in flight after the start on a slow host, took the
    // job the test had set free, and both of the test's runs found it done)
    for (let i = 0; i < 2; i++) {
      const server = await startServer({
        db: await openPostgres(copy.url),
        port: 0,
        bundlePort: 0,
        mail: { outboxDir: mkdtempSync(join(tmpdir(), 'exp-outbox-')) },
        retentionEveryMs: 0,
      });
      await server.ready;
      servers.push(server);
    }
  }, 240_000);

  afterAll(async () => {
    for (const s of servers) await s.close();
    await copy?.drop();
  });

  it('erases exactly the leads past 24 months without contact, the mails sent over 90 days ago and the requests never confirmed after 30 days; one server does it', async () => {
    const db = await openPostgres(copy.url);
    const sql = <T extends Record<string, unknown>>(text: string, params: unknown[] = []) =>
      db.jobs.query<T>(text, params);
    try {
      const lead = async (key: string, age: string, followUp: string | null = null) =>
        (
          await sql<{ id: string }>(
            `insert into public.inquiries (idempotency_key, name, email, phone, message, recipient_email, recipient_kind, received_at, follow_up_on)
             values ($1, 'Rita Retenida', $1 || '@example.com', '+593 99 222 3344', 'Hola', 'equipo@example.com', 'team', internal.now() - $2::interval, (internal.now() + $3::interval)::date)
             returning id::text as id`,
            [key, age, followUp ?? '-100 years'],
          )
        )[0]!.id;
      const expired = await lead('ret-old', '25 months');
      const touched = await lead('ret-touched', '25 months');
      await sql(
        "insert into public.lead_events (lead_id, what, at) values ($1::uuid, 'changed', internal.now() - interval '2 months')",
        [touched],
      );
      const followed = await lead('ret-follow', '25 months', '10 days');
      const recent = await lead('ret-recent', '3 months');
      const mail = async (ref: string, status: string, age: string) =>
        (
          await sql<{ id: string }>(
            // (not due for a day: the servers' outbox workers leave a waiting one waiting)
            `insert into internal.mail_outbox (kind, ref_id, recipient, status, created_at, sent_at, next_attempt_at) values ('inquiry', $1, 'x@example.com', $2, internal.now() - $3::interval,
             case when $2 = 'sent' then internal.now() - $3::interval end, internal.now() + interval '1 day') returning id::text as id`,
            [ref, status, age],
          )
        )[0]!.id;
      const oldSent = await mail('ret-1', 'sent', '100 days');
      const newSent = await mail('ret-2', 'sent', '10 days');
      const oldPending = await mail('ret-3', 'pending', '100 days');
      const search = async (key: string, status: string, age: string) =>
        (
          await sql<{ id: string }>(
            `insert into internal.saved_searches (email, email_key, filters, filters_key, frequency, lang, status, created_at, expires_at, idempotency_key, client_hash)
             values ($1 || '@example.com', $1, '{}', $1, 'daily', 'es', $2, internal.now() - $3::interval, internal.now() - $3::interval + interval '7 days', $1, 'x') returning id::text as id`,
            [key, status, age],
          )
        )[0]!.id;
      const oldPendingSearch = await search('ret-s1', 'pending', '40 days');
      const newPendingSearch = await search('ret-s2', 'pending', '5 days');
      const oldActive = await search('ret-s3', 'active', '400 days');

      // both servers at once, the last run forgotten: one runs, the other finds it taken
      await sql("delete from internal.job_schedule where job = 'retention'");
      const runsBefore = (await sql<{ n: number }>('select count(*)::int as n from internal.retention_runs'))[0]!.n;
      const outcomes = await Promise.all(servers.map((s) => s.applyRetention(3600)));
      expect(outcomes.filter((o) => o !== null)).toHaveLength(1);
      // (counts: ours and whatever else the seeded database holds past its period; the rows below say which went)
      const done = outcomes.find((o) => o !== null)!;
      for (const kind of ['leads', 'mails', 'pending_searches'] as const)
        expect(done[kind], kind).toBeGreaterThanOrEqual(1);
      // and not again within the hour, from either
      expect(await Promise.all(servers.map((s) => s.applyRetention(3600)))).toEqual([null, null]);
      expect((await sql<{ n: number }>('select count(*)::int as n from internal.retention_runs'))[0]!.n).toBe(
        runsBefore + 1,
      );

      const leads = await sql<{ id: string; name: string; erased: boolean }>(
        'select id::text as id, name, erased_at is not null as erased from public.inquiries where id = any($1::uuid[]) order by idempotency_key',
        [[expired, touched, followed, recent]],
      );
      expect(Object.fromEntries(leads.map((l) => [l.id, l.erased]))).toEqual({
        [expired]: true,
        [touched]: false,
        [followed]: false,
        [recent]: false,
      });
      expect(leads.find((l) => l.id === expired)?.name).toBe('');
      expect(
        (
          await sql<{ id: string }>(
            'select id::text as id from internal.mail_outbox where id = any($1::bigint[]) order by id',
            [[oldSent, newSent, oldPending]],
          )
        ).map((r) => r.id),
      ).toEqual([newSent, oldPending].sort((a, b) => Number(a) - Number(b)));
      expect(
        (
          await sql<{ id: string }>(
            'select id::text as id from internal.saved_searches where id = any($1::bigint[]) order by id',
            [[oldPendingSearch, newPendingSearch, oldActive]],
          )
        ).map((r) => r.id),
      ).toEqual([newPendingSearch, oldActive].sort((a, b) => Number(a) - Number(b)));
    } finally {
      await db.close();
    }
  }, 120_000);
});
