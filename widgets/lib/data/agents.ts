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
export async function getAgent(rest: PostgrestClient, id: string, signal?: AbortSignal): Promise<AgentProfileRecord | null> {
  if (!/^\d{1,15}$/.test(id.trim())) return null;
  let q = rest.from('agents').select(AGENT_PROFILE_COLUMNS).eq('id', id.trim()).eq('country_code', 'EC').limit(1);
  if (signal) q = q.abortSignal(signal);
  const { data, error } = await q;
  if (error) throw new Error(`agent: ${error.message}`);
  return ((data ?? [])[0] as unknown as AgentProfileRecord | undefined) ?? null;
}
