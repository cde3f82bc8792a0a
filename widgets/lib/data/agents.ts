/**
 * Call 4 of docs/product.md §7: EC agents, optionally matched by a search text on first name, last name
 * or e-mail: case- and accent-insensitive substring, the visitor's text taken literally (commas,
 * dots, parentheses, quotes, backslashes, % and _ included; docs/decisions.md #10).
 */
import type { PostgrestClient } from '@supabase/postgrest-js';
import { fold } from '../../../core/protocol/text.ts';
import { matchLiteral, quoteForLogic } from './text.ts';
import { AGENT_COLUMNS, AGENT_PROFILE_COLUMNS } from '../../../core/protocol/agent.ts';
import type { AgentProfileRecord, AgentRecord } from '../../../core/protocol/records.ts';

/** The or=(...) filter for a search text, or undefined for an empty search. */
export function agentSearchFilter(search: string): string | undefined {
  const text = fold(search.trim());
  if (!text) return undefined;
  // a regular expression, not a like pattern: PostgREST reads a like pattern's * as a wildcard
  const pattern = quoteForLogic(matchLiteral(text));
  return ['first_name_search', 'last_name_search', 'email_search'].map((c) => `${c}.match.${pattern}`).join(',');
}

/**
 * Every EC agent the search finds, in id order: the first page says how many there are, and pages
 * follow until they are all read, however few rows the project's Max Rows lets an answer carry.
 */
export async function getAgents(rest: PostgrestClient, search = '', signal?: AbortSignal): Promise<AgentRecord[]> {
  const filter = agentSearchFilter(search);
  const agents: AgentRecord[] = [];
  let total = Infinity;
  while (agents.length < total) {
    let q = rest
      .from('agents')
      .select(AGENT_COLUMNS, agents.length ? {} : { count: 'exact' })
      .eq('country_code', 'EC');
    if (filter) q = q.or(filter);
    const last = agents.at(-1)?.id;
    if (last !== undefined) q = q.gt('id', last);
    let ordered = q.order('id', { ascending: true }).limit(AGENTS_PAGE);
    if (signal) ordered = ordered.abortSignal(signal);
    const { data, error, count } = await ordered;
    if (error) throw new Error(`agents: ${error.message}`);
    if (typeof count === 'number') total = count;
    const page = (data ?? []) as unknown as AgentRecord[];
    if (!page.length) break;
    agents.push(...page);
  }
  return agents;
}

/** agents asked for at a time (a project's Max Rows may answer fewer) */
const AGENTS_PAGE = 1000;

/** One EC agent with the profile columns; null when there is none with this id. */
export async function getAgent(
  rest: PostgrestClient,
  id: string,
  signal?: AbortSignal,
): Promise<AgentProfileRecord | null> {
  if (!/^\d{1,15}$/.test(id.trim())) return null;
  let q = rest.from('agents').select(AGENT_PROFILE_COLUMNS).eq('id', id.trim()).eq('country_code', 'EC').limit(1);
  if (signal) q = q.abortSignal(signal);
  const { data, error } = await q;
  if (error) throw new Error(`agent: ${error.message}`);
  return ((data ?? [])[0] as unknown as AgentProfileRecord | undefined) ?? null;
}

/** A place and the agents who serve it, in public.area_agents' order (docs/valuation.md "The seller's lead"). */
export interface AreaAgents {
  place: { path: string; name: string } | null;
  agents: AgentRecord[];
}

/**
 * The agents who serve a place: public.area_agents names the place and orders the ids (those who
 * name its sector, then its city), and the directory's public columns are read for those ids.
 */
export async function getAreaAgents(rest: PostgrestClient, place: string, signal?: AbortSignal): Promise<AreaAgents> {
  let call = rest.rpc('area_agents', { place: place.slice(0, 200) });
  if (signal) call = call.abortSignal(signal);
  const { data, error } = await call;
  if (error) throw new Error(`area agents: ${error.message}`);
  const answer = (data ?? {}) as { place?: { path?: unknown; name?: unknown } | null; agents?: unknown };
  const named =
    answer.place && typeof answer.place.path === 'string' && typeof answer.place.name === 'string'
      ? { path: answer.place.path, name: answer.place.name }
      : null;
  const ids = (Array.isArray(answer.agents) ? answer.agents : [])
    .map(String)
    .filter((id) => /^\d{1,15}$/.test(id))
    .slice(0, AGENTS_PAGE);
  if (!ids.length) return { place: named, agents: [] };
  let q = rest.from('agents').select(AGENT_COLUMNS).eq('country_code', 'EC').in('id', ids).limit(AGENTS_PAGE);
  if (signal) q = q.abortSignal(signal);
  const rows = await q;
  if (rows.error) throw new Error(`agents: ${rows.error.message}`);
  const byId = new Map(((rows.data ?? []) as unknown as AgentRecord[]).map((r) => [String(r.id), r]));
  return { place: named, agents: ids.flatMap((id) => byId.get(id) ?? []) };
}
