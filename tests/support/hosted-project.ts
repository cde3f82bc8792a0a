/**
 * A database as a hosted Supabase project has it (docs/deployment.md "The database"), for the
 * suites of tests/contract/privileges-*.test.ts: a PostgreSQL prepared as a project's initial
 * schema prepares one (the roles anon, authenticated and service_role, their statement timeouts,
 * and default privileges that grant everything new in `public` to them), migrated by the Supabase
 * CLI from npm (`supabase db push --db-url`, pinned), seeded as an operator seeds a project, and our
 * server reading it on DATABASE_URL.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { PostgrestClient } from '@supabase/postgrest-js';
import pg from 'pg';
import { expect } from 'vitest';
import { supabaseCli } from '../../scripts/lazy-packages.ts';
import { openPostgres } from '../../server/db/postgres.ts';
import { reseed } from '../../server/db/setup.ts';
import { startServer, type RunningServer } from '../../server/server.ts';
import { SUPABASE_INITIAL_SCHEMA } from './postgrest-sql.ts';
import { clusterUrl, postgresDatabase, type PostgresDatabase } from './postgres.ts';
import { stopAll } from './stop-all.ts';

const root = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

/** The database's address as the Supabase CLI takes it. */
const cliUrl = (database: PostgresDatabase) =>
  `${database.url.replace(/^postgres:/, 'postgresql:')}${database.url.includes('?') ? '&' : '?'}sslmode=disable`;

/** The Supabase CLI run on the database (`--db-url` added), in the repository, without telemetry. */
export const supabaseOn = (database: PostgresDatabase, args: string[], timeout: number) =>
  run(supabaseCli(), [...args, '--db-url', cliUrl(database)], {
    cwd: root,
    timeout,
    env: { ...process.env, SUPABASE_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' },
  });

/**
 * Roles are the cluster's, and the suites that prepare a hosted project share one cluster: a suite's
 * initial schema sets the public role's timeout to a new project's 3 s until its migrations set ours
 * again. Preparing a project and reading the roles' settings each hold one lock (an advisory lock
 * in the cluster's own database, released with its session), so no suite reads the roles of
 * another's project half made.
 */
export async function holdingRoles<T>(database: PostgresDatabase, work: () => Promise<T>): Promise<T> {
  const lock = new pg.Client({ connectionString: clusterUrl(database) });
  await lock.connect();
  try {
    await lock.query("select pg_advisory_lock(hashtext('exp-test-hosted-roles'))");
    return await work();
  } finally {
    await lock.end().catch(() => {});
  }
}

/** The database prepared, migrated and seeded; a privileged client of it; our server on it, and the data API's client with the public key. */
export async function prepareHostedProject(): Promise<{
  database: PostgresDatabase;
  client: pg.Client;
  server: RunningServer;
  rest: PostgrestClient;
}> {
  const database = await postgresDatabase();
  const client = new pg.Client({ connectionString: database.url });
  let server: RunningServer | undefined;
  try {
    await client.connect();
    // (roles are the cluster's: another suite's database altering the same role at that moment
    // fails one of the two with "tuple concurrently updated"; the statement is safe to run again)
    await holdingRoles(database, async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          await client.query(SUPABASE_INITIAL_SCHEMA);
          break;
        } catch (error) {
          if (attempt === 3 || !/tuple concurrently updated/.test(String((error as Error).message))) throw error;
          await new Promise((r) => setTimeout(r, 200 * attempt));
        }
      }
      const { stdout, stderr } = await supabaseOn(database, ['db', 'push', '--yes'], 180_000);
      expect(`${stdout}${stderr}`).toContain('Finished supabase db push');
    });
    // the seed, as an operator loads it into a project (npm run seed -- --sql, then psql)
    const db = await openPostgres(database.url);
    await reseed(db, 600);
    // (the schema cache kept a second: the last test's function is seen soon after it is made)
    // (its mails, such as the seed's agents' morning mails at the suite's hour, to a throwaway outbox: never the repository's .data)
    const outboxDir = mkdtempSync(join(tmpdir(), 'exp-outbox-'));
    const running = await startServer({ db, port: 0, seedListings: 600, schemaTtlMs: 1000, mail: { outboxDir } });
    server = {
      ...running,
      async close() {
        await running.close();
        rmSync(outboxDir, { recursive: true, force: true });
      },
    };
    await server.ready;
    return {
      database,
      client,
      server,
      rest: new PostgrestClient(`${server.url}/rest/v1`, { headers: { apikey: 'anon-key' } }),
    };
  } catch (error) {
    await stopAll(server, client, database).catch(() => {});
    throw error;
  }
}
