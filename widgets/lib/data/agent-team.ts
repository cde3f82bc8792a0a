/**
 * The team's calls in the agents' area (docs/agent-area.md): the office's agents, inviting and
 * deactivating one, giving a lead to another, the leads' routing and the privacy overview, each
 * through the data API with the team's session (widgets/lib/data/agent-area.ts signs her in).
 */
import type { Session } from '@supabase/auth-js';
import type { ApiConfig } from '../config.ts';
import { restAs } from './agent-area.ts';
import { answer } from './client.ts';

export interface TeamAgent {
  id: number;
  name: string;
  email: string | null;
  active: boolean;
  signed_in: boolean;
  open_leads: number;
  /** her leads to follow up today (her morning mail's) */
  to_follow_up: number;
}

export async function getTeamAgents(config: ApiConfig, session: Session): Promise<TeamAgent[]> {
  return (await answer(restAs(config, session).rpc('team_agents'), 'agents')) as TeamAgent[];
}

/** The team's view of privacy (public.privacy_overview, docs/privacy.md): the latest requests, never an address, and the retention job's last run. */
export interface PrivacyOverview {
  requests: Array<{
    kind: 'access' | 'correction' | 'erasure';
    asked_at: string;
    answered_at: string | null;
    outcome: Record<string, number> | null;
  }>;
  retention: {
    at: string;
    outcome: { leads: number; mails: number; pending_searches: number; privacy_requests: number };
  } | null;
}

export async function getPrivacyOverview(config: ApiConfig, session: Session): Promise<PrivacyOverview> {
  return (await answer(
    restAs(config, session).rpc('privacy_overview', { max_rows: 20 }),
    'privacy requests',
  )) as PrivacyOverview;
}

/** The team gives a lead to an agent of ours (null: the team), saying why. */
export async function reassignLead(
  config: ApiConfig,
  session: Session,
  leadId: string,
  agentId: number | null,
  reason: string,
): Promise<void> {
  await answer(
    restAs(config, session).rpc('reassign_lead', { lead_id: leadId, agent_id: agentId, reason: reason.trim() || null }),
    'reassign the lead',
  );
}

export async function deactivateAgent(
  config: ApiConfig,
  session: Session,
  agentId: number,
): Promise<{ leads_moved: number }> {
  return (await answer(
    restAs(config, session).rpc('deactivate_agent', { agent_id: agentId }),
    'deactivate the agent',
  )) as { leads_moved: number };
}

/** Invites an agent; a refusal's reason is the database's hint (email, name). */
export async function inviteAgent(
  config: ApiConfig,
  session: Session,
  agent: { email: string; firstName: string; lastName: string },
): Promise<{ agent_id: number } | { refused: string }> {
  const { data, error } = await restAs(config, session).rpc('invite_agent', {
    email: agent.email,
    first_name: agent.firstName,
    last_name: agent.lastName,
  });
  if (error) {
    if (error.code === '22023' && error.hint) return { refused: error.hint };
    throw new Error(`could not invite: ${error.message}`);
  }
  return data as { agent_id: number };
}

export interface RoutingRule {
  id?: number;
  place: string | null;
  property_type: string | null;
  min_price: number | null;
  max_price: number | null;
  source: string | null;
  agent_id: number;
}
export interface Routing {
  default: 'team' | 'spread';
  rules: RoutingRule[];
}

export async function getRouting(config: ApiConfig, session: Session): Promise<Routing> {
  return (await answer(restAs(config, session).rpc('routing_setup'), 'routing')) as Routing;
}

/** Saves the routing; a refusal's hint names the field and the rule's position ("place:2"). */
export async function saveRouting(
  config: ApiConfig,
  session: Session,
  routing: Routing,
): Promise<Routing | { refused: string }> {
  const { data, error } = await restAs(config, session).rpc('save_routing', {
    default_route: routing.default,
    rules: routing.rules,
  });
  if (error) {
    if (error.code === '22023' && error.hint) return { refused: error.hint };
    throw new Error(`could not save the routing: ${error.message}`);
  }
  return data as Routing;
}
