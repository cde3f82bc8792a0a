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

export async function getAgents(rest: PostgrestClient, search = '', signal?: AbortSignal): Promise<AgentRecord[]> {
  let q = rest.from('agents').select(AGENT_COLUMNS).eq('country_code', 'EC');
  const filter = agentSearchFilter(search);
  if (filter) q = q.or(filter);
  let ordered = q.order('id', { ascending: true });
  if (signal) ordered = ordered.abortSignal(signal);
  const { data, error } = await ordered;
  if (error) throw new Error(`agents: ${error.message}`);
  return (data ?? []) as unknown as AgentRecord[];
}

/** One EC agent with the profile columns; null when there is none with this id. */
export async function getAgent(rest: PostgrestClient, id: string, signal?: AbortSignal): Promise<AgentProfileRecord | null> {
  if (!/^\d{1,15}$/.test(id.trim())) return null;
  let q = rest.from('agents').select(AGENT_PROFILE_COLUMNS).eq('id', id.trim()).eq('country_code', 'EC').limit(1);
  if (signal) q = q.abortSignal(signal);
  const { data, error } = await q;
  if (error) throw new Error(`agent: ${error.message}`);
  return ((data ?? [])[0] as unknown as AgentProfileRecord | undefined) ?? null;
}
