/**
 * The utilities' variables (scripts/widget-styles.ts, scopeVariableDefaults): twind's preflight gave
 * every element and pseudo-element of a shadow root the defaults of some 35 variables; they now
 * apply only to the elements of the classes that read them. The oracle is twind itself: its own
 * rules of those defaults, made here in the browser and put back for every element, change no
 * computed style (shadows, rings, transforms, filters, numerals) of any element or pseudo-element of
 * the search, its detail, its photos full screen, the directory and the valuation.
 */
import { expect } from '@esm-bundle/chai';
import { twind, virtual } from '@twind/core';
import { API_URL, cleanup, loadBundle, mount, waitFor } from './helpers.ts';
import { twindConfig } from '../../widgets/lib/twind-config.ts';

/** twind's own rules of its variables' defaults, as its preflight writes them: for every element */
const OLD_RULES = (() => {
  const tw = twind(twindConfig, virtual());
  tw('filter transform tabular-nums ring shadow before:content-none');
  return (tw.target as string[]).filter((rule) => /^(\*,)?::before,::after\{--tw-/.test(rule));
})();

/** The properties the variables feed: rings and shadows, transforms, filters, numerals. */
const FED = ['box-shadow', 'transform', 'filter', 'font-variant-numeric'] as const;

const variablesOnly = (rule: CSSRule): rule is CSSStyleRule =>
  rule instanceof CSSStyleRule && rule.style.length > 0 && [...rule.style].every((name) => name.startsWith('--tw-'));

/** twind's preflight rule of box-sizing, for every element */
const boxSizing = (rule: CSSRule) =>
  rule instanceof CSSStyleRule && rule.selectorText === '*, ::before, ::after' && rule.style.boxSizing === 'border-box';

function computed(root: ShadowRoot): string[] {
  return [...root.querySelectorAll('*')].flatMap((node) =>
    [null, '::before', '::after'].map((pseudo) => {
      const style = getComputedStyle(node, pseudo);
      return `${node.localName}${pseudo ?? ''} ${node.getAttribute('part') ?? ''}: ${FED.map((p) => style.getPropertyValue(p)).join(' | ')}`;
    }),
  );
}

/**
 * Checks one element's shadow root: no rule gives the variables to every element, each rule of them
 * names classes, and putting the old rules back changes no computed style. Returns how many of its
 * elements draw a shadow or a ring.
 */
function sameWithTheOldRules(root: ShadowRoot): number {
  // twind's preflight, ahead of the utilities: the rules that give only variables, before its
  // box-sizing rule, are the variables' defaults
  const sheet = root.adoptedStyleSheets.find((s) => [...s.cssRules].some(boxSizing)) as CSSStyleSheet;
  const preflight = [...sheet.cssRules].slice(0, [...sheet.cssRules].findIndex(boxSizing));
  const defaults = preflight.filter(variablesOnly);
  expect(defaults.length, 'the rules of the variables').to.be.above(1);
  const everywhere = root.adoptedStyleSheets
    .flatMap((s) => [...s.cssRules])
    .filter((r) => variablesOnly(r) && /(^|,)\s*(\*|::before|::after)\s*(,|$)/.test(r.selectorText));
  expect(
    everywhere.map((r) => r.cssText),
    'a rule giving the variables to every element',
  ).to.deep.equal([]);
  for (const rule of defaults)
    for (const selector of rule.selectorText.split(/,\s*/))
      expect(selector, 'a rule of the variables names the class that reads them').to.match(
        /^\.(?:\\.|[^\s:\\])+(::(before|after))?$/,
      );
  const scoped = computed(root);
  // the old form: twind's own rules, for every element and pseudo-element, where its preflight put
  // them (before its box-sizing rule); taken out again after (the sheet is shared by every element
  // of the tag)
  for (const rule of [...OLD_RULES].reverse()) sheet.insertRule(rule, [...sheet.cssRules].findIndex(boxSizing));
  try {
    expect(computed(root)).to.deep.equal(scoped);
  } finally {
    for (let i = 0; i < OLD_RULES.length; i++) sheet.deleteRule([...sheet.cssRules].findIndex(boxSizing) - 1);
  }
  return scoped.filter((line) => /rgba?\(/.test(line.split(': ')[1] ?? '')).length;
}

describe("the elements' utilities", () => {
  before(() => loadBundle());
  afterEach(cleanup);

  it('give their variables only where a rule reads them, and no element looks any different for it: the search, a card highlighted, its detail open, its photos full screen', async () => {
    const el = await mount(
      `<exp-property-search api-url="${API_URL}" sync-url="false" show-map="false" city="cumbaya"></exp-property-search>`,
      'exp-property-search',
      '[part~="card"]',
    );
    const root = el.shadowRoot as ShadowRoot;
    // a card highlighted, so a ring is drawn as well as the cards' shadows
    const card = root.querySelector('[part~="card"]') as HTMLElement;
    card.dispatchEvent(new MouseEvent('mouseover', { bubbles: true, composed: true }));
    await waitFor(() => card.getAttribute('part') === 'card card-highlighted', 5000, 'a highlighted card');
    expect(sameWithTheOldRules(root), 'shadows drawn').to.be.above(3);
    // the detail: the dialog's shadow, its photos' controls, the payment's figures, the form's rings
    (card.querySelector('a.exp-card-link') as HTMLElement).click();
    await waitFor(() => root.querySelector('dialog[open] [part="payment"]'), 8000, 'the detail with its payment');
    expect(sameWithTheOldRules(root), 'shadows drawn').to.be.above(3);
    // its photos full screen: the counter's figures
    (root.querySelector('dialog[open] [part="full-screen"]') as HTMLElement).click();
    await waitFor(() => root.querySelector('[part="gallery-counter"]'), 8000, 'the gallery');
    sameWithTheOldRules(root);
  });

  it('the same in the directory and the valuation', async () => {
    expect(OLD_RULES.length, "twind's rules of the variables").to.equal(6);
    for (const [html, tag, ready] of [
      [
        `<exp-agent-directory api-url="${API_URL}"></exp-agent-directory>`,
        'exp-agent-directory',
        '[part~="agent-card"]',
      ],
      [`<exp-home-valuation api-url="${API_URL}"></exp-home-valuation>`, 'exp-home-valuation', '[part="form"]'],
    ] as const) {
      const el = await mount(html, tag, ready);
      expect(sameWithTheOldRules(el.shadowRoot as ShadowRoot), tag).to.be.above(0);
    }
  });
});
