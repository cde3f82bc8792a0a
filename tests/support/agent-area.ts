/**
 * The agents' area as an agent's browser reaches it (docs/agent-area.md), for the suites of
 * tests/contract/agent-area-*.test.ts: a server with two agents, Ana and Bruno, and a member of the
 * team; and a browser of one's own: @supabase/supabase-js's Auth client against our stand-in of
 * Supabase Auth, signed in with a code read from the mail the server sent, then the same data API
 * the elements use, with that session's JWT.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AuthClient } from '@supabase/auth-js';
import { PostgrestClient } from '@supabase/postgrest-js';
import { expect } from 'vitest';
import type { ServerOptions } from '../../server/server.ts';
import { startTestServer, type TestServer } from './servers.ts';

export const A = 'ana.agente@example.com';
export const B = 'bruno.agente@example.com';
export const TEAM = 'oficina@example.com';

/** Our server (behind one proxy, `options` added) with Ana and Bruno as agents and the team's member; `agent`: the agents' ids by address. */
export async function startAgentArea(
  options: Partial<ServerOptions> = {},
): Promise<{ server: TestServer; agent: Record<string, string> }> {
  const server = await startTestServer('postgres', { trustProxy: { hops: 1 }, ...options });
  const agent: Record<string, string> = {};
  const made = await server.sql<{ id: string; email: string }>(
    `insert into public.agents (first_name, last_name, email, country_code) values ('Ana', 'Agente', $1, 'EC'), ('Bruno', 'Agente', $2, 'EC')
       returning id::text as id, email`,
    [A, B],
  );
  for (const row of made) agent[row.email] = row.id;
  await server.sql(
    `with u as (insert into auth.users (email) values ($1) returning id) insert into internal.team_members (user_id) select id from u`,
    [TEAM],
  );
  return { server, agent };
}

/** The browsers of the agents' area on the suite's server (read when a test runs). */
export function areaBrowsers(serverOf: () => TestServer) {
  /** A browser of its own (an address of its own): Supabase's Auth client and, signed in, the data API with its token, as supabase-js makes them. */
  const client = (ip: string) => {
    const server = serverOf();
    const headers = { apikey: 'local-anon-key', 'X-Forwarded-For': ip };
    const auth = new AuthClient({
      url: `${server.url}/auth/v1`,
      headers,
      persistSession: false,
      autoRefreshToken: false,
      detectSessionInUrl: false,
    });
    const rest = (token = 'local-anon-key') =>
      new PostgrestClient(`${server.url}/rest/v1`, { headers: { ...headers, Authorization: `Bearer ${token}` } });
    return { auth, rest };
  };
  /** The codes mailed to an address, oldest first (the server writes each mail as an .eml file). */
  const codesFor = async (email: string): Promise<string[]> => {
    const server = serverOf();
    await server.drainOutbox();
    return (
      readdirSync(server.outboxDir)
        .sort()
        .map((f) => readFileSync(join(server.outboxDir, f), 'utf8'))
        .filter(
          (m) =>
            m.split(/\r?\n/).some((line) => line.toLowerCase() === `to: ${email}`) &&
            /^Auto-Submitted: auto-generated/im.test(m),
        )
        .map((m) => /\b(\d{6})\b/.exec(m.slice(m.search(/\r?\n\r?\n/)))?.[1] ?? '')
        // (her codes' mails: another to her, such as her morning mail of the leads to follow up, may come in meanwhile)
        .filter(Boolean)
    );
  };

  const signIn = async (email: string, ip: string) => {
    // (the address's earlier codes forgotten: its one-a-minute limit is a test of its own, in agent-area-sign-in.test.ts)
    await serverOf().sql('delete from internal.auth_codes where lower(email) = $1', [email]);
    const sb = client(ip);
    expect((await sb.auth.signInWithOtp({ email, options: { shouldCreateUser: false } })).error).toBeNull();
    const code = (await codesFor(email)).at(-1) ?? '';
    const { data, error } = await sb.auth.verifyOtp({ email, token: code, type: 'email' });
    expect(error).toBeNull();
    expect(data.session?.access_token).toBeTruthy();
    return { sb, rest: sb.rest(data.session!.access_token), code, session: data.session! };
  };
  return { client, codesFor, signIn };
}
