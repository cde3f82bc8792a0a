import { defineElement } from '../lib/element.tsx';
import { marketReportAttributes } from './market-report.attributes.ts';
import { MarketReport } from './market-report.tsx';
import texts from 'virtual:exp-texts/market-report';
import utilities from 'virtual:exp-utilities/market-report';

/**
 * A place's market report (docs/market.md), as the site's /market pages show it: last month's
 * median asking price per m² with its change over a year and the count it stands on, the months
 * as a chart (SVG, with its figures as a table), and the places within ranked with their trend
 * lines, each a link to its report on the site. A month of too few listings shows its parent
 * place's figure and says so. For agents' and partners' pages: "what does an m² cost here".
 * "Follow this market" takes an e-mail for the place's report early each month (double opt-in;
 * the confirmed follow is a lead for `lead-agent-id`).
 *
 * @tag exp-market-report
 * @fires exp-market-loaded - The figures are shown: `detail` is `{ place, typeGroup, month, median, listings, fromPlace }` (`fromPlace` differs from `place` when the figure is its parent's).
 * @csspart root - The element's root box.
 * @csspart heading - The heading.
 * @csspart figure - The headline median per m².
 * @csspart change - The change over twelve months.
 * @csspart chart - The chart and its table.
 * @csspart ranking - The places within, ranked.
 * @csspart note - How it is counted.
 * @csspart follow-button - 'Follow this market', which opens the follow form.
 * @csspart alerts - The follow form's dialog.
 * @cssprop --exp-color-primary - The chart's line, links.
 * @cssprop --exp-color-surface - The background.
 * @cssprop --exp-color-border - Borders and grid lines.
 * @cssprop --exp-radius - Corner radius.
 * @cssprop --exp-font-family - Font.
 */
defineElement({
  tag: 'exp-market-report',
  utilities,
  texts,
  attributes: marketReportAttributes,
  component: MarketReport,
});
