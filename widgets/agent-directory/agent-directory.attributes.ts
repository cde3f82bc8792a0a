import type { AttrSchema } from '../lib/attributes.ts';

export const agentDirectoryAttributes = {
  /** Where an agent's full profile is; {id} is replaced by the agent's id. */
  'profile-url': { type: 'string', default: '/findanagent/{id}', maxLength: 300 },
  /** Show the title and subtitle (turn off when the page has its own). */
  'show-title': { type: 'boolean', default: true },
} as const satisfies AttrSchema;
