/**
 * An agent as the elements show it. The rules live in the protocol folder the server's agent pages
 * share (supabase/functions/_shared/protocol/agent.ts); elements reach them through here.
 */
export { profileHref, toAgent, toAgentProfile, type Agent, type AgentProfile } from '../../../supabase/functions/_shared/protocol/agent.ts';
