import { defineElement } from '../lib/element.tsx';
import { agentProfileAttributes } from './agent-profile.attributes.ts';
import { AgentProfile } from './agent-profile.tsx';
import texts from 'virtual:exp-texts/agent-profile';
import utilities from 'virtual:exp-utilities/agent-profile';

/**
 * An agent's full profile: name, contact card, about, languages, specializations, certifications,
 * locations served, the agent's active listings, and 'Contact Agent', which sends an inquiry
 * addressed to this agent. An unknown id shows 'Agent not found'.
 *
 * @tag exp-agent-profile
 * @event exp-property-open - The visitor opened one of the agent's listings. detail: `{ id, title }`. Cancelable: preventDefault() keeps the detail closed (the host handles the listing, e.g. follows the link to its page).
 * @event exp-inquiry-sent - An inquiry to the agent (or about a listing) was stored. detail: `{ id, propertyId, agentId }`.
 * @event exp-listing-save - The visitor saved or removed a listing with its heart. detail: `{ id, saved, title }`.
 * @csspart root - The element's root box.
 * @csspart profile - The whole profile.
 * @csspart return-link - 'Return to Search'.
 * @csspart contact-card - The card with the photo and contacts.
 * @csspart name - The agent's name.
 * @csspart contact-button - 'Contact Agent'.
 * @csspart social-link - Each website or social link.
 * @csspart listings - The agent's listings.
 * @csspart card - Each listing card.
 * @csspart contact-dialog - The dialog with the inquiry form.
 * @csspart not-found - 'Agent not found'.
 * @csspart back-link - 'Back to agent search'.
 * @csspart save-button - The heart that saves a listing (`saved` while it is saved).
 * @cssprop --exp-color-primary - Buttons and links.
 * @cssprop --exp-color-surface - The contact card.
 * @cssprop --exp-color-border - Borders.
 * @cssprop --exp-radius - Corner radius.
 * @cssprop --exp-font-family - Font.
 */
defineElement({
  tag: 'exp-agent-profile',
  utilities,
  texts,
  attributes: agentProfileAttributes,
  component: AgentProfile,
  reserve: '100vh',
});
