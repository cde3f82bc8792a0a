/**
 * Where the suites of tests/contract/inquiry-*.test.ts send send-property-inquiry's requests: our
 * Node server, or the deployed function itself under Deno (over PostgreSQL with the migrations
 * applied), each mailing through a real SMTP server; and Lucía's inquiry as the form sends it,
 * with what a test changes, each with an idempotency key of its own.
 */
import type { Database } from '../../server/db/database.ts';
import { openPostgres } from '../../server/db/postgres.ts';
import { migrate, seedIfEmpty } from '../../server/db/setup.ts';
import { FROM, SITE } from './deliveries.ts';
import { startDenoFunction, type DenoFunction } from './deno-function.ts';
import { startPostgres, type PostgresServer } from './postgres.ts';
import { startTestServer, type TestServer } from './servers.ts';
import { startSmtp, type TestSmtp } from './smtp.ts';

let keySeq = 0;
export const key = () => `test-${Date.now().toString(36)}-${++keySeq}-${Math.random().toString(36).slice(2, 8)}`;

export function body(over: Record<string, unknown> = {}) {
  return {
    name: 'Lucía Pérez',
    email: 'lucia.perez@example.com',
    phone: '+593 99 123 4567',
    message: 'Hola, ¿sigue disponible? Me interesa visitarla este sábado.',
    propertyTitle: 'Whatever the page says',
    propertyAddress: 'Somewhere',
    propertyPrice: '$1',
    recipientEmail: '',
    idempotencyKey: key(),
    lang: 'es',
    website: '',
    ...over,
  };
}

/** Where the suite sends inquiries: our server, or the Deno function. */
export interface Target {
  /** the functions base URL, as a Supabase client knows it (…/functions/v1) */
  functionsUrl: string;
  sql<T extends Record<string, unknown> = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** a privileged transaction of the test's own (to hold a lock while requests come) */
  transaction: Database['transaction'];
  /** deliver what is due now (our server's worker; the Deno function's scheduled call) */
  drainOutbox(): Promise<unknown>;
  /** the database, to stop and start (the Deno target's own PostgreSQL) */
  postgres?: PostgresServer;
  close(): Promise<void>;
}

export async function post(
  target: Target,
  payload: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${target.functionsUrl}/send-property-inquiry`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
  return { status: res.status, json: (await res.json().catch(() => ({}))) as Record<string, unknown> };
}

/** Our server as a target: its functions, its database, its outbox. */
export function serverTarget(server: TestServer): Target {
  return {
    functionsUrl: `${server.url}/functions/v1`,
    sql: server.sql,
    transaction: (fn, o) => server.db.transaction(fn, o),
    drainOutbox: () => server.drainOutbox(),
    close: () => server.close(),
  };
}

async function nodeTarget(smtp: TestSmtp): Promise<Target> {
  const server: TestServer = await startTestServer('postgres', {
    trustProxy: { hops: 1 },
    mail: { smtpUrl: smtp.url, intervalMs: 200, from: FROM, siteUrl: SITE, baseDelaySeconds: 0.2, maxDelaySeconds: 1 },
  });
  return serverTarget(server);
}

async function denoTarget(smtp: TestSmtp): Promise<Target> {
  const postgres = await startPostgres();
  let db: Database | undefined;
  let fn: DenoFunction | undefined;
  try {
    db = await openPostgres(postgres.url);
    await migrate(db);
    await seedIfEmpty(db);
    fn = await startDenoFunction({
      SUPABASE_DB_URL: postgres.url,
      SMTP_URL: smtp.url,
      SITE_URL: SITE,
      SMTP_FROM: FROM,
      INQUIRY_RATE_LIMIT: '5',
    });
  } catch (error) {
    await db?.close();
    await postgres.stop();
    throw error;
  }
  const admin = db;
  const deno = fn;
  return {
    functionsUrl: deno.url,
    sql: (text, params = []) => admin.admin.query(text, params),
    transaction: (fn, o) => admin.transaction(fn, o),
    drainOutbox: () => deno.drain(),
    postgres,
    async close() {
      await deno.stop();
      await admin.close();
      await postgres.stop();
    },
  };
}

/** The suites' two targets, for describe.each: a name, how to start it, whether it owns its database (the Deno function's PostgreSQL). */
export const TARGETS = [
  ['our server (Node)', nodeTarget, false],
  ['the deployed function (Deno, PostgreSQL)', denoTarget, true],
] as const;

/** A real SMTP server, and the target `start` makes, mailing through it. */
export async function withSmtp(
  start: (smtp: TestSmtp) => Promise<Target>,
): Promise<{ server: Target; smtp: TestSmtp }> {
  const smtp = await startSmtp();
  try {
    return { server: await start(smtp), smtp };
  } catch (error) {
    await smtp.stop();
    throw error;
  }
}
