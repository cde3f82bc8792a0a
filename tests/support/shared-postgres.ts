/**
 * vitest's global setup: one PostgreSQL for the unit stage's suites (DATABASE_URL's server when it
 * is set, else a throwaway one of our own) with two template databases, one migrated and one
 * migrated and seeded as the server seeds itself. Each suite's database is then a copy
 * (tests/support/postgres.ts postgresDatabase), made in a fraction of a second. Suites that stop
 * and start PostgreSQL still run a server of their own.
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

export async function setup(): Promise<() => Promise<void>> {
  let server: PostgresServer | undefined;
  let url = process.env.DATABASE_URL;
  if (!url) {
    // every worker's suites at once: their pools, and the tests that open many connections
    server = await startPostgres({ max_connections: 400 });
    url = server.url;
  }
  const names = { migrated: `exp_template_${process.pid}_migrated`, seeded: `exp_template_${process.pid}_seeded` };
  for (const [kind, name] of Object.entries(names)) {
    await admin(url, `create database ${name}`);
    const target = new URL(url);
    target.pathname = `/${name}`;
    const db = await openPostgres(target.toString());
    try {
      await migrate(db);
      if (kind === 'seeded') await seedIfEmpty(db);
    } finally {
      // a template must have no connection while it is copied
      await db.close();
    }
  }
  process.env[SHARED_ENV.url] = url;
  process.env[SHARED_ENV.migrated] = names.migrated;
  process.env[SHARED_ENV.seeded] = names.seeded;
  return async () => {
    if (server) await server.stop();
    else for (const name of Object.values(names)) await admin(url, `drop database if exists ${name} with (force)`);
  };
}

// playwright's globalSetup takes the default export (its teardown: the function it returns)
export default setup;
