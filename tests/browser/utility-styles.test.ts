/**
 * The utilities' variables (scripts/widget-styles.ts, scopeVariableDefaults): twind's preflight gave
 * every element and pseudo-element of a shadow root the defaults of some 35 variables; they now
 * apply only to the elements of the classes that read them. The oracle is the old form itself: the same defaults put back on every element
 * change no computed style of the search's elements or their pseudo-elements.
 */
import { expect } from '@esm-bundle/chai';
import { API_URL, cleanup, loadBundle, mount, waitFor } from './helpers.ts';

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

describe("the elements' utilities", () => {
  before(() => loadBundle());
  afterEach(cleanup);

  it('give their variables only where a rule reads them, and no element looks any different for it', async () => {
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

    // twind's preflight, ahead of the utilities: the rules that give only variables, before its
    // box-sizing rule, are the variables' defaults
    const sheet = root.adoptedStyleSheets.find((s) => [...s.cssRules].some(boxSizing)) as CSSStyleSheet;
    const preflight = [...sheet.cssRules].slice(0, [...sheet.cssRules].findIndex(boxSizing));
    const defaults = preflight.filter(variablesOnly);
    expect(defaults.length, 'the rules of the variables').to.be.above(3);
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
    expect(scoped.filter((line) => /rgba?\(/.test(line.split(': ')[1] ?? '')).length, 'shadows drawn').to.be.above(3);
    // the old form: the same defaults for every element and pseudo-element, where they were
    for (const rule of defaults.reverse())
      sheet.insertRule(`*, ::before, ::after { ${rule.style.cssText} }`, [...sheet.cssRules].indexOf(rule));
    expect(computed(root)).to.deep.equal(scoped);
  });
});
