/**
 * What every deployed function of ours sets up the same way (the entry files only import the npm
 * packages and the locale files, and hand them over): the secrets read and checked, a guarded
 * Postgres pool on the project's database, the shared outbox with a composer for every kind of mail
 * and the webhooks' deliverer,
 * and the scheduled calls (a secret header): `x-outbox-drain` probes SMTP and delivers what waited,
 * `x-alerts-run` runs the alert job (docs/decisions.md #23) and then delivers.
 */
import type { Dict } from '../translate.ts';
import type { Lang } from '../lang.ts';
import { pgSql, type PgPool } from './db/pg.ts';
import { cpuBudget } from './cpu-budget.ts';
import { CLOCK_OFFSET_ENV, clockSessionOptions } from '../clock.ts';
import { DEFAULTS } from './defaults.ts';
import { clientAddress, SUPABASE_EDGE, UNKNOWN_CLIENT } from './client-address.ts';
import { gateByClient } from './client-gate.ts';
import { envReader, readAlertSettings, readInquirySettings, readMailSettings } from './env.ts';
import { allComposers } from './outbox/composers.ts';
import { smtpMailer, type TransportFactory } from './outbox/smtp.ts';
import { httpMailer } from './outbox/http-mail.ts';
import { createOutboxWorker } from './outbox/worker.ts';
import { runAlerts } from './alerts/run.ts';
import { fetchPoster, WEBHOOK_DELAYS, WEBHOOK_MAX_ATTEMPTS, webhookDeliverer } from './webhooks/deliver.ts';

export interface DenoDeps {
  /** the function's name, for its log lines */
  name: string;
  env: (name: string) => string | undefined;
  /** npm:pg's Pool */
  Pool: new (
    options: Record<string, unknown>,
  ) => PgPool & { on(event: 'error', listener: (error: Error) => void): unknown };
  /** npm:nodemailer's createTransport */
  createTransport: TransportFactory;
  /** core/locales/{en,es}.json */
  texts: { en: Dict; es: Dict };
}

export function setUpFunction(deps: DenoDeps) {
  const env = envReader(deps.env);
  const dbUrl = env.url('SUPABASE_DB_URL', ['postgres', 'postgresql']);
  if (!dbUrl) env.problems.push('SUPABASE_DB_URL must be set (the platform provides it)');
  const mail = readMailSettings(env, 'https://expecuador.example', { hosted: true });
  const inquiry = { ...readInquirySettings(env), siteUrl: mail.siteUrl };
  const alerts = readAlertSettings(env);
  // a hosted project's edge (Cloudflare) sets CF-Connecting-IP, overwriting what a client sent
  const trust = env.proxyTrust('TRUST_PROXY', SUPABASE_EDGE);
  const drainSecret = env.optional('OUTBOX_DRAIN_SECRET');
  const alertsSecret = env.optional('ALERTS_RUN_SECRET');
  // REQUEST_CPU_BUDGET_MS: a request's CPU for work that can wait (below the platform's 2 s)
  const cpuBudgetMs = env.int('REQUEST_CPU_BUDGET_MS', DEFAULTS.requestCpuBudgetMs, { min: 10, max: 1900 });
  // the one clock's offset, which only the tests set (core/clock.ts): a number or nothing
  env.int(CLOCK_OFFSET_ENV, 0, { min: -4e12, max: 4e12 });
  env.done();

  // every statement with a time limit, as our server's privileged work has (defaults.ts)
  // (and the one clock's offset, where the tests set one: core/clock.ts)
  const clock = clockSessionOptions();
  const pool = new deps.Pool({
    connectionString: dbUrl,
    max: 3,
    connectionTimeoutMillis: 5000,
    statement_timeout: DEFAULTS.serviceStatementTimeoutMs,
    ...(clock ? { options: clock } : {}),
  });
  // an idle connection the database closed must not end the isolate
  pool.on('error', (error: Error) => console.error(`[${deps.name}] idle connection:`, error.message));
  const sql = pgSql(pool);
  const noSmtp = async () => {
    throw new Error('neither SMTP_URL nor MAIL_API_URL is set');
  };
  const outbox = createOutboxWorker({
    sql,
    mailer: mail.api
      ? httpMailer(mail.api)
      : mail.smtpUrl
        ? smtpMailer(deps.createTransport, mail.smtpUrl)
        : { send: noSmtp, verify: noSmtp },
    composers: allComposers({
      from: mail.from,
      siteUrl: mail.siteUrl,
      teamInbox: alerts.teamInbox,
      texts: (lang) => deps.texts[lang],
    }),
    // signed webhooks to the CRM (docs/leads.md): over fetch, https outside private networks
    deliverers: {
      webhook: {
        deliver: webhookDeliverer(fetchPoster),
        maxAttempts: WEBHOOK_MAX_ATTEMPTS,
        baseDelaySeconds: WEBHOOK_DELAYS.baseSeconds,
        maxDelaySeconds: WEBHOOK_DELAYS.maxSeconds,
      },
    },
    log: (line) => console.log(line),
  });
  // within a request's share of CPU: what is left waits for the next scheduled call
  const budget = () => cpuBudget(cpuBudgetMs);
  const drain = () =>
    outbox
      .drain(budget())
      .catch((error) => console.error(`[${deps.name}] outbox:`, error instanceof Error ? error.message : error));

  /** The scheduled calls; undefined when the request is not one of them. */
  async function scheduled(request: Request): Promise<Response | undefined> {
    if (drainSecret && request.headers.get('x-outbox-drain') === drainSecret) {
      const spend = budget();
      const madeDue = await outbox.recoverIfSmtpIsBack().catch(() => 0);
      return Response.json({ madeDue, ...(await outbox.drain(spend)) });
    }
    if (alertsSecret && request.headers.get('x-alerts-run') === alertsSecret) {
      // one budget for the run and the mail it sends: the searches and mails left go on in the next calls
      const spend = budget();
      const run = await runAlerts(sql, { settleSeconds: alerts.settleSeconds, budget: spend });
      const sent = await outbox.drain(spend);
      return Response.json({ ...run, ...sent, more: Boolean(run.more) || sent.more });
    }
    return undefined;
  }

  /**
   * The client address of a request (client-address.ts); `peer` is Deno.serve's remote address. A
   * request without the header the platform's edge sets is from no known client (its limits then
   * key on its e-mail address): said once in the function's log, for the operator to check.
   */
  let warned = false;
  const client = (request: Request, peer: string | undefined) => {
    const address = clientAddress((name) => request.headers.get(name), peer, trust);
    if (address === UNKNOWN_CLIENT && 'header' in trust && !warned) {
      warned = true;
      console.warn(
        `[${deps.name}] a request came without ${trust.header}: its client is unknown, so its limits are its e-mail address's and a ceiling for all such requests (docs/deployment.md, "The client's address": check that ${trust.header} reaches the functions)`,
      );
    }
    return address;
  };

  /**
   * What Deno.serve runs: the scheduled calls first, then the handler with the client's address
   * (Deno's remote address when it is a TCP peer, read through TRUST_PROXY).
   */
  const serve = (handle: (request: Request, context: { clientAddress: string }) => Promise<Response>) => {
    // each client's share of the function's pool (client-gate.ts)
    const gated = gateByClient(handle);
    return async (
      request: Request,
      info: { remoteAddr: { transport: string; hostname?: string } },
    ): Promise<Response> => {
      const answer = await scheduled(request);
      if (answer) return answer;
      const peer = info.remoteAddr.transport === 'tcp' ? info.remoteAddr.hostname : undefined;
      return gated(request, { clientAddress: client(request, peer) });
    };
  };

  // the locale files' texts, for what the functions keep in words (a consent's box)
  const texts = (lang: Lang) => deps.texts[lang];
  return { sql, mail, inquiry, alerts, texts, outbox, drain, scheduled, client, serve };
}

/** Only Supabase's runtime has EdgeRuntime; under plain Deno (our tests) the work simply runs on. */
export function background(work: Promise<unknown>): void {
  const runtime = (globalThis as { EdgeRuntime?: { waitUntil(p: Promise<unknown>): void } }).EdgeRuntime;
  if (runtime) runtime.waitUntil(work);
}
