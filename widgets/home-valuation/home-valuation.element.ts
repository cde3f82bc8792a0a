import { defineElement } from '../lib/element.tsx';
import { homeValuationAttributes } from './home-valuation.attributes.ts';
import { HomeValuation } from './home-valuation.tsx';
import texts from 'virtual:exp-texts/home-valuation';
import utilities from 'virtual:exp-utilities/home-valuation';

/**
 * What a home may ask (docs/valuation.md), for sellers: the home's place (a sector, a city or a
 * street, from the location box, or a pin dropped on a small map), its type, areas, rooms, year and features, and at once an
 * estimated asking-price range from the active listings around it, with the comparables it stood
 * on (each a link to its page), the place's median per m² and its trend, how many buyers' saved
 * searches a home like it matches, the agent who serves the place, and a plain statement that it
 * estimates an asking price, not an appraisal. Then "Get a professional valuation": the seller's
 * lead, to `lead-agent-id` (else the agent who serves the place, else the team), and the estimate
 * by e-mail each month if they ask (double opt-in).
 *
 * @tag exp-home-valuation
 * @fires exp-valuation-estimated - An estimate is shown: `detail` is `{ value, low, high, confidence, place }` (`value` null when too few listings are near).
 * @fires exp-seller-lead-sent - The seller's lead was stored: `detail` is `{ id, place, value }`.
 * @csspart root - The element's root box.
 * @csspart heading - The heading.
 * @csspart form - The home's facts.
 * @csspart pin-button - 'Or drop a pin on a map'.
 * @csspart pin-map - The small map where a click puts the home.
 * @csspart submit - 'Estimate its price'.
 * @csspart field-error - A field's error message.
 * @csspart result - The estimate.
 * @csspart value - The estimated value (or why there is none).
 * @csspart range - The range and the price per m².
 * @csspart confidence - How sure the estimate is.
 * @csspart market - The place's median per m² and its change.
 * @csspart demand - How many buyers' searches a home like it matches.
 * @csspart agent - The agent who serves the place.
 * @csspart comparables - The comparable listings.
 * @csspart comparable - Each comparable.
 * @csspart note - What the estimate is.
 * @csspart lead - 'Get a professional valuation'.
 * @csspart lead-form - The seller's contact form.
 * @csspart lead-submit - Its submit button.
 * @csspart report-consent - 'E-mail me this estimate every month'.
 * @csspart lead-error - The message shown when sending failed.
 * @csspart error - The message shown when the estimate failed.
 * @cssprop --exp-color-primary - Buttons, links.
 * @cssprop --exp-color-surface - The background.
 * @cssprop --exp-color-border - Borders.
 * @cssprop --exp-color-danger - Errors.
 * @cssprop --exp-radius - Corner radius.
 * @cssprop --exp-font-family - Font.
 */
defineElement({
  tag: 'exp-home-valuation',
  utilities,
  texts,
  attributes: homeValuationAttributes,
  component: HomeValuation,
});
