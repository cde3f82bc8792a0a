import { resolveApiConfig } from '../lib/config.ts';
import { askEarly } from '../lib/data/agent-area.ts';
import { defineElement } from '../lib/element.tsx';
import { agentAreaAttributes } from './agent-area.attributes.ts';
import { AgentArea } from './agent-area.tsx';
import texts from 'virtual:exp-texts/agent-area';
import utilities from 'virtual:exp-utilities/agent-area';

/**
 * The agents' own area (docs/agent-area.md): an agent signs in with a code from her e-mail (the
 * backend's Auth) and works her leads, which row level security chooses: newest first, filtered by
 * status, with one tap to call, write or WhatsApp, and a status, a follow-up day and a note to save.
 * Its code loads only where the element is (the agents' page), never on partners' pages.
 *
 * @tag exp-agent-area
 * @csspart root - The element's root box.
 * @csspart loading - The message while the session is read.
 * @csspart sign-in - The sign-in box.
 * @csspart email-form - The e-mail form.
 * @csspart code-form - The code form.
 * @csspart message - What happened to the last step.
 * @csspart leads - The signed-in agent's leads.
 * @csspart sign-out - The sign-out button.
 * @csspart search - The search among all her leads.
 * @csspart status-filter - The status filter.
 * @csspart owner-filter - (The team's) the filter by whose leads they are.
 * @csspart kind-filter - The filter by what a lead asked about.
 * @csspart source-filter - The filter by where a lead came from.
 * @csspart export - The button that downloads the leads shown as CSV.
 * @csspart morning-mail - (An agent's) the box that turns her morning mail of the leads to follow up on or off.
 * @csspart count - How many leads are shown.
 * @csspart empty - Why no lead is shown: none yet, none the search finds, none among the filtered.
 * @csspart list - The list of leads.
 * @csspart more - The button that shows more of the leads she has.
 * @csspart older - The button that brings her older leads.
 * @csspart lead - Each lead.
 * @csspart contact - A lead's call, e-mail and WhatsApp links.
 * @csspart move - A lead's status, follow-up and note form.
 * @cssprop --exp-color-primary - Buttons and links.
 * @cssprop --exp-color-surface - Cards.
 * @cssprop --exp-color-border - Borders.
 * @cssprop --exp-radius - Corner radius.
 * @cssprop --exp-font-family - Font.
 */
defineElement({
  tag: 'exp-agent-area',
  utilities,
  texts,
  attributes: agentAreaAttributes,
  component: AgentArea,
  reserve: '480px',
});

// a signed-in agent's first calls go out now, while the page's elements render (docs/agent-area.md "Speed")
if (typeof document !== 'undefined')
  for (const el of document.querySelectorAll('exp-agent-area'))
    askEarly(
      resolveApiConfig({
        apiUrl: el.getAttribute('api-url') ?? undefined,
        apiKey: el.getAttribute('api-key') ?? undefined,
      }),
    );
