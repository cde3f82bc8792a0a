/**
 * A deployed function as a hosted project runs it: under Deno, on a fresh migrated and seeded
 * PostgreSQL, mailing through a stand-in of a provider's HTTP API (tests/support/mail-api.ts).
 */
import type { Database } from '../../server/db/database.ts';
import { openPostgres } from '../../server/db/postgres.ts';
import { migrate, seedIfEmpty } from '../../server/db/setup.ts';
import { startDenoFunction, type DenoFunction } from './deno-function.ts';
import { startMailApi, type MailApi } from './mail-api.ts';
import { postgresDatabase, type PostgresDatabase } from './postgres.ts';

export const HOSTED_SITE = 'https://expecuador.example';

export interface HostedFunction {
  database: PostgresDatabase;
  db: Database;
  api: MailApi;
  fn: DenoFunction;
  /** another instance of a function on the same database and mail API (other secrets, another folder) */
  another(secrets?: Record<string, string>, name?: string, dir?: string): Promise<DenoFunction>;
  close(): Promise<void>;
}

export async function startHostedFunction(
  options: { name?: string; dir?: string; secrets?: Record<string, string> } = {},
): Promise<HostedFunction> {
  const database = await postgresDatabase('seeded');
  const db = await openPostgres(database.url);
  await migrate(db);
  await seedIfEmpty(db, 300);
  const api = await startMailApi();
  const others: DenoFunction[] = [];
  const secrets = (more: Record<string, string> = {}) => ({
    SUPABASE_DB_URL: database.url,
    MAIL_API_URL: api.url,
    MAIL_API_KEY: api.key,
    SITE_URL: HOSTED_SITE,
    ...more,
  });
  const fn = await startDenoFunction(secrets(options.secrets), options.name, options.dir);
  return {
    database,
    db,
    api,
    fn,
    async another(more, name, dir) {
      const other = await startDenoFunction(secrets(more), name, dir);
      others.push(other);
      return other;
    },
    async close() {
      for (const f of [fn, ...others]) await f.stop();
      await api.close();
      await db.close();
      await database.drop();
    },
  };
}
