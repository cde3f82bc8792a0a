/**
 * Our data server and the real clients of its data API, for the suites of
 * tests/contract/rest-*.test.ts: @supabase/postgrest-js as the widgets hold it and
 * @supabase/supabase-js as a partner's page makes it, and the count plain SQL gives for the same
 * conditions (tests/support/independent-sql.ts).
 */
import { PostgrestClient } from '@supabase/postgrest-js';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { PUBLIC } from './independent-sql.ts';
import { startTestServer, type TestServer } from './servers.ts';

function supabase(url: string): SupabaseClient {
  return createClient(url, 'local-anon-key', {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as never },
  });
}

/** Our server on `kind`, and the two clients of its data API with the public key. */
export async function startDataApi(
  kind: 'postgres',
): Promise<{ server: TestServer; rest: PostgrestClient; sb: SupabaseClient }> {
  const server = await startTestServer(kind);
  return {
    server,
    rest: new PostgrestClient(`${server.url}/rest/v1`, { headers: { apikey: 'local-anon-key' } }),
    sb: supabase(server.url),
  };
}

/** How many public listings match `where`, as SQL counts them. */
export const sqlCount = async (server: TestServer, where: string) =>
  Number(
    (await server.sql<{ n: number }>(`select count(*) as n from internal.listings where ${PUBLIC} and (${where})`))[0]
      ?.n,
  );
