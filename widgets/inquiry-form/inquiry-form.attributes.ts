import type { AttrSchema } from '../lib/attributes.ts';

export const inquiryFormAttributes = {
  /** The listing asked about: its agent receives the inquiry (else the team). */
  'listing-id': { type: 'string', maxLength: 20 },
  /** An agent to address the inquiry to (an agent's page without a listing). */
  'agent-id': { type: 'string', maxLength: 20 },
  /** A heading above the form; none when omitted and there is no listing. */
  heading: { type: 'string', maxLength: 200 },
  /** With the listing: "Schedule a visit" above the form, in the times of the listing's agent (a new development's show flat). */
  visit: { type: 'boolean', default: false },
  /** The visit's heading, when not "Schedule a visit" ("Visit the show flat"). */
  'visit-heading': { type: 'string', maxLength: 200 },
} as const satisfies AttrSchema;
