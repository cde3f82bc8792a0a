/**
 * vitest's and playwright's global setup: one PostgreSQL for the suites (DATABASE_URL's server when
 * it is set, else a throwaway one of our own) with two template databases, one migrated and one
 * migrated and seeded as the server seeds itself. Each suite's database is then a copy
 * (tests/support/postgres.ts postgresDatabase), made in a fraction of a second. Suites that stop
 * and start PostgreSQL still run a server of their own. `npm test` makes them once for all its
 * stages (scripts/test.ts).
 */
import pg from 'pg';
import { openPostgres } from '../../server/db/postgres.ts';
import { migrate, seedIfEmpty } from '../../server/db/setup.ts';
import { SHARED_ENV, startPostgres, type PostgresServer } from './postgres.ts';

async function admin(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * The shared server and its templates: made here, or the ones the run made already (scripts/test.ts
 * makes them once, beside the lint, for every stage: then nothing is made or dropped here).
 */
export async function setup(): Promise<() => Promise<void>> {
  if (process.env[SHARED_ENV.url] && process.env[SHARED_ENV.migrated] && process.env[SHARED_ENV.seeded])
    return async () => {};
  const shared = await startSharedPostgres();
  Object.assign(process.env, shared.env);
  return shared.stop;
}

/**
 * One PostgreSQL (DATABASE_URL's server, else a throwaway one) with the two templates: migrated
 * once, then copied and seeded as the server seeds itself. `env` names them for the suites.
 */
export async function startSharedPostgres(): Promise<{ env: Record<string, string>; stop(): Promise<void> }> {
  let server: PostgresServer | undefined;
  let url = process.env.DATABASE_URL;
  if (!url) {
    // every worker's suites at once: their pools, and the tests that open many connections
    server = await startPostgres({ max_connections: 400 });
    url = server.url;
  }
  const names = { migrated: `exp_template_${process.pid}_migrated`, seeded: `exp_template_${process.pid}_seeded` };
  const at = (name: string) => {
    const target = new URL(url);
    target.pathname = `/${name}`;
    return target.toString();
  };
  try {
    await admin(url, `create database ${names.migrated}`);
    const migrated = await openPostgres(at(names.migrated));
    try {
      await migrate(migrated);
    } finally {
      // a template must have no connection while it is copied
      await migrated.close();
    }
    // the seeded one a copy of the migrated one: the migrations run once
    await admin(url, `create database ${names.seeded} template ${names.migrated}`);
    const seeded = await openPostgres(at(names.seeded));
    try {
      await seedIfEmpty(seeded);
    } finally {
      await seeded.close();
    }
  } catch (error) {
    await server?.stop();
    throw error;
  }
  return {
    env: { [SHARED_ENV.url]: url, [SHARED_ENV.migrated]: names.migrated, [SHARED_ENV.seeded]: names.seeded },
    async stop() {
      if (server) await server.stop();
      else for (const name of Object.values(names)) await admin(url, `drop database if exists ${name} with (force)`);
    },
  };
}

// playwright's globalSetup takes the default export (its teardown: the function it returns)
export default setup;
