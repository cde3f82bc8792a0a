import type { AttrSchema } from '../lib/attributes.ts';

export const agentDirectoryAttributes = {
  /** Where an agent's full profile is; {id} is replaced by the agent's id. */
  'profile-url': { type: 'string', default: '/findanagent/{id}', maxLength: 300 },
  /**
   * A place (a path of the location box: `cumbaya`, `quito/la-carolina`): the list shows the agents
   * who serve it (those whose locations served name it or its city) until a search is made or
   * "Show all agents" is chosen; all agents when none does. Empty: all agents.
   */
  place: { type: 'string', default: '', maxLength: 200 },
  /**
   * At most this many agents until "Show all agents" is chosen (a page whose list is one part among
   * others, such as the sellers' page); 0: all of them.
   */
  max: { type: 'number', min: 0, max: 500, integer: true, default: 0 },
  /** Show the title and subtitle (turn off when the page has its own). */
  'show-title': { type: 'boolean', default: true },
} as const satisfies AttrSchema;
