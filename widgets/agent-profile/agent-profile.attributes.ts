import type { AttrSchema } from '../lib/attributes.ts';

export const agentProfileAttributes = {
  /** The agent to show (the page /findanagent/{id} passes the id from the path). */
  'agent-id': { type: 'string', maxLength: 40 },
  /** Where 'Return to Search' and 'Back to agent search' go. */
  'directory-url': { type: 'string', default: '/findanagent', maxLength: 300 },
  /** Describe the agent in schema.org JSON-LD (a script in the element's light DOM) for search engines. */
  'structured-data': { type: 'boolean', default: false },
  /** Calling code that replaces a leading 0 in phone numbers for WhatsApp. */
  'phone-country-code': { type: 'string', default: '593', maxLength: 4 },
  /** Map tiles URL template of the map of a listing's dialog; default OpenStreetMap's own tiles, for development only (docs/deployment.md, "Map tiles"). */
  'tile-url': { type: 'url' },
  /** The map tiles' credit as their provider asks for it, shown on the map: text and links (`&copy; <a href="https://provider.example/copyright">Provider</a>`); default the OpenStreetMap credit. */
  'tile-attribution': { type: 'string', maxLength: 1000 },
} as const satisfies AttrSchema;
