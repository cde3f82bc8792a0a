import { defineElement } from '../lib/element.tsx';
import { agentDirectoryAttributes } from './agent-directory.attributes.ts';
import { AgentDirectory } from './agent-directory.tsx';
import texts from 'virtual:exp-texts/agent-directory';
import utilities from 'virtual:exp-utilities/agent-directory';

export interface AgentSearchDetail {
  /** the text searched (empty: all agents) */
  query: string;
}

export interface AgentOpenDetail {
  /** the agent's id */
  id: string;
  /** the agent's name as shown */
  name: string;
}

declare module '../lib/events.ts' {
  interface ExpEventMap {
    'exp-agent-search': AgentSearchDetail;
    'exp-agent-open': AgentOpenDetail;
  }
}

/**
 * The directory of the brokerage's agents in Ecuador: a search by name or e-mail (case- and
 * accent-insensitive, the text taken literally), a grid of photos and names, and each agent's
 * contacts in a dialog with a link to the full profile.
 *
 * @tag exp-agent-directory
 * @event exp-agent-search - The visitor searched. detail: `{ query }`.
 * @event exp-agent-open - The visitor opened an agent's card. detail: `{ id, name }`.
 * @csspart root - The element's root box.
 * @csspart directory - The whole directory.
 * @csspart title - The title.
 * @csspart subtitle - The subtitle.
 * @csspart search - The search form.
 * @csspart search-button - The search button.
 * @csspart count - The heading with the number of agents.
 * @csspart agent-card - Each agent in the grid.
 * @csspart agent-dialog - The agent's dialog.
 * @csspart profile-link - The link to the full profile.
 * @csspart empty - The message when no agent matches.
 * @cssprop --exp-color-primary - Buttons and links.
 * @cssprop --exp-color-surface - Cards and the dialog.
 * @cssprop --exp-color-border - Borders.
 * @cssprop --exp-radius - Corner radius.
 * @cssprop --exp-font-family - Font.
 */
defineElement({
  tag: 'exp-agent-directory',
  utilities,
  texts,
  attributes: agentDirectoryAttributes,
  component: AgentDirectory,
  reserve: '100vh',
});
