/**
 * <exp-property-search> on a phone's width: the filter bar renders the fields it shows (where, and
 * the type), not the ones its container query would hide (widgets/property-search/filter-bar.tsx,
 * `PHONE`); those are in the sheet "More filters" opens, and come back into the bar when the window
 * is made wide.
 */
import { expect } from '@esm-bundle/chai';
import { sendKeys, setViewport } from '@web/test-runner-commands';
import { API_URL, cleanup, loadBundle, mount, shadow, shadowAll, waitFor } from './helpers.ts';

describe('<exp-property-search> on a phone', () => {
  before(loadBundle);
  afterEach(cleanup);

  it('on a phone renders in the bar only the fields it shows, the rest in the sheet; a window made wide brings them into the bar', async () => {
    const before = { width: window.innerWidth, height: window.innerHeight };
    await setViewport({ width: 390, height: 844 });
    try {
      const el = await mount(
        `<exp-property-search api-url="${API_URL}" sync-url="false" beds="3"></exp-property-search>`,
        'exp-property-search',
        '[part="results-heading"]',
      );
      await waitFor(() => shadowAll(el, '[part~="card"]').length > 0, 15000, 'the cards');
      const bar = shadow(el, '[part="filters"]');
      expect(bar.querySelector('select[name="propertyType"]'), 'the type').not.to.equal(null);
      expect(bar.querySelectorAll('select').length, 'only the type in the bar').to.equal(1);
      shadow<HTMLButtonElement>(el, '[part="more-filters"]').click();
      const inSheet = await waitFor(
        () => el.shadowRoot?.querySelector<HTMLSelectElement>('[part~="filter-sheet"] select[name="beds"]'),
        10000,
        'the sheet with its fields',
      );
      expect(inSheet.value, 'the preset in the sheet').to.equal('3');
      await sendKeys({ press: 'Escape' });
      await setViewport({ width: 1280, height: 800 });
      const beds = await waitFor(
        () => bar.querySelector<HTMLSelectElement>('select[name="beds"]'),
        5000,
        'beds in the bar',
      );
      expect(beds.value, 'the preset in the bar').to.equal('3');
      expect(beds.getBoundingClientRect().width, 'shown').to.be.greaterThan(0);
      expect(
        ['minSqft', 'minPrice', 'maxPrice', 'baths'].every((name) => bar.querySelector(`select[name="${name}"]`)),
        'the other fields',
      ).to.equal(true);
    } finally {
      await setViewport(before);
    }
  });
});
