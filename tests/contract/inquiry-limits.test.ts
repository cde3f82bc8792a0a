/**
 * send-property-inquiry refuses what it must (docs/leads.md), with a real SMTP server in this
 * process: rate limits per client, at most a client's share of the function's pool at once, a
 * client counted by the address its server trusts (a forged X-Forwarded-For is still one client),
 * the e-mail address's limit when no address is vouched for, and bad bodies answered 400 and
 * never stored. The same suite runs twice (tests/support/inquiry-targets.ts): against our Node
 * server and against the deployed function itself under Deno (over PostgreSQL with the migrations
 * applied).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, post, serverTarget, TARGETS, withSmtp, type Target } from '../support/inquiry-targets.ts';
import type { TestSmtp } from '../support/smtp.ts';
import { clientHeaders, startTestServer } from '../support/servers.ts';
import { stopAll } from '../support/stop-all.ts';
import { until } from '../support/until.ts';

/** Our server told that its edge sets cf-connecting-ip, as a function's platform does, for requests that come without it. */
async function startUnvouched(): Promise<Target> {
  return serverTarget(await startTestServer('postgres', { trustProxy: { header: 'cf-connecting-ip' } }));
}

describe.each(TARGETS)('send-property-inquiry: %s, with a real SMTP server', (_name, start, ownsDatabase) => {
  let client = 0;
  // every test is its own client address (the rate limit counts per client)
  // (our server trusts one proxy: X-Forwarded-For; the deployed function its edge's CF-Connecting-IP)
  const from = () => clientHeaders(`10.0.0.${++client}`);
  let server: Target, smtp: TestSmtp;
  beforeAll(async () => ({ server, smtp } = await withSmtp(start)), 240_000);
  afterAll(() => stopAll(server, smtp));
  it('answers 20 rapid posts from one client with 5 accepted and 429 for the rest', async () => {
    const headers = from();
    const results = await Promise.all(Array.from({ length: 20 }, () => post(server, body(), headers)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
    expect(results.find((r) => r.status === 429)?.json).toMatchObject({ error: 'rate_limited' });
  });

  it("holds at most two of one client's requests at work at once and sixteen waiting their turn, answering more 429 at once; another client is served beside it (its share of the function's pool)", async () => {
    const greedy = from();
    const other = from();
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    // the inquiries locked: what is at work waits in the database
    const locked = server.transaction(async (tx) => {
      await tx.query('lock table public.inquiries in access exclusive mode');
      await held;
    });
    const waitingOnLock = async () =>
      Number(
        (
          await server.sql<{ n: number }>(
            "select count(*)::int as n from pg_locks l where l.relation = 'public.inquiries'::regclass and not l.granted",
          )
        )[0]?.n ?? 0,
      );
    try {
      await until(
        async () =>
          Number(
            (
              await server.sql<{ n: number }>(
                "select count(*)::int as n from pg_locks where relation = 'public.inquiries'::regclass and granted and mode = 'AccessExclusiveLock'",
              )
            )[0]?.n,
          ) === 1,
        10_000,
      );
      const burst = Array.from({ length: 19 }, () => post(server, body(), greedy));
      const beside = post(server, body(), other);
      // the nineteenth is refused before any work, while the others still wait
      const refusedAtOnce = await Promise.race([
        Promise.any(burst.map((p) => p.then((r) => (r.status === 429 ? r : Promise.reject(new Error('not 429')))))),
        held.then(() => null),
      ]);
      expect(refusedAtOnce?.json).toMatchObject({ error: 'rate_limited' });
      // two of the greedy client's and the other client's at work, no more
      await until(async () => (await waitingOnLock()) === 3, 10_000, 'three requests waiting on the lock');
      await new Promise((r) => setTimeout(r, 300));
      expect(await waitingOnLock()).toBe(3);
      release();
      await locked;
      const statuses = (await Promise.all(burst)).map((r) => r.status);
      // then the client's limit: five a minute
      expect(statuses.filter((s) => s === 200)).toHaveLength(5);
      expect(statuses.filter((s) => s === 429)).toHaveLength(14);
      expect((await beside).status).toBe(200);
    } finally {
      release();
      await locked.catch(() => {});
    }
  });

  it('counts a client by the address its server trusts: a forged X-Forwarded-For on every post is still one client', async () => {
    // our server (TRUST_PROXY=1) takes X-Forwarded-For's right-most entry, what its proxy appended;
    // the deployed function its edge's CF-Connecting-IP, whatever X-Forwarded-For says
    const real = `10.7.7.${++client}`;
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const forged = `198.51.100.${i + 1}`;
      const headers: Record<string, string> = ownsDatabase
        ? { 'CF-Connecting-IP': real, 'X-Forwarded-For': forged }
        : { 'X-Forwarded-For': `${forged}, ${real}` };
      statuses.push((await post(server, body(), headers)).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
  });

  it("without the address its edge vouches for (the platform's header missing), one visitor over the limit refuses nobody else: the limit is then the e-mail address's", async () => {
    // no CF-Connecting-IP reaches the function (ours told to read it, as the platform's functions do)
    const unvouched: Record<string, string> = {};
    const target = ownsDatabase ? server : await startUnvouched();
    try {
      const first = [];
      for (let i = 0; i < 6; i++)
        first.push(
          (
            await post(
              target,
              body({ email: 'ana.unknown@example.com', idempotencyKey: `unvouched-a-${process.pid}-${i}` }),
              unvouched,
            )
          ).status,
        );
      expect(first).toEqual([200, 200, 200, 200, 200, 429]);
      // another visitor, as unknown as the first: not refused
      expect(
        (
          await post(
            target,
            body({ email: 'beto.unknown@example.com', idempotencyKey: `unvouched-b-${process.pid}` }),
            unvouched,
          )
        ).status,
      ).toBe(200);
      // with the platform's header, each visitor is counted by it
      if (ownsDatabase) {
        const vouched = { 'CF-Connecting-IP': `10.9.9.${++client}` };
        const statuses = [];
        for (let i = 0; i < 6; i++)
          statuses.push(
            (
              await post(
                target,
                body({ email: `carla${i}@example.com`, idempotencyKey: `vouched-${process.pid}-${i}` }),
                vouched,
              )
            ).status,
          );
        expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
      }
    } finally {
      if (target !== server) await target.close();
    }
  });

  it('answers bad bodies with 400 and a clear message, never storing them', async () => {
    const [{ n: before }] = (await server.sql<{ n: number }>('select count(*)::int as n from public.inquiries')) as [
      { n: number },
    ];
    const cases: Array<[unknown, Record<string, string>, RegExp | Record<string, unknown>]> = [
      ['{"name": "x"', {}, { error: 'invalid_json' }],
      ['[]', {}, { error: 'validation' }],
      [body({ name: '  ' }), {}, { fields: { name: 'required' } }],
      [body({ email: 'not-an-email' }), {}, { fields: { email: 'invalid' } }],
      [body({ name: 'a'.repeat(121) }), {}, { fields: { name: 'tooLong' } }],
      [body({ name: 'Bcc: x@y.z\r\nSubject: spam' }), {}, { fields: { name: 'invalid' } }],
      [body({ propertyId: '1; drop table listings' }), {}, { fields: { propertyId: 'invalid' } }],
      [body({ idempotencyKey: 'short' }), {}, { fields: { idempotencyKey: 'invalid' } }],
      [body({ idempotencyKey: 42 }), {}, { fields: { idempotencyKey: 'invalid' } }],
      [body({ message: 'x'.repeat(20000) }), {}, { error: 'too_large' }],
      [JSON.stringify(body({ message: 'x'.repeat(70000) })), {}, { error: 'too_large' }],
      ['name=x', { 'Content-Type': 'application/x-www-form-urlencoded' }, { error: 'content_type' }],
    ];
    for (const [payload, headers, expected] of cases) {
      const r = await post(server, payload, { ...from(), ...headers });
      expect(r.status, JSON.stringify(payload).slice(0, 60)).toBe(400);
      expect(r.json, JSON.stringify(payload).slice(0, 60)).toMatchObject(expected as Record<string, unknown>);
      expect(typeof r.json.message).toBe('string');
    }
    const get = await fetch(`${server.functionsUrl}/send-property-inquiry`);
    expect(get.status).toBe(405);
    const [{ n: after }] = (await server.sql<{ n: number }>('select count(*)::int as n from public.inquiries')) as [
      { n: number },
    ];
    expect(after).toBe(before);
  });
});
