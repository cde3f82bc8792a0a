/**
 * npm run bench -- functions: the CPU time each deployed function spends per request, against the
 * platform's 2 s per request (Supabase Edge Functions' CPU limit). Each function runs under Deno
 * from what `supabase functions deploy --use-api` uploads (the real CLI, a stand-in of the
 * Management API: tests/support/functions-deploy.ts), on PostgreSQL with BENCH_LISTINGS listings
 * and BENCH_SEARCHES confirmed saved searches, mailing through a stand-in of a mail provider's HTTP
 * API. The CPU time is the Deno process's (user + system, every thread: /proc/<pid>/stat), read
 * before and after each request once its background work (the mail it sends) has settled.
 */
import { readFileSync } from 'node:fs';
import { openPostgres } from '../server/db/postgres.ts';
import { migrate } from '../server/db/setup.ts';
import { startDenoFunction, type DenoFunction } from '../tests/support/deno-function.ts';
import { deployWithCli, writeUploaded, type UploadedFunction } from '../tests/support/functions-deploy.ts';
import { startMailApi, type MailApi } from '../tests/support/mail-api.ts';
import { startPostgres } from '../tests/support/postgres.ts';
import { moveTheMarket, seedSearches } from './alerts.ts';
import { summarise, type Summary } from './stats.ts';

const LISTINGS = Number(process.env.BENCH_LISTINGS ?? 100_000);
const SEARCHES = Number(process.env.BENCH_SEARCHES ?? 10_000);
const LIMIT_MS = 2000;
const TICK_MS = 1000 / 100; // USER_HZ: /proc counts CPU time in 10 ms ticks

/** The process's CPU time so far, in ms. */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the line; 12 and 13 after the command
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/** Waits until the process has used no CPU for `quietMs` (its background work done). */
async function settle(pid: number, quietMs = 150): Promise<void> {
  let last = cpuMs(pid);
  for (;;) {
    await new Promise((r) => setTimeout(r, quietMs));
    const now = cpuMs(pid);
    if (now === last) return;
    last = now;
  }
}

interface Case {
  name: string;
  requests: number;
  /** CPU ms per request: the batch's total over its requests */
  mean: number;
  /** each request on its own (10 ms resolution) */
  each: Summary;
  note?: string;
}

async function measure(
  fn: DenoFunction,
  name: string,
  requests: number,
  send: (i: number) => Promise<Response>,
  check: (res: Response, i: number) => Promise<void> | void,
  note?: string,
): Promise<Case> {
  await settle(fn.pid);
  const start = cpuMs(fn.pid);
  const each: number[] = [];
  for (let i = 0; i < requests; i++) {
    const before = cpuMs(fn.pid);
    const res = await send(i);
    await check(res, i);
    await settle(fn.pid, 60);
    each.push(cpuMs(fn.pid) - before);
  }
  const result: Case = {
    name,
    requests,
    mean: Math.round(((cpuMs(fn.pid) - start) / requests) * 100) / 100,
    each: summarise(each),
    ...(note ? { note } : {}),
  };
  console.log(
    `[bench:functions] ${name}: ${result.mean} ms CPU per request (max ${result.each.max} ms) over ${requests}`,
  );
  return result;
}

const expectStatus = (status: number) => async (res: Response) => {
  const text = await res.text();
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${text.slice(0, 300)}`);
};

export async function benchFunctions(): Promise<Record<string, unknown>> {
  console.log('[bench:functions] deploying with the Supabase CLI to a stand-in of the Management API...');
  const { uploads } = await deployWithCli();
  console.log(`[bench:functions] PostgreSQL: ${LISTINGS} listings, ${SEARCHES} confirmed searches...`);
  const postgres = await startPostgres();
  const db = await openPostgres(postgres.url);
  let api: MailApi | undefined;
  const running: DenoFunction[] = [];
  try {
    await migrate(db);
    await seedSearches(db, LISTINGS, SEARCHES);
    api = await startMailApi();
    const secrets = {
      SUPABASE_DB_URL: postgres.url,
      MAIL_API_URL: api.url,
      MAIL_API_KEY: api.key,
      SITE_URL: 'https://expecuador.example',
      ALERTS_RUN_SECRET: 'bench-alerts',
      ALERTS_SETTLE: '0',
    };
    const start = async (slug: string) => {
      const dir = writeUploaded(uploads.get(slug) as UploadedFunction);
      const t0 = Date.now();
      const fn = await startDenoFunction(secrets, slug, dir);
      running.push(fn);
      await settle(fn.pid);
      return { fn, boot: { cpuMs: cpuMs(fn.pid), wallMs: Date.now() - t0 } };
    };
    const inquiry = await start('send-property-inquiry');
    const alerts = await start('saved-searches');
    const visits = await start('visits');
    const ip = (i: number, block: number) => ({
      'CF-Connecting-IP': `10.${block}.${Math.floor(i / 250)}.${(i % 250) + 1}`,
    });
    const post = (fn: DenoFunction, body: unknown, headers: Record<string, string> = {}) =>
      fetch(fn.url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: 'https://expecuador.example', ...headers },
        body: JSON.stringify(body),
      });
    const sentBefore = () => api?.sent.length ?? 0;

    const cases: Case[] = [];
    cases.push(
      await measure(
        inquiry.fn,
        'send-property-inquiry: preflight (OPTIONS)',
        100,
        () =>
          fetch(inquiry.fn.url, {
            method: 'OPTIONS',
            headers: { Origin: 'https://expecuador.example', 'Access-Control-Request-Method': 'POST' },
          }),
        expectStatus(204),
      ),
    );
    cases.push(
      await measure(
        inquiry.fn,
        'send-property-inquiry: an invalid form (400)',
        100,
        (i) => post(inquiry.fn, { name: '', email: 'not-an-address', message: '' }, ip(i, 20)),
        expectStatus(400),
      ),
    );
    let mails = sentBefore();
    // a 200, and its mails (the agent's, the team's copy) sent in the background before the next
    const answeredAndMailed = async (res: Response) => {
      await expectStatus(200)(res);
      for (let t = 0; t < 200 && (api?.sent.length ?? 0) <= mails; t++) await new Promise((r) => setTimeout(r, 25));
      mails = api?.sent.length ?? 0;
    };
    cases.push(
      await measure(
        inquiry.fn,
        'send-property-inquiry: an inquiry, stored and mailed',
        100,
        (i) =>
          post(
            inquiry.fn,
            {
              name: `Visitante ${i}`,
              email: `visitante.${i}@example.com`,
              phone: '+593 99 123 4567',
              message: 'Quisiera visitar esta casa el sábado.',
              idempotencyKey: `bench-inquiry-${Date.now()}-${i}`,
              lang: 'es',
            },
            ip(i, 21),
          ),
        answeredAndMailed,
        'includes sending its mails through the HTTP API after the answer',
      ),
    );
    cases.push(
      await measure(
        alerts.fn,
        'saved-searches: a saved search, stored and its confirmation mailed',
        100,
        (i) =>
          post(
            alerts.fn,
            {
              action: 'subscribe',
              email: `alerta.${i}@example.com`,
              filters: { city: 'Quito', minPrice: 100000 },
              frequency: 'instant',
              lang: 'es',
              idempotencyKey: `bench-alert-${Date.now()}-${i}`,
            },
            ip(i, 22),
          ),
        expectStatus(200),
        'includes sending the confirmation mail',
      ),
    );
    // visits (docs/visits.md): a request to visit is an inquiry with a visit part, its times checked
    // against the agent's calendar; the agent's mail holds a link per time, which the visits
    // function views and confirms
    const listings = await db.admin.query<{ id: string }>(
      `select l.id::text as id from internal.listings l join public.agents a on a.id = l.agent_id
        where l.status = '1' and l.country_code = 'EC' and nullif(btrim(a.email), '') is not null order by l.id limit 20`,
    );
    mails = sentBefore();
    cases.push(
      await measure(
        inquiry.fn,
        "send-property-inquiry: a request to visit, its times checked against the agent's calendar, stored and mailed",
        listings.length,
        async (i) => {
          const id = (listings[i] as { id: string }).id;
          // times of their own (several listings share an agent, whose calendar holds one visit a time)
          const times = (
            await db.admin.query<{ t: string }>(
              'select t::text as t from public.visit_times($1::bigint) t offset $2 limit 3',
              [id, i * 3],
            )
          ).map((r) => new Date(r.t).toISOString());
          return post(
            inquiry.fn,
            {
              name: `Visitante ${i}`,
              email: `visita.${i}@example.com`,
              phone: '+593 99 123 4567',
              message: 'Quisiera visitarla.',
              propertyId: id,
              idempotencyKey: `bench-visit-${Date.now()}-${i}`,
              lang: 'es',
              visit: { mode: 'in_person', times, timeZone: 'America/Guayaquil' },
            },
            ip(i, 23),
          );
        },
        answeredAndMailed,
        'includes sending its mails through the HTTP API after the answer',
      ),
    );
    // one confirm link of each request, from the agents' mails
    const links = [
      ...new Set(
        (api?.sent ?? []).flatMap((m) =>
          [...`${m.text}`.matchAll(/\/visits\/confirm\?token=([A-Za-z0-9_-]{43})/g)].map((x) => x[1] as string),
        ),
      ),
    ];
    const firstOfEach = links.filter((_, i) => i % 3 === 0).slice(0, listings.length);
    if (!firstOfEach.length) throw new Error('no visit confirm links in the mails');
    cases.push(
      await measure(
        visits.fn,
        "visits: a link's page (view)",
        firstOfEach.length,
        (i) => post(visits.fn, { action: 'view', token: firstOfEach[i] }),
        expectStatus(200),
      ),
    );
    cases.push(
      await measure(
        visits.fn,
        'visits: a time confirmed (its visit, mails and webhook queued, the mails sent)',
        firstOfEach.length,
        (i) => post(visits.fn, { action: 'confirm', token: firstOfEach[i], location: 'En la propiedad' }),
        expectStatus(200),
        'includes sending the confirmations with their invitations',
      ),
    );
    // the market moves (as in bench/alerts.ts), then the alert run finds it
    await moveTheMarket(db);
    await db.admin.query('select pg_sleep(1.1)');
    const before = sentBefore();
    let run: Record<string, number> = {};
    cases.push(
      await measure(
        alerts.fn,
        `saved-searches: the scheduled alert run, ${SEARCHES.toLocaleString('en-US')} searches due`,
        1,
        () => post(alerts.fn, {}, { 'x-alerts-run': 'bench-alerts' }),
        async (res) => {
          run = (await res.json()) as Record<string, number>;
          if (res.status !== 200) throw new Error(`alert run: ${res.status} ${JSON.stringify(run)}`);
        },
        'finds the alerts, queues their mails and sends what its budget allows',
      ),
    );
    const drains: number[] = [];
    let drained = 0;
    const drainCases: Case[] = [];
    for (let i = 0; i < 500; i++) {
      let answer: Record<string, number> = {};
      const c = await measure(
        alerts.fn,
        'saved-searches: a scheduled outbox call',
        1,
        () => post(alerts.fn, {}, { 'x-outbox-drain': 'test-drain-secret' }),
        async (res) => {
          answer = (await res.json()) as Record<string, number>;
        },
      );
      drainCases.push(c);
      drains.push(answer.sent ?? 0);
      drained += answer.sent ?? 0;
      if (!answer.sent) break;
    }
    const drainCpu = drainCases.map((c) => c.mean);
    cases.push({
      name: 'saved-searches: each scheduled outbox call after it, until the alerts are sent',
      requests: drainCases.length,
      mean: Math.round((drainCpu.reduce((a, b) => a + b, 0) / Math.max(1, drainCpu.length)) * 100) / 100,
      each: summarise(drainCpu),
      note: `${drained.toLocaleString('en-US')} mails over ${drainCases.length} calls`,
    });
    const result = {
      listings: LISTINGS,
      searches: SEARCHES,
      limitMs: LIMIT_MS,
      boot: { 'send-property-inquiry': inquiry.boot, 'saved-searches': alerts.boot, visits: visits.boot },
      run,
      alertMailsSent: (api?.sent.length ?? 0) - before,
      cases,
    };
    return { ...result, markdown: functionsMarkdown(result) };
  } finally {
    for (const fn of running) await fn.stop();
    await api?.close();
    await db.close();
    await postgres.stop();
  }
}

export function functionsMarkdown(r: {
  listings: number;
  searches: number;
  limitMs: number;
  boot: Record<string, { cpuMs: number; wallMs: number }>;
  run: Record<string, number>;
  alertMailsSent: number;
  cases: Case[];
}): string {
  const fmt = (n: number) => n.toLocaleString('en-US');
  const worst = Math.max(...r.cases.map((c) => c.each.max));
  const unbudgeted = r.cases
    .filter(
      (c) =>
        c.name.startsWith('saved-searches: the scheduled alert run') ||
        c.name.startsWith('saved-searches: each scheduled outbox call'),
    )
    .reduce((sum, c) => sum + c.mean * c.requests, 0);
  return [
    `### Functions' CPU time per request (${fmt(r.listings)} listings, ${fmt(r.searches)} saved searches; ${new Date().toISOString().slice(0, 10)})`,
    '',
    "Each function run by Deno from the files `supabase functions deploy --use-api` uploads, its process's CPU time (all threads, 10 ms ticks) read around each request once the mail it sends in the background is out. Supabase stops a request at 2 s of CPU.",
    '',
    '| request | requests | CPU per request (mean) | p95 / max of one |',
    '|---|---|---|---|',
    ...r.cases.map(
      (c) =>
        `| ${c.name}${c.note ? ` (${c.note})` : ''} | ${fmt(c.requests)} | ${c.mean} ms | ${c.each.p95} / ${c.each.max} ms |`,
    ),
    '',
    `Start-up (not a request): ${Object.entries(r.boot)
      .map(([name, b]) => `${name} ${fmt(b.cpuMs)} ms CPU, ${fmt(b.wallMs)} ms to its first answer`)
      .join('; ')} (under plain Deno, which compiles the TypeScript; the platform runs a prebuilt bundle).`,
    '',
    `The alert run: ${fmt(r.run.searches ?? 0)} searches, ${fmt(r.run.alerts ?? 0)} alerts; ${fmt(r.alertMailsSent)} mails sent by it and the outbox calls after it. The most CPU one request took: ${worst} ms, ${Math.round((worst / r.limitMs) * 100)}% of the limit. Without the budget (core/functions/cpu-budget.ts) the run and its mails were one request of ${fmt(Math.round(unbudgeted))} ms of CPU, the sum measured here, ${(unbudgeted / r.limitMs).toFixed(1)} times the limit.`,
  ].join('\n');
}
