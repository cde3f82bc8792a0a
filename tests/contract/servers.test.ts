/**
 * Several servers on one database (docs/architecture.md "Several servers"): two `npm start`
 * processes started at once on one empty PostgreSQL (DATABASE_URL), with a RESO feed imported on a
 * schedule (IMPORT_SOURCES), an SMTP server and a CRM's webhook endpoint. Both come up and serve
 * one site (the migrations and the seed ran once); each scheduled import runs once per period,
 * never two at once; an inquiry's mail and webhook are delivered once; a client's rate limit holds
 * across the processes; and a server killed with `kill -9` in the middle of an import, or of a
 * delivery, loses nothing: the other server finishes it.
 */
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { openPostgres } from '../../server/db/postgres.ts';
import { addEndpoint } from '../../server/webhooks/endpoints.ts';
import { startResoStandIn, type ResoStandIn } from '../support/feed-stand-ins.ts';
import { postgresDatabase, type PostgresDatabase } from '../support/postgres.ts';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { startSmtp, type TestSmtp } from '../support/smtp.ts';
import { startTestServer } from '../support/servers.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';
import { until } from '../support/until.ts';
import { now as clockNow, nowDate } from '../../core/clock.ts';
import pg from 'pg';
import { clientSalt } from '../../core/functions/function-http.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The pids (of those given) holding a TCP connection to this local port: who talks to the SMTP server. */
function connectedTo(port: number, pids: number[], fromPorts?: number[]): number[] {
  const hex = (n: number) => n.toString(16).toUpperCase().padStart(4, '0');
  const from = fromPorts && new Set(fromPorts.map((n) => `:${hex(n)}`));
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      // rem_address is column 2 (address:port), inode column 9
      if (
        cols[2]?.endsWith(`:${hex(port)}`) &&
        cols[9] &&
        (!from || from.has(cols[1]?.slice(cols[1].lastIndexOf(':')) ?? ''))
      )
        inodes.add(cols[9]);
    }
  }
  return pids.filter((pid) => {
    try {
      return readdirSync(`/proc/${pid}/fd`).some((fd) => {
        try {
          return inodes.has(/^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1] ?? '');
        } catch {
          return false;
        }
      });
    } catch {
      return false;
    }
  });
}

describe('two servers on one database', () => {
  const dir = mkdtempSync(join(tmpdir(), 'exp-servers-'));
  let database: PostgresDatabase;
  let db: Database;
  let reso: ResoStandIn;
  let smtp: TestSmtp;
  let hooks: WebhookReceiver;
  let secret = '';
  let env: Record<string, string>;
  const servers: ServerProcess[] = [];
  const start = new Date(clockNow() - 100 * 3_600_000);
  const listing = (i: number) => ({
    ListingKey: `TWO-${i}`,
    StandardStatus: 'Active',
    ListPrice: 180_000 + i * 1000,
    BedroomsTotal: 3,
    BathroomsTotalInteger: 2,
    LivingArea: 140,
    LivingAreaUnits: 'Square Meters',
    PropertyType: 'Residential',
    PropertySubType: 'Single Family Residence',
    Latitude: -0.2 - i * 0.001,
    Longitude: -78.43,
    UnparsedAddress: `Calle Compartida ${i}`,
    City: 'Tumbaco',
    SubdivisionName: 'La Morita',
    StateOrProvince: 'Pichincha',
    Country: 'EC',
    ModificationTimestamp: new Date(start.getTime() + i * 60_000).toISOString(),
    Media: [],
  });
  const inquiry = (server: ServerProcess, ip: string, key: string) =>
    fetch(`${server.url}/functions/v1/send-property-inquiry`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': ip },
      body: JSON.stringify({
        name: 'Lucía Paredes',
        email: 'lucia.paredes@example.com',
        phone: '',
        message: 'Quisiera visitarla',
        idempotencyKey: key,
        lang: 'es',
      }),
    });
  const runs = () =>
    db.admin.query<{ id: string; started: number; finished: number | null; outcome: string }>(
      "select id::text as id, extract(epoch from started_at)::float8 as started, extract(epoch from finished_at)::float8 as finished, outcome from internal.import_runs where source = 'shared-feed' order by id",
    );

  beforeAll(async () => {
    // an empty database: the servers migrate and seed it themselves
    database = await postgresDatabase();
    reso = await startResoStandIn();
    for (let i = 1; i <= 6; i++) reso.listings.set(`TWO-${i}`, listing(i));
    smtp = await startSmtp();
    hooks = await startWebhookReceiver();
    writeFileSync(
      join(dir, 'sources.json'),
      JSON.stringify([
        {
          kind: 'reso',
          name: 'shared-feed',
          location: reso.url,
          token: 'env:SHARED_FEED_TOKEN',
          areaUnit: 'm2',
          everyMinutes: 0.1,
          pageSize: 2,
        },
      ]),
    );
    env = {
      DATABASE_URL: database.url,
      DATA_DIR: join(dir, 'data'),
      SEED_LISTINGS: '200',
      TRUST_PROXY: '1',
      SMTP_URL: smtp.url,
      IMPORT_SOURCES: join(dir, 'sources.json'),
      SHARED_FEED_TOKEN: reso.token,
      ALERTS_INTERVAL: '0',
    };
    // started at once on the empty database
    const started = await Promise.allSettled([
      startServerProcess(env, { readyMs: 150_000 }),
      startServerProcess(env, { readyMs: 150_000 }),
    ]);
    // both, or neither: one that came up is stopped with the suite either way
    for (const s of started) if (s.status === 'fulfilled') servers.push(s.value);
    for (const s of started) if (s.status === 'rejected') throw s.reason;
    db = await openPostgres(database.url);
    secret = (await addEndpoint(db, { url: hooks.url, events: ['inquiry.created'], dev: true })).secret;
  }, 200_000);
  afterAll(async () => {
    for (const s of servers) await s.kill();
    await db?.close();
    await hooks?.close();
    await smtp?.stop();
    await reso?.close();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('both come up on the empty database and serve one site: the migrations and the seed ran once', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const outputs = [a.output(), b.output()];
    expect(outputs.filter((o) => /\[db\] applied migrations/.test(o))).toHaveLength(1);
    expect(outputs.filter((o) => /\[db\] seeded \d+ listings/.test(o))).toHaveLength(1);
    expect(outputs.join('\n')).not.toMatch(/could not prepare the database|deadlock|duplicate key/);
    const count = async (s: ServerProcess) =>
      (await fetch(`${s.url}/rest/v1/listings?select=id&limit=1`, { headers: { Prefer: 'count=exact' } })).headers.get(
        'content-range',
      );
    const [ca, cb] = await Promise.all([count(a), count(b)]);
    expect(ca).toMatch(/\/\d+$/);
    expect(cb).toBe(ca);
    expect((await fetch(`${b.url}/es/findanagent`)).status).toBe(200);
  });

  it('the scheduled import runs once per period across both servers, never two at once', async () => {
    // a few periods of 6 s
    await until(async () => (await runs()).filter((r) => r.finished !== null).length >= 3, 60_000, 'three runs');
    const done = (await runs()).filter((r) => r.finished !== null);
    for (let i = 1; i < done.length; i++) {
      const [before, next] = [done[i - 1]!, done[i]!];
      // the next began after the one before it ended, a period (6 s, looked at every 1.5 s) after it began
      expect(next.started).toBeGreaterThanOrEqual(before.finished as number);
      expect(next.started - before.started).toBeGreaterThan(5.5);
    }
    expect(done[0]?.outcome).toBe('done');
    const rows = (await (
      await fetch(`${servers[1]!.url}/rest/v1/listings?select=address&city=eq.Tumbaco&address=like.Calle%20Compartida*`)
    ).json()) as unknown[];
    expect(rows).toHaveLength(6);
    // the feed read once per run: each run's first page asked once
    const firstPages = reso.requests
      .map((r) => decodeURIComponent(r))
      .filter((r) => r.startsWith('/odata/Property') && !r.includes('$skip=') && !r.includes('$select=ListingKey'));
    expect(firstPages.length).toBe((await runs()).length);
  }, 90_000);

  it("an inquiry's mail and webhook are delivered once; a client's rate limit holds across the servers", async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const res = await inquiry(a, '10.60.0.1', 'two-servers-inquiry-1');
    expect(res.status).toBe(200);
    const { id } = (await res.json()) as { id: string };
    await until(
      () =>
        smtp.mails.some((m) => m.inquiryId === String(id)) &&
        hooks.deliveries.some((d) => d.answered === 200 && d.body.includes(String(id))),
      30_000,
      'the mail and the webhook',
    );
    // both servers' outboxes look again before this is read
    await sleep(6000);
    expect(smtp.mails.filter((m) => m.inquiryId === String(id))).toHaveLength(1);
    const delivered = hooks.deliveries.filter((d) => d.answered === 200 && d.body.includes(String(id)));
    expect(delivered).toHaveLength(1);
    expect(
      (
        new Webhook(secret).verify(delivered[0]!.body, delivered[0]!.headers as Record<string, string>) as {
          type: string;
        }
      ).type,
    ).toBe('inquiry.created');

    // five inquiries a minute from one client (INQUIRY_RATE_LIMIT), wherever they land
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await inquiry(i % 2 ? b : a, '10.60.0.2', `two-servers-limit-${i}`)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect((await inquiry(b, '10.60.0.3', 'two-servers-other-client')).status).toBe(200);
  }, 60_000);

  it('a server killed with kill -9 in the middle of an import loses nothing: the other finishes it', async () => {
    // a new listing, and the feed's next answer slow: the next run is caught mid-way
    reso.listings.set('TWO-7', { ...listing(7), ModificationTimestamp: nowDate().toISOString() });
    reso.faults.push({ from: 0, delayMs: 4000, once: true });
    await until(() => reso.faults.length === 0, 30_000, 'the slow answer asked for');
    const [job] = await db.admin.query<{ runner: string }>(
      "select last_runner as runner from internal.job_schedule where job = 'shared-feed'",
    );
    const pid = Number(/pid (\d+)/.exec(job?.runner ?? '')?.[1]);
    const victim = servers.find((s) => s.child.pid === pid);
    expect(victim, `the runner ${job?.runner}`).toBeDefined();
    const killedAt = clockNow() / 1000;
    await victim!.kill();
    servers.splice(servers.indexOf(victim!), 1);
    // the other server runs the source again at its next look, and the listing arrives
    await until(
      async () => (await runs()).some((r) => r.outcome === 'done' && (r.finished ?? 0) > killedAt),
      40_000,
      'a run after the kill',
    );
    const rows = (await (
      await fetch(`${servers[0]!.url}/rest/v1/listings?select=address&address=eq.Calle%20Compartida%207`)
    ).json()) as unknown[];
    expect(rows).toHaveLength(1);
    // the killed run never finished; nothing of it was half-applied
    const all = await runs();
    expect(all.filter((r) => r.finished === null).length).toBeLessThanOrEqual(1);
    // a replacement server joins
    servers.push(await startServerProcess(env, { readyMs: 120_000 }));
  }, 180_000);

  it('a server killed with kill -9 in the middle of a delivery loses nothing: the other delivers it, once', async () => {
    const recipient = (address: string) => address.startsWith('equipo@');
    smtp.hold(recipient);
    const [first] = servers as [ServerProcess, ServerProcess];
    const res = await inquiry(first, '10.60.0.9', 'two-servers-killed-mid-delivery');
    const { id } = (await res.json()) as { id: string };
    await until(() => smtp.holding() > 0, 20_000, 'a delivery in flight');
    await sleep(300);
    // the server whose conversation is held (the other may keep an idle pooled connection of its own)
    const senders = connectedTo(
      smtp.port,
      servers.map((s) => s.child.pid ?? 0),
      smtp.heldPorts(),
    );
    expect(senders).toHaveLength(1);
    const sender = servers.find((s) => s.child.pid === senders[0])!;
    await sender.kill();
    servers.splice(servers.indexOf(sender), 1);
    smtp.release();
    // the survivor takes the mail over once its lease has run out (20 s)
    await until(() => smtp.mails.some((m) => m.inquiryId === String(id)), 60_000, 'the mail from the survivor');
    await sleep(3000);
    expect(smtp.mails.filter((m) => m.inquiryId === String(id))).toHaveLength(1);
    await until(
      () => hooks.deliveries.some((d) => d.answered === 200 && d.body.includes(String(id))),
      30_000,
      'the webhook',
    );
    expect([...hooks.taken().values()].every((n) => n === 1)).toBe(true);
  }, 120_000);
});

describe("a server's caches of what another server changes", () => {
  it("the data API's schema: a function another server's migration made is served within the cache's age (a minute; a second here)", async () => {
    const server = await startTestServer('postgres', { schemaTtlMs: 1000 });
    try {
      expect((await fetch(`${server.url}/rest/v1/listings?select=id&limit=1`)).status).toBe(200);
      // as a newer server's migration would: straight into the database
      await server.sql(
        "create function public.exp_test_answer() returns integer language sql stable as 'select 42'; grant execute on function public.exp_test_answer() to anon;",
      );
      expect((await fetch(`${server.url}/rest/v1/rpc/exp_test_answer`)).status).toBe(404);
      await until(
        async () => (await fetch(`${server.url}/rest/v1/rpc/exp_test_answer`)).status === 200,
        10_000,
        'the new function',
      );
      expect(await (await fetch(`${server.url}/rest/v1/rpc/exp_test_answer`)).json()).toBe(42);
    } finally {
      await server.close();
    }
  });
});

describe('the private settings several processes make at once', () => {
  it('the client hash salt: a process that asks while another is making it reads the one made, not an error (CI: a server of two started at once refused to start)', async () => {
    const database = await postgresDatabase('migrated');
    const first = await openPostgres(database.url);
    const second = await openPostgres(database.url);
    const makes = new pg.Client({ connectionString: database.url });
    await makes.connect();
    try {
      // another process is making it: its row is in, not committed yet
      await makes.query('begin');
      await makes.query(
        "insert into internal.settings (name, value) values ('client_hash_salt', 'made-by-another-process')",
      );
      const asked = clientSalt({ query: (text, params) => second.admin.query(text, params) }, undefined);
      await until(
        async () =>
          Number(
            (
              await first.jobs.query<{ n: number }>(
                "select count(*)::int as n from pg_locks where locktype = 'transactionid' and not granted",
              )
            )[0]?.n,
          ) > 0,
        10_000,
        'the second process waiting for the first',
      );
      await makes.query('commit');
      expect(await asked).toBe('made-by-another-process');
    } finally {
      await makes.end();
      await first.close();
      await second.close();
      await database.drop();
    }
  });
});
